"""The seller's private status page, /status/<token>: their reference, their watch and where
the sale stands, reached from the link in the confirmation e-mail.

The token (192 random bits) is the only key: it is stored as a SHA-256 hash, looked up by that
hash, kept out of request logs (app/security/logs.py) and never sent on as a referrer. An unknown,
altered or expired token (180 days after the lead's last activity) and an erased lead all get
the site's one 404 page. Nothing here is page-cached, stored by browsers or indexed.
"""

from flask import Flask, Response, request

from app.status.routes import bp

__all__ = ["bp", "init_app"]

PRIVATE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex, nofollow",
    "Referrer-Policy": "no-referrer",
}


def private_headers(response: Response) -> Response:
    """Every answer under /status (pages, .ics files, 404s) is private to the link's holder."""
    if request.path == "/status" or request.path.startswith("/status/"):
        response.headers.update(PRIVATE_HEADERS)
    return response


def asked_address() -> str:
    return request.form.get("email", "").strip().lower()


def init_app(app: Flask) -> None:
    """The headers, and the limits (on the sell form's limiter, app/sell/ratelimit.py, which
    has the storage and the Redis fallback): the lost-link form per client address and per
    e-mail address asked for, so no one can have a seller's inbox flooded; the seller's
    question and photo forms per client address, so no one can flood staff's."""
    app.after_request(private_headers)
    limiter, config = app.extensions["sell_limiter"], app.config
    limits = {
        "status.lost_link": [
            limiter.limit(config["STATUS_LINK_RATELIMIT"], methods=["POST"]),
            limiter.limit(
                config["STATUS_LINK_EMAIL_RATELIMIT"], methods=["POST"], key_func=asked_address
            ),
        ],
        "status.ask": [limiter.limit(config["STATUS_ACTION_RATELIMIT"])],
        "status.add_photos": [limiter.limit(config["STATUS_ACTION_RATELIMIT"])],
    }
    # A decorated limit is checked by its wrapper, so the wrapper becomes this app's view.
    for endpoint, decorators in limits.items():
        view = app.view_functions[endpoint]
        for decorate in decorators:
            view = decorate(view)
        app.view_functions[endpoint] = view
