"""Who is signed in to the staff area, and the guards every staff view sits behind.

`staff_required` and `current_staff()` are the interface for staff pages anywhere in the app;
the staff blueprint also applies the same guard to each of its views not marked `public`, so a
view that forgets the decorator is still closed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlsplit

from flask import current_app, redirect, request, session, url_for

from app.leads import audit
from app.security.client import client_address
from app.staff import sessions

FULL = 2  # aal2: password and a second factor in this session


def current_staff() -> dict | None:
    """The signed-in staff account ({id, email, name}) when the request carries a live aal2
    session, else None. Use it for the actor of audit entries and lead events."""
    row = sessions.load()
    if row is None or row["aal"] < FULL:
        return None
    staff = row["staff"]
    return {"id": staff["id"], "email": staff["email"], "name": staff["name"]}


def record(action: str, lead_id: int | None = None, data: dict | None = None) -> None:
    """Audit an action of the signed-in staff member, with their address."""
    staff = current_staff()
    audit.record(action, staff["id"] if staff else None, lead_id, client_address(), data)


def safe_next(target: str | None) -> str | None:
    """Only a path inside the staff area may be returned to after sign-in."""
    if target and target.startswith("/staff/") and not target.startswith(("//", "/\\")):
        return target
    return None


def way_back() -> str | None:
    """The staff page to return to after a detour: this one for a GET; for a POST (which
    cannot be replayed by a redirect) the page that holds its form."""
    if request.method == "GET":
        return safe_next(request.full_path.rstrip("?"))
    referrer = urlsplit(request.referrer or "")
    return safe_next(referrer.path) if referrer.netloc == request.host else None


def to_sign_in():
    """The answer to a request without a full session: a redirect carrying no data."""
    session["staff_next"] = way_back()
    return redirect(url_for("staff.login"), code=303)


def staff_required(view: Callable) -> Callable:
    """Open `view` only to a live session with both factors (aal2); others go to sign-in."""

    @wraps(view)
    def guarded(*args, **kwargs):
        """Send a request without a live aal2 session to sign-in, else run the view."""
        if current_staff() is None:
            return to_sign_in()
        return view(*args, **kwargs)

    return guarded


def require_recent_auth(view: Callable) -> Callable:
    """For sensitive actions (export, erasure): both factors given again within the last
    STAFF_REAUTH_MINUTES, else a detour through /staff/confirm and back. Put it on the page
    that shows the action's form and on the action's POST."""

    @staff_required
    @wraps(view)
    def guarded(*args, **kwargs):
        """Run the view if both factors were given recently, else detour via /staff/confirm."""
        if not sessions.recently_verified(current_app.config["STAFF_REAUTH_MINUTES"]):
            session["staff_confirm_next"] = way_back()
            return redirect(url_for("staff.confirm"), code=303)
        return view(*args, **kwargs)

    return guarded


def public(view: Callable) -> Callable:
    """Mark a sign-in or enrolment view as open without a session."""
    view.staff_public = True
    return view


def guard_blueprint() -> None:
    """before_request of the staff blueprint: every view not marked `public` needs aal2."""
    view = current_app.view_functions.get(request.endpoint)
    if view is not None and not getattr(view, "staff_public", False) and not current_staff():
        return to_sign_in()
    return None
