"""What the production front answers with, as docs/security.md says: HTTPS only
(plain HTTP redirects), HSTS and the other headers on frozen pages, app pages and static files
alike, private headers on the seller's pages, and logs that keep no link token, no query string
and no Referer."""

from __future__ import annotations

import http.client

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DESKTOP, open_page
from tests.front import HOST
from tests.helpers import csp_hash_source, inline_scripts, wait_until
from tests.production.steps import submit_lead

HSTS = "max-age=63072000; includeSubDomains"
EVERY_ANSWER = {
    "Strict-Transport-Security": HSTS,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-site",
    "X-Frame-Options": "DENY",
}


@pytest.mark.parametrize(
    "path, served_by",
    [
        ("/", "a frozen page"),
        ("/sell-watch-boston", "a frozen page"),
        ("/sell", "the app"),
        ("/blog?category=education", "the app"),
        ("/no-such-page", "the app's 404"),
        ("/static/img/logo.svg", "a static file"),
    ],
)
def test_every_kind_of_answer_carries_hsts_and_the_security_headers(site, path, served_by):
    response = site.front.request("GET", path)
    assert response.status in (200, 404), served_by
    for name, value in EVERY_ANSWER.items():
        assert response.getheader(name) == value, f"{served_by}: {name}"
    policy = response.getheader("Content-Security-Policy")
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "upgrade-insecure-requests" in policy
    assert response.getheader("Referrer-Policy") == "strict-origin-when-cross-origin"
    assert response.getheader("Server") == "nginx"  # no version


@pytest.mark.parametrize("path", ["/", "/sell-watch-boston"])
def test_a_frozen_pages_bootstrap_is_allowed_by_the_policy_nginx_sends_and_hydrates_it(
    site, site_browser, path
):
    """nginx sends frozen pages with the headers `flask freeze` wrote: the page's one inline
    script must be the one whose sha256 that policy names, or no island would ever hydrate."""
    response = site.front.request("GET", path)
    [bootstrap] = inline_scripts(response.body.decode())
    assert csp_hash_source(bootstrap) in response.getheader("Content-Security-Policy")
    context, page = open_page(site_browser, site, DESKTOP)
    page.goto(site.url + path)
    # Whether it hydrates at all, not how soon (bench/lighthouse.py measures that): the header
    # waits for the page's load and the browser's idle time, which a busy test machine can
    # hold back past 20 s, or for the visitor's first pointer in it, as here.
    header = page.locator("[data-island=Header]")
    header.get_by_role("link", name="US Watch Buyers, home").hover()
    expect(header).to_have_attribute("data-hydrated", "true", timeout=20_000)
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)  # no CSP violation either


def test_seller_pages_are_private_and_send_no_referrer(site):
    path = submit_lead(site, "private.headers@example.com")
    for page in (path, "/status"):
        response = site.front.request("GET", page)
        assert response.status == 200
        assert response.getheader("Referrer-Policy") == "no-referrer"
        assert response.getheader("Cache-Control") == "no-store"
        assert response.getheader("X-Robots-Tag") == "noindex, nofollow"
        assert response.getheader("Strict-Transport-Security") == HSTS


def test_plain_http_only_redirects_to_https(site):
    connection = http.client.HTTPConnection("127.0.0.1", site.front.http_port, timeout=10)
    connection.request("GET", "/sell?brand=Rolex", headers={"Host": HOST})
    response = connection.getresponse()
    connection.close()
    assert response.status == 301
    assert response.getheader("Location") == f"https://{HOST}/sell?brand=Rolex"


def test_access_logs_keep_no_token_query_string_or_referer(site):
    path = submit_lead(site, "quiet.logs@example.com")
    enrol_token = "Zx9" + "q" * 40
    site.front.request("GET", path)
    site.front.request("GET", "/staff/enrol/" + enrol_token)
    site.front.request(
        "GET",
        "/static/img/logo.svg?v=1",
        {"Referer": f"{site.url}/staff/enrol/{enrol_token}", "User-Agent": "log-check"},
    )
    site.front.request("GET", "/staff/leads?q=Jane+Doe+2125550147")

    log = wait_until(lambda: "log-check" in site.front.access_log.read_text()
                     and site.front.access_log.read_text())  # fmt: skip
    assert "GET /static/img/logo.svg HTTP" in log
    for secret in (path.rsplit("/", 1)[1], enrol_token, "Jane+Doe", "2125550147", "v=1"):
        assert secret not in log, secret
    gunicorn_log = site.folder / "gunicorn.log"  # its last line may come after nginx's
    app_log = wait_until(lambda: "GET /staff/leads HTTP" in gunicorn_log.read_text()
                         and gunicorn_log.read_text())  # fmt: skip
    assert "/status/[token hidden]" in app_log
    for secret in (path.rsplit("/", 1)[1], enrol_token, "Jane+Doe", "2125550147"):
        assert secret not in app_log, secret
