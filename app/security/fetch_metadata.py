"""Refuse form posts that a browser says came from another site (Fetch Metadata).

Beside the CSRF token, this takes the place of Flask-WTF's HTTPS Referer check, which is off
(WTF_CSRF_SSL_STRICT, app/config.py): the seller's status pages send `Referrer-Policy:
no-referrer` so their link's token never leaves in a Referer, and browsers then send no Referer
to the site itself either. `Sec-Fetch-Site` is sent whatever the referrer policy. Browsers too
old to send it are left to the token, which the `__Host-` session cookie keeps out of reach of
other hosts.
"""

from __future__ import annotations

from flask import Flask, abort, request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OTHER_SITES = frozenset({"cross-site", "same-site"})  # same-site: a sibling subdomain


def refuse_cross_site_writes() -> None:
    """A 403 for a state-changing request the browser marked as sent from another site."""
    if request.method not in SAFE_METHODS and request.headers.get("Sec-Fetch-Site") in OTHER_SITES:
        abort(403)


def init_app(app: Flask) -> None:
    """Check every request before the CSRF token is, so the refusal is the same with or
    without a token."""
    app.before_request(refuse_cross_site_writes)
