"""The sell form: the site's one real function."""

from flask import Blueprint

bp = Blueprint("sell", __name__)

from app.sell import routes  # noqa: E402,F401
