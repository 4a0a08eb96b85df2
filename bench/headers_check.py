"""Print every security header of /, /sell, an article, a 404 and a static file; exit 1 if one
is missing or weak.

    python bench/headers_check.py                         # in-process, production settings
    python bench/headers_check.py https://www.example.com  # a deployed site

In-process it builds the app with APP_ENV=production (a throwaway SECRET_KEY, SITE_URL
https://watches.example), so HSTS and the `__Host-` cookie are what production sends.
"""

from __future__ import annotations

import re
import sys
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rendering.assets import BOOTSTRAP_CSP_HASH  # noqa: E402  (the path just above)

PATHS = ("/", "/sell", "/blog/luxury-watch-market-usa", "/no-such-page", "/static/img/logo.svg")
SHOWN = (
    "Content-Security-Policy",
    "Strict-Transport-Security",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Resource-Policy",
    "Permissions-Policy",
    "X-Frame-Options",
    "Server",
    "Set-Cookie",
)
CSP_MUST = ("frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'")


def problems(path: str, headers) -> list[str]:
    """What a response lacks, as readable lines (empty when every header is right)."""
    found = []
    csp = headers.get("Content-Security-Policy", "")
    script_src = re.search(r"script-src ([^;]*)", csp)
    if not script_src or "'self'" not in script_src.group(1):
        found.append("CSP has no script-src 'self'")
    elif BOOTSTRAP_CSP_HASH not in script_src.group(1).split():
        found.append(f"CSP's script-src lacks the islands' bootstrap {BOOTSTRAP_CSP_HASH}")
    if "unsafe-inline" in csp or "unsafe-eval" in csp:
        found.append("CSP allows unsafe-inline or unsafe-eval")
    found += [f"CSP lacks {part}" for part in CSP_MUST if part not in csp]
    expected = {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-site",
    }
    found += [
        f"{name} is not {value}" for name, value in expected.items() if headers.get(name) != value
    ]
    if "max-age=" not in headers.get("Strict-Transport-Security", ""):
        found.append("no Strict-Transport-Security")
    if "camera=()" not in headers.get("Permissions-Policy", ""):
        found.append("Permissions-Policy is not restrictive")
    if re.search(r"\d", headers.get("Server", "")):
        found.append("Server header names a version")
    for cookie in headers.get_all("Set-Cookie") or []:
        flags = cookie.lower()
        if not (cookie.startswith("__Host-") and "secure" in flags and "httponly" in flags):
            found.append(f"cookie without __Host-/Secure/HttpOnly: {cookie[:40]}")
        if "samesite=lax" not in flags:
            found.append("cookie without SameSite=Lax")
    return [f"{path}: {line}" for line in found]


def fetch_local():
    import base64
    import os

    os.environ.update(
        APP_ENV="production",
        SECRET_KEY=os.urandom(24).hex(),
        STAFF_TOTP_KEY=os.urandom(24).hex(),
        PURCHASE_DATA_KEY=os.urandom(24).hex(),
        SITE_URL="https://watches.example",
        SITE_EMAIL="offers@uswatchbuyers.com",  # production refuses example.com and 555-01xx
        SITE_PHONE="(212) 908-4417",
        SITE_PHONE_E164="+12129084417",
        BUSINESS_LEGAL_NAME="US Watch Buyers LLC",  # production requires the buyer's
        BUSINESS_ADDRESS="41 Orchard Street, Floor 3; New York, NY 10002",
        RATELIMIT_SINGLE_PROCESS="1",  # one test client in this process, no REDIS_URL
        REPLICA_URL="s3://headers-check/site",  # required; never reached by a page request
        REPLICA_ENCRYPTION_KEY=base64.b64encode(os.urandom(32)).decode(),
    )
    from app import create_app

    client = create_app().test_client()
    for path in PATHS:
        response = client.get(path, base_url="https://watches.example")
        yield path, response.status_code, response.headers


def fetch_remote(base: str):
    from email.message import Message

    for path in PATHS:
        try:
            with urllib.request.urlopen(base.rstrip("/") + path, timeout=10) as response:
                yield path, response.status, response.headers
        except urllib.error.HTTPError as error:
            headers: Message = error.headers
            yield path, error.code, headers


def main() -> int:
    responses = fetch_remote(sys.argv[1]) if len(sys.argv) > 1 else fetch_local()
    failures = []
    for path, status, headers in responses:
        print(f"== {path}  HTTP {status}")
        for name in SHOWN:
            for value in headers.get_all(name) or ["(absent)"]:
                print(f"   {name}: {value}")
        failures += problems(path, headers)
    print("\n".join(["", *failures]) if failures else "\nEvery required header is present.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
