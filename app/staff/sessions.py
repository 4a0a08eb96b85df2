"""Server-side staff sessions: the cookie holds only a random id, the database a row per
session (its id's digest, account, assurance level, created, last seen, address, browser).

A session starts at aal1 when the password is right and is replaced by a new one at aal2 when
the code is right (within CODE_WAIT); an id the browser brought along is never adopted (no
session fixation). A session ends at sign-out, on revocation, after STAFF_SESSION_IDLE_MINUTES
without a request and STAFF_SESSION_MAX_HOURS after it started, whichever comes first.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask, Response, current_app, g, request, session

from app.security.client import client_address
from app.security.tokens import digest, new_token
from app.staff import queries

DEV_COOKIE = "staff"
PRODUCTION_COOKIE = "__Host-staff"  # the prefix makes browsers demand Secure, Path=/, no Domain
NO_CHANGE = object()
CODE_WAIT = timedelta(minutes=10)  # from a right password to its code


def cookie_name() -> str:
    """The cookie's name: `__Host-` prefixed in production (it needs HTTPS), else plain."""
    return PRODUCTION_COOKIE if current_app.config["ENV_NAME"] == "production" else DEV_COOKIE


def age(stamp: str) -> timedelta:
    """How long ago an ISO timestamp was."""
    return datetime.now(UTC) - datetime.fromisoformat(stamp)


def is_expired(row: dict) -> bool:
    """Idle too long, started too long ago, or waiting too long for its code."""
    config = current_app.config
    idle = timedelta(minutes=config["STAFF_SESSION_IDLE_MINUTES"])
    absolute = timedelta(hours=config["STAFF_SESSION_MAX_HOURS"])
    if row["aal"] < 2:
        absolute = min(absolute, CODE_WAIT)
    return age(row["last_seen_at"]) > idle or age(row["created_at"]) > absolute


def load() -> dict | None:
    """The live session the request's cookie names (with its account), once per request.

    An expired session, or one whose account is disabled, is ended on the spot.
    """
    if "staff_session" in g:
        return g.staff_session
    g.staff_session = None
    token = request.cookies.get(cookie_name())
    row = queries.session_by_token(digest(token)) if token else None
    if row is None:
        return None
    staff = queries.staff_by_id(row["staff_id"])
    if is_expired(row) or staff is None or staff["disabled_at"] or not staff["enrolled_at"]:
        queries.end_session(row["id"])
        g.staff_cookie = ""
        return None
    queries.touch_session(row["id"])
    g.staff_session = row | {"staff": staff}
    return g.staff_session


def begin(staff: dict, aal: int) -> None:
    """A fresh session at `aal` for `staff`, replacing whatever session the browser had, and a
    fresh CSRF secret, so a token learnt before sign-in is worthless after it."""
    end_current()
    session.pop("csrf_token", None)
    token = new_token()
    user_agent = request.headers.get("User-Agent", "")[:300]
    queries.insert_session(digest(token), staff["id"], aal, client_address(), user_agent)
    g.staff_cookie = token
    g.staff_session = queries.session_by_token(digest(token)) | {"staff": staff}


def end_current() -> None:
    """Sign out: the session ends on the server and the cookie is cleared."""
    token = request.cookies.get(cookie_name())
    row = queries.session_by_token(digest(token)) if token else None
    if row:
        queries.end_session(row["id"])
    g.staff_session = None
    g.staff_cookie = ""


def mark_verified() -> None:
    """Both factors were just given again (before export or erasure)."""
    queries.mark_verified(g.staff_session["id"])


def recently_verified(minutes: int) -> bool:
    """Whether both factors were given (at sign-in or since) within the last `minutes`."""
    row = load()
    return bool(row and row["verified_at"]) and age(row["verified_at"]) <= timedelta(
        minutes=minutes
    )


def write_cookie(response: Response) -> Response:
    """Set or clear the cookie when this request began or ended a session."""
    token = g.get("staff_cookie", NO_CHANGE)
    if token is NO_CHANGE:
        return response
    production = current_app.config["ENV_NAME"] == "production"
    options = {"path": "/", "secure": production, "httponly": True, "samesite": "Strict"}
    if token:
        response.set_cookie(cookie_name(), token, **options)
    else:
        response.delete_cookie(cookie_name(), **options)
    return response


def init_app(app: Flask) -> None:
    """Set or clear the staff session cookie after each request."""
    app.after_request(write_cookie)
