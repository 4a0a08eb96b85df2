"""The seller's private status page, /status/<token>: their reference, their watch and where
the sale stands, reached from the link in the confirmation e-mail.

The token (192 random bits) is the only key: it is stored as a SHA-256 hash, looked up by that
hash, kept out of request logs (app/security/logs.py) and never sent on as a referrer. An unknown,
altered, expired (180 days after the link was issued) or revoked token and an erased lead all
get the site's one 404 page (app/leads/links.py). Nothing here is page-cached, stored by
browsers or indexed. The area's URLs are routes.py's, its views views.py's.
"""

from flask import Flask, Response, request

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


def init_app(app: Flask) -> None:
    """Every answer under /status is private to the link's holder."""
    app.after_request(private_headers)
