"""The sell form: the site's one real function."""

from flask import Flask

from app.sell.ratelimit import limit_submissions
from app.sell.routes import bp


def init_app(app: Flask) -> None:
    """The submission rate limit, which must wrap the blueprint registered on this app."""
    limit_submissions(app, bp)
