"""Security step of the factory: response headers, cookies, proxy and host trust, odd requests.

The headers are added by a WSGI middleware around everything (WhiteNoise's static files and
Flask's pages and errors alike), so no response can leave without them. The CSP is one fixed
string built from config at start-up: pages are cached and frozen, so there are no per-request
nonces; the one inline executable script, the islands' bootstrap, is allowed by its sha256,
which never changes with a build (app/rendering/bootstrap.js; the factory passes it in). Pixel
and analytics hosts are allowed only when their ids are configured.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

MAX_PATH_LENGTH = 2048
MAX_QUERY_LENGTH = 4096
MAX_HEADER_BYTES = 16 * 1024  # gunicorn's own limits (limit_request_field*) stop most before
ALLOWED_METHODS = {"GET", "HEAD", "POST", "OPTIONS"}

# Hosts each vendor's browser tag needs (Meta's and Google's published CSP guidance).
META_HOSTS = {
    "script-src": ["https://connect.facebook.net"],
    "img-src": ["https://www.facebook.com"],
    "connect-src": ["https://www.facebook.com", "https://connect.facebook.net"],
}
GA4_HOSTS = {
    "script-src": ["https://www.googletagmanager.com"],
    "img-src": ["https://*.google-analytics.com", "https://www.googletagmanager.com"],
    "connect-src": [
        "https://*.google-analytics.com",
        "https://*.analytics.google.com",
        "https://www.googletagmanager.com",
    ],
}
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), "
    "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), "
    "interest-cohort=()"
)


def content_security_policy(config, inline_scripts: tuple[str, ...]) -> str:
    """The one CSP: same-origin everything, no inline script but those allowed by their hash
    (`inline_scripts`: the islands' bootstrap), no inline style, no framing."""
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", *inline_scripts],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "media-src": ["'self'"],
        "object-src": ["'none'"],
        "frame-src": ["'none'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
    }
    for configured, hosts in (("META_PIXEL_ID", META_HOSTS), ("GA4_MEASUREMENT_ID", GA4_HOSTS)):
        if config.get(configured):
            for directive, extra in hosts.items():
                directives[directive] += extra
    policy = "; ".join(f"{name} {' '.join(values)}" for name, values in directives.items())
    if config.get("ENV_NAME") == "production":
        policy += "; upgrade-insecure-requests"
    return policy


def security_headers(config, inline_scripts: tuple[str, ...]) -> list[tuple[str, str]]:
    """The headers every response gets: the CSP, HSTS when HSTS_MAX_AGE is set, and more."""
    headers = [
        ("Content-Security-Policy", content_security_policy(config, inline_scripts)),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-site"),
        ("Permissions-Policy", PERMISSIONS_POLICY),
        ("X-Frame-Options", "DENY"),  # for browsers without frame-ancestors
    ]
    if config["HSTS_MAX_AGE"]:
        hsts = f"max-age={config['HSTS_MAX_AGE']}; includeSubDomains"
        headers.append(("Strict-Transport-Security", hsts))
    return headers


ADDITIVE_HEADERS = {"content-security-policy"}
# What a view sets, for the middleware only, to have its answer carry the site's headers with a
# CSP that names no ad host (for a visitor who opted out): one of the two policies the
# middleware made itself, never one a view writes.
WITHOUT_ADS = "X-Without-Ads"
# Headers a view may set to replace the site's value for its own answer: the seller's status
# page sends `Referrer-Policy: no-referrer`, stricter than the site's default.
OVERRIDABLE_HEADERS = {"referrer-policy"}


class SecurityMiddleware:
    """Refuse absurd requests before any code sees them; add the headers to every response."""

    def __init__(self, wsgi_app, headers: list[tuple[str, str]], without_ads=None):
        self.wsgi_app = wsgi_app
        self.headers = headers
        self.without_ads = without_ads or headers
        # A view may add a stricter Content-Security-Policy of its own (the staff photo route's
        # `sandbox`): browsers enforce every CSP header, so it narrows the site's, never widens.
        self.names = {name.lower() for name, _ in headers} - ADDITIVE_HEADERS | {"server"}
        self.names -= OVERRIDABLE_HEADERS

    def refusal(self, environ) -> tuple[str, str] | None:
        """Status and message for a request refused outright (odd method or oversize), or None."""
        if environ.get("REQUEST_METHOD", "GET") not in ALLOWED_METHODS:
            return "405 Method Not Allowed", "This address does not accept that method."
        if len(environ.get("PATH_INFO", "")) > MAX_PATH_LENGTH:
            return "414 URI Too Long", "This address is too long."
        if len(environ.get("QUERY_STRING", "")) > MAX_QUERY_LENGTH:
            return "414 URI Too Long", "This address is too long."
        header_bytes = sum(
            len(k) + len(str(v)) for k, v in environ.items() if k.startswith("HTTP_")
        )
        if header_bytes > MAX_HEADER_BYTES:
            return "431 Request Header Fields Too Large", "The request's headers are too large."
        return None

    def __call__(self, environ, start_response):
        def with_headers(status, headers, exc_info=None):
            """start_response with the site's headers replacing the app's, bar overridable ones
            (and without the ad hosts when the app asked for that)."""
            no_ads = any(n.lower() == WITHOUT_ADS.lower() for n, _ in headers)
            kept = [(n, v) for n, v in headers if n.lower() not in self.names]
            kept = [(n, v) for n, v in kept if n.lower() != WITHOUT_ADS.lower()]
            own = {name.lower() for name, _ in kept} & OVERRIDABLE_HEADERS
            site = self.without_ads if no_ads else self.headers
            added = [(n, v) for n, v in site if n.lower() not in own]
            return start_response(status, kept + added, exc_info)

        refused = self.refusal(environ)
        if refused:
            status, message = refused
            body = f"<!doctype html><title>{status}</title><h1>{status}</h1><p>{message}</p>"
            with_headers(
                status,
                [
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Allow", ", ".join(sorted(ALLOWED_METHODS))),
                    ("Content-Length", str(len(body.encode()))),
                ],
            )
            return [body.encode()]
        return self.wsgi_app(environ, with_headers)


def init_app(app: Flask, inline_scripts: tuple[str, ...]) -> None:
    """Run last in create_app(), so the middleware wraps WhiteNoise and everything else; the
    CSP allows the inline scripts whose hash sources are given, and no other."""
    config = app.config
    proxies = {
        name: config[f"PROXY_FIX_{name.upper()}"]
        for name in ("x_for", "x_proto", "x_host", "x_port", "x_prefix")
    }
    if any(proxies.values()):
        app.wsgi_app = ProxyFix(app.wsgi_app, **proxies)
    without_ads = {**config, "META_PIXEL_ID": "", "GA4_MEASUREMENT_ID": ""}
    app.wsgi_app = SecurityMiddleware(
        app.wsgi_app,
        security_headers(config, inline_scripts),
        security_headers(without_ads, inline_scripts),
    )
