"""City landing pages: /sell-watch-<slug>."""

from flask import Blueprint

bp = Blueprint("locations", __name__)

from app.locations import routes  # noqa: E402,F401
