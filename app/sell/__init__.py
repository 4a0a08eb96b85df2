"""The sell form: the site's one real function."""

from flask import Blueprint, Flask

bp = Blueprint("sell", __name__)


def init_app(app: Flask) -> None:
    """The submission rate limit, which must wrap the blueprint registered on this app."""
    from app.sell.ratelimit import limit_submissions

    limit_submissions(app, bp)


from app.sell import routes  # noqa: E402,F401
