"""The seller's "do not sell or share" choice as the server reads it: their browser's Global
Privacy Control signal (`Sec-GPC: 1`), or the cookie the privacy choices page sets.

Only requests the app answers itself read it here (the sell form, the choices page). Pages
shared by every visitor (the page cache, `flask freeze`) cannot, so there the browser decides:
components/shared/tracking.js reads the same cookie and `navigator.globalPrivacyControl`.
An opted-out visitor gets no Meta pixel and no Google tag, and their lead is marked so that
nothing about it is ever sent to either (app/conversions/send.py).
"""

from __future__ import annotations

from flask import Request, Response, current_app, request

from app.security.headers import WITHOUT_ADS

GPC = "gpc"
CHOICE = "choice"
OPT_OUTS = (GPC, CHOICE)
COOKIE = "privacy_opt_out"
COOKIE_SECONDS = 365 * 24 * 3600
DESCRIPTIONS = {
    GPC: "Global Privacy Control signal",
    CHOICE: "Privacy choices page",
}


def secure_cookies() -> bool:
    """Cookies are Secure where the session's is (production, over HTTPS)."""
    return bool(current_app.config.get("SESSION_COOKIE_SECURE"))


def cookie_name() -> str:
    """`__Host-` in production, as the session cookie: only this host, over HTTPS, can set it."""
    return ("__Host-" if secure_cookies() else "") + COOKIE


def sends_gpc(request: Request) -> bool:
    """The browser sends the Global Privacy Control signal with this request."""
    return request.headers.get("Sec-GPC", "").strip() == "1"


def chose_opt_out(request: Request) -> bool:
    """The visitor opted out on the privacy choices page (its cookie came with the request)."""
    return request.cookies.get(cookie_name()) == "1"


def opt_out(request: Request, seen_in_browser: str = "") -> str | None:
    """How the visitor said no to sharing ('gpc' or 'choice'), or None if they did not.

    `seen_in_browser` is what the sell form's script found (`navigator.globalPrivacyControl`,
    the cookie): it can only add an opt-out, never take one away.
    """
    if sends_gpc(request):
        return GPC
    if chose_opt_out(request):
        return CHOICE
    return seen_in_browser if seen_in_browser in OPT_OUTS else None


def without_ads_for_opted_out(response: Response) -> Response:
    """after_request: a visitor who opted out gets a CSP naming no ad host (the security
    middleware swaps the policy), whatever page the app answers."""
    if opt_out(request):
        response.headers[WITHOUT_ADS] = "1"
    return response


def remember_opt_out(response: Response) -> None:
    """Keep the choice for a year in a first-party cookie the page scripts can read (not
    HttpOnly: frozen pages decide in the browser whether the pixel and the tag load)."""
    response.set_cookie(
        cookie_name(),
        "1",
        max_age=COOKIE_SECONDS,
        path="/",
        secure=secure_cookies(),
        httponly=False,
        samesite="Lax",
    )


def forget_opt_out(response: Response) -> None:
    """Opting back in: the cookie is removed."""
    response.delete_cookie(
        cookie_name(), path="/", secure=secure_cookies(), httponly=False, samesite="Lax"
    )
