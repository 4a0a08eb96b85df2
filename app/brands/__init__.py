"""Brand landing pages: /sell-<brand>-watch."""

from flask import Blueprint

bp = Blueprint("brands", __name__)

from app.brands import routes  # noqa: E402,F401
