"""The blog index and articles."""

from flask import Blueprint

bp = Blueprint("blog", __name__)

from app.blog import routes  # noqa: E402,F401
