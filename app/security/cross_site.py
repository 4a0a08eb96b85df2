"""Refuse form posts sent from another site, as far as the browser tells us.

Beside the CSRF token, this takes the place of Flask-WTF's HTTPS Referer check, which is off
(WTF_CSRF_SSL_STRICT, app/config.py): the seller's status pages send `Referrer-Policy:
no-referrer` so their link's token never leaves in a Referer, and browsers then send no Referer
to the site itself either (and `Origin: null`). What a browser does send is weighed in turn:
`Sec-Fetch-Site` (sent whatever the referrer policy), else an `Origin` naming a site, else a
`Referer`. A post that carries none of them is left to the token, which the `__Host-` session
cookie keeps out of reach of other hosts.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, abort, request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OTHER_SITES = frozenset({"cross-site", "same-site"})  # same-site: a sibling subdomain


def origin_of(url: str) -> tuple[str, str]:
    """Scheme and host (with any port) of a URL, lowercased, for comparing origins."""
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def sent_from_another_site() -> bool:
    """Whether the browser's own headers say this request came from a page of another site."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site:
        return fetch_site in OTHER_SITES
    ours = origin_of(request.host_url)
    origin = request.headers.get("Origin", "null")
    if origin != "null":
        return origin_of(origin) != ours
    referer = request.headers.get("Referer")
    return bool(referer) and origin_of(referer) != ours


def refuse_cross_site_writes() -> None:
    """A 403 for a state-changing request sent from another site."""
    if request.method not in SAFE_METHODS and sent_from_another_site():
        abort(403)


def init_app(app: Flask) -> None:
    """Check every request before the CSRF token is, so the refusal is the same with or
    without a token."""
    app.before_request(refuse_cross_site_writes)
