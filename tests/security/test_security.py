"""Security headers, cookies and production configuration (app/security/headers.py)."""

import importlib.util
import subprocess
import sys

import pytest
from flask import request

from app.config import ConfigError
from app.rendering.assets import BOOTSTRAP_CSP_HASH
from tests.helpers import PRODUCTION, ROOT, SITE, csp_hash_source, inline_scripts

PAGES = ["/", "/sell", "/blog/luxury-watch-market-usa", "/no-such-page", "/static/img/logo.svg"]


@pytest.fixture
def production_app(make_app):
    return make_app(**PRODUCTION)


def csp_directives(response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split("; ")}


@pytest.mark.parametrize("path", PAGES)
def test_every_response_carries_the_security_headers(client, path):
    with client.get(path) as response:
        assert response.status_code in (200, 404)
    csp = csp_directives(response)
    assert csp["script-src"] == ["'self'", BOOTSTRAP_CSP_HASH]
    assert csp["style-src"] == ["'self'"]
    assert csp["img-src"] == ["'self'", "data:", "blob:"]
    assert csp["connect-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"]
    assert csp["form-action"] == ["'self'"]
    assert "unsafe" not in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-site"
    assert "geolocation=()" in response.headers["Permissions-Policy"]
    assert "Server" not in response.headers
    assert "Strict-Transport-Security" not in response.headers  # development runs on http


def test_pixel_and_analytics_hosts_are_allowed_only_when_configured(make_app):
    app = make_app(META_PIXEL_ID="1234", GA4_MEASUREMENT_ID="G-TEST")
    csp = csp_directives(app.test_client().get("/sell"))
    assert "https://connect.facebook.net" in csp["script-src"]
    assert "https://www.facebook.com" in csp["img-src"]  # the noscript pixel
    assert "https://www.googletagmanager.com" in csp["script-src"]
    assert "https://*.google-analytics.com" in csp["connect-src"]
    assert "'unsafe-inline'" not in csp["script-src"]


def test_no_tracking_host_is_allowed_without_the_ids(client):
    csp = csp_directives(client.get("/sell"))
    assert csp["img-src"] == ["'self'", "data:", "blob:"]
    assert not any(
        "facebook" in host or "google" in host for hosts in csp.values() for host in hosts
    )


def test_pages_run_no_inline_script_but_the_islands_bootstrap_and_have_no_inline_style(client):
    """The one inline script is allowed by its hash, which the CSP header carries: the page's
    own text, hashed here, is what the header names."""
    for path in [
        "/",
        "/sell",
        "/blog/luxury-watch-market-usa",
        "/sell-rolex-watch",
        "/watch-authentication",
    ]:
        response = client.get(path)
        html = response.get_data(as_text=True)
        [bootstrap] = inline_scripts(html)
        assert csp_hash_source(bootstrap) in csp_directives(response)["script-src"]
        assert "<script src=" not in html and '<script type="module"' not in html
        assert " style=" not in html and "<style" not in html
        assert " on" + "click=" not in html.lower()


def test_production_sends_hsts_and_host_prefixed_secure_cookie(production_app):
    client = production_app.test_client()
    response = client.get("/sell", base_url=SITE)
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"].startswith("max-age=63072000")
    assert "upgrade-insecure-requests" in response.headers["Content-Security-Policy"]
    [cookie] = response.headers.getlist("Set-Cookie")
    assert cookie.startswith("__Host-session=")
    for flag in ("Secure", "HttpOnly", "Path=/", "SameSite=Lax"):
        assert flag in cookie
    assert "Domain" not in cookie


def test_development_cookie_is_http_only_and_same_site_lax(client):
    cookie = client.get("/sell").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_production_answers_only_its_own_host(production_app):
    client = production_app.test_client()
    assert client.get("/", base_url=SITE).status_code == 200
    assert client.get("/", base_url="https://evil.example").status_code == 400
    assert client.get("/", base_url=SITE, headers={"Host": "evil.example"}).status_code == 400


def test_canonical_urls_never_come_from_the_host_header(make_app):
    app = make_app(SITE_URL=SITE)
    client = app.test_client()
    for path in ["/", "/sitemap.xml", "/robots.txt"]:
        body = client.get(path, headers={"Host": "evil.example"}).get_data(as_text=True)
        assert "evil.example" not in body


def test_proxy_fix_trusts_one_proxy_in_production(production_app):
    seen = {}

    @production_app.get("/_whoami")
    def whoami():
        seen.update(ip=request.remote_addr, secure=request.is_secure)
        return "ok"

    production_app.test_client().get(
        "/_whoami",
        base_url="http://watches.example",
        headers={"X-Forwarded-For": "6.6.6.6, 203.0.113.9", "X-Forwarded-Proto": "https"},
    )
    assert seen == {"ip": "203.0.113.9", "secure": True}  # the spoofed first hop is ignored


def test_production_refuses_debug(make_app):
    with pytest.raises(ConfigError, match="debug"):
        make_app(**PRODUCTION, DEBUG=True)


def test_production_errors_are_logged_not_shown(production_app, caplog):
    @production_app.get("/_boom")
    def boom():
        raise RuntimeError("secret internals")

    response = production_app.test_client().get("/_boom", base_url=SITE)
    assert response.status_code == 500
    assert b"secret internals" not in response.data
    assert "Content-Security-Policy" in response.headers
    assert "secret internals" in caplog.text


def test_header_check_script_passes():
    result = subprocess.run(
        [sys.executable, "bench/headers_check.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Every required header is present." in result.stdout


def test_header_check_script_names_a_policy_that_would_block_the_bootstrap(client):
    """A web server in front that sends its own policy must allow the bootstrap's hash too, or no
    island would hydrate: the check says so rather than passing a policy that is merely strict."""
    spec = importlib.util.spec_from_file_location("headers_check", ROOT / "bench/headers_check.py")
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    headers = client.get("/").headers.copy()
    headers["Strict-Transport-Security"] = "max-age=1"  # production's, not the test app's
    assert check.problems("/", headers) == []
    policy = headers["Content-Security-Policy"]
    headers["Content-Security-Policy"] = policy.replace(f" {BOOTSTRAP_CSP_HASH}", "")
    assert check.problems("/", headers) == [
        f"/: CSP's script-src lacks the islands' bootstrap {BOOTSTRAP_CSP_HASH}"
    ]
