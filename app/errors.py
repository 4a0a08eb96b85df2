"""Every error answer the site gives, in one place: JSON for a request that asks for JSON (the
islands), the site's own page otherwise, and never a stack trace.

Blueprints do not handle errors themselves; they say how theirs read with `word()`: the message
and, where it suits them better than the site's error page, the page that shows it (the sell
form again with its values, the status page with a notice). Also the not-found page, for
unmatched paths and for /404 (where unknown cities are sent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Blueprint, Flask, current_app, jsonify, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from markupsafe import escape
from werkzeug.exceptions import HTTPException, InternalServerError

from app.rendering import seo
from app.rendering.layout import site_info

bp = Blueprint("errors", __name__)

HEADINGS = {
    400: "That request did not work",
    403: "Not allowed",
    405: "Not allowed",
    413: "That upload is too large",
    429: "Too many requests",
    500: "Something went wrong",
}
MESSAGES = {
    400: "Your browser sent something we could not read. Please go back and try again.",
    403: "You are not allowed to open this page.",
    404: "The page you were looking for does not exist.",
    405: "That address does not take this kind of request.",
    413: "The upload is larger than we take. Please send fewer or smaller files.",
    429: "Too many requests from your connection. Please wait a few minutes and try again.",
    500: "Something went wrong on our side, and nothing was changed. Please try again in a "
    "moment, or call us on {phone}.",
}
SHOWN_ERRORS = (400, 403, 404, 405, 413, 429)


@dataclass(frozen=True)
class Wording:
    """How one blueprint words one error: its message, and the page that shows it (or None
    for the site's error page)."""

    message: str | Callable[[], str]
    page: Callable[[str, int], ResponseReturnValue] | None = None

    def text(self) -> str:
        """The message, computed now if it depends on the app's settings."""
        return self.message() if callable(self.message) else self.message


WORDINGS: dict[tuple[str, int | type[Exception]], Wording] = {}


def word(
    blueprint: Blueprint,
    error: int | type[Exception],
    message: str | Callable[[], str],
    page: Callable[[str, int], ResponseReturnValue] | None = None,
) -> None:
    """Say how `blueprint` words an error, by status code or by exception class (CSRFError is
    a 400 of its own). The answer's form (JSON or page) stays this module's decision."""
    WORDINGS[(blueprint.name, error)] = Wording(message, page)


def wording_for(error: HTTPException) -> Wording | None:
    """The blueprint's wording for this error: by its class first, then by its code."""
    blueprint = request.blueprint or ""
    for key in (type(error), error.code):
        if (blueprint, key) in WORDINGS:
            return WORDINGS[(blueprint, key)]
    return None


def wants_json() -> bool:
    """Whether the request prefers JSON to HTML (the islands ask for it)."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def default_message(code: int) -> str:
    """The site's own words for an error code."""
    return MESSAGES.get(code, MESSAGES[400]).format(phone=site_info()["phone"])


def handle_http_error(error: HTTPException) -> ResponseReturnValue:
    """Any 4xx: the blueprint's words if it has some, in the form the request asked for."""
    if request_ctx.url_adapter is None:  # an untrusted Host header: no page is built for it
        return error
    code = error.code or 400
    wording = wording_for(error)
    message = wording.text() if wording else default_message(code)
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    if wants_json():
        return jsonify(success=False, error=message, errors={}), code, headers
    if wording and wording.page:
        return wording.page(message, code)
    if code == 404:
        return not_found_response()
    return error_page(code, message), code, headers


def handle_server_error(error: InternalServerError) -> ResponseReturnValue:
    """A 500 (Flask has already logged the exception): a message, never the trace."""
    try:
        message = default_message(500)
    except Exception:  # the content database may be what failed
        message = MESSAGES[500].format(phone="us")
    if wants_json():
        return jsonify(success=False, error=message, errors={}), 500
    try:
        return error_page(500, message), 500
    except Exception:
        current_app.logger.exception("The error page itself failed; a plain one was sent.")
        return f"<!doctype html><title>Error</title><p>{escape(message)}</p>", 500


def error_page(code: int, message: str) -> str:
    """The site's error page for `code` (not indexed)."""
    meta = seo.PageMeta(
        title=f"{HEADINGS.get(code, HEADINGS[400])} | {site_info()['name']}",
        description=message,
        path=canonical_path(),
        noindex=True,
    )
    return render_template(
        "errors/error.html",
        meta=meta,
        status=code,
        heading=HEADINGS.get(code, HEADINGS[400]),
        message=message,
    )


# Paths whose segments are secrets (a seller's status or erasure link, a staff enrolment link):
# an error page's canonical address names only the prefix, so no token is written into a page.
SECRET_PATHS = ("/status/", "/staff/enrol/")


def canonical_path() -> str:
    """The request's path for an error page's canonical address, less any secret in it."""
    for prefix in SECRET_PATHS:
        if request.path.startswith(prefix):
            return prefix.rstrip("/")
    return request.path


def not_found_response(
    template: str = "errors/404.html",
    title: str = "Page Not Found",
    description: str = "The page you were looking for does not exist.",
    path: str | None = None,
):
    """A 404 page that search engines are told not to index (also used for unknown articles);
    `path` replaces the request's in its canonical address (a status link's token stays out)."""
    meta = seo.PageMeta(
        title=f"{title} | {site_info()['name']}",
        description=description,
        path=path or canonical_path(),
        noindex=True,
    )
    return render_template(template, meta=meta), 404


def not_found_page():
    """Where unknown city slugs are redirected: the not-found page, with status 404."""
    return not_found_response()


bp.get("/404")(not_found_page)


def init_app(app: Flask) -> None:
    """The handlers, for every blueprint and for paths no route matches."""
    for code in SHOWN_ERRORS:
        app.register_error_handler(code, handle_http_error)
    app.register_error_handler(InternalServerError, handle_server_error)
