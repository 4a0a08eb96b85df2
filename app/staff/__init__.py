"""The staff area under /staff: sign-in with a password and a TOTP code (aal2), server-side
sessions, enrolment by one-time link, the leads inbox (views/inbox.py) and `flask staff`.

Other packages build staff pages on `auth.staff_required` and `auth.current_staff()`.
"""

from flask import Flask, Response, request

from app.staff import recovery_codes, sessions


def private_headers(response: Response) -> Response:
    """Staff answers are never stored by a browser or proxy, nor indexed."""
    if request.path == "/staff" or request.path.startswith("/staff/"):
        if "no-store" not in response.headers.get("Cache-Control", ""):
            response.headers["Cache-Control"] = "no-store"  # a view may say more (private)
        response.headers["X-Robots-Tag"] = "noindex, nofollow"
    return response


def init_app(app: Flask) -> None:
    """Register the staff session cookie and the private headers on `app`; re-key recovery codes
    an earlier release stored unkeyed (the key is known only here, not to the migrations)."""
    sessions.init_app(app)
    app.after_request(private_headers)
    with app.app_context():
        recovery_codes.rekey_stored_codes()
