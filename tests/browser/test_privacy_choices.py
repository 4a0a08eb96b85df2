"""The seller's privacy choice in Chromium: with the choice made on /privacy-choices, or with
Global Privacy Control on, nothing is asked of Meta's or Google's hosts, on a page shared by
every visitor or on /sell; without either, the pixel and the tag load."""

import re
import urllib.request

import pytest
from playwright.sync_api import expect

from app.leads import search
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page, visit
from tests.data.validation_cases import VALID

PIXEL = {"META_PIXEL_ID": "1234567890", "GA4_MEASUREMENT_ID": "G-TEST123"}
AD_HOSTS = re.compile(
    r"^https://([\w-]+\.)*(facebook\.net|facebook\.com|googletagmanager\.com"
    r"|google-analytics\.com)/"
)
# navigator.globalPrivacyControl as a browser with GPC on defines it (no Sec-GPC header: the
# browser alone must decide, as on a frozen page).
GPC_SCRIPT = (
    "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', "
    "{ get: () => true, configurable: true });"
)
SUCCESS = "Form submitted successfully!"


@pytest.fixture
def server(make_live_server):
    return make_live_server(**PIXEL)


class AdRequests:
    """Every request the page makes to Meta's or Google's hosts, answered here (empty script)."""

    def __init__(self, context):
        self.urls: list[str] = []
        context.route(AD_HOSTS, self.answer)

    def answer(self, route) -> None:
        self.urls.append(route.request.url)
        route.fulfill(status=200, content_type="application/javascript", body="")


def tracked(page, *names: str) -> None:
    """Wait until the page's own tracking module has recorded each named event (it announces
    every one in window.siteEvents, whether or not a pixel may load), then until the network is
    idle: any request an event would make to Meta or Google has been made by then."""
    page.wait_for_function(
        "names => names.every(n => (window.siteEvents || []).some(e => e.name === n))",
        arg=list(names),
    )
    page.wait_for_load_state("networkidle")


def start_the_form(page) -> None:
    """Type into the sell form (InitiateCheckout), and wait for ViewContent, sent after a delay."""
    page.fill("#field-fullName", VALID["fullName"])
    tracked(page, "ViewContent", "InitiateCheckout")


def fill_and_send(page) -> None:
    for name in ("email", "phone", "watchModel"):
        page.fill(f"#field-{name}", VALID[name])
    page.select_option("#field-watchBrand", VALID["watchBrand"])
    page.select_option("#field-watchCondition", VALID["watchCondition"])
    page.click("button[type=submit]")
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=10_000)


def serve_as_for_everyone(context, server, path: str) -> None:
    """Answer `path` with the page as any visitor gets it (fetched here, without the browser's
    cookies), as the page cache or a frozen copy would: only the browser can then keep the
    pixel and the tag off."""

    def anonymous(route):
        with urllib.request.urlopen(route.request.url) as answer:
            route.fulfill(status=answer.status, headers=dict(answer.headers), body=answer.read())

    context.route(server.url + path, anonymous)


def test_without_a_choice_or_signal_the_pixel_and_the_tag_load(browser, server):
    context, page = open_page(browser, server, DESKTOP)
    ads = AdRequests(context)
    visit(page, server, "/sell")
    start_the_form(page)
    context.close()
    assert any("connect.facebook.net" in url for url in ads.urls), ads.urls
    assert any("googletagmanager.com/gtag/js?id=G-TEST123" in url for url in ads.urls), ads.urls
    assert not page.problems.lines, page.problems.lines


def test_after_opting_out_on_the_choices_page_nothing_reaches_meta_or_google(browser, server):
    context, page = open_page(browser, server, DESKTOP)
    ads = AdRequests(context)
    visit(page, server, "/privacy-choices")
    page.get_by_role("button", name="Opt out of sharing").click()
    expect(page.get_by_role("status")).to_contain_text("Saved: you have opted out")
    expect(page.get_by_role("button", name="Opt back in")).to_be_visible()
    [cookie] = [c for c in context.cookies() if c["name"] == "privacy_opt_out"]
    assert cookie["value"] == "1" and not cookie["httpOnly"] and cookie["sameSite"] == "Lax"

    visit(page, server, "/")
    visit(page, server, "/sell")
    start_the_form(page)
    fill_and_send(page)
    with server.app.app_context():
        assert search.list_leads()[0]["ad_opt_out"] == "choice"

    serve_as_for_everyone(context, server, "/sell")  # the server's own check is bypassed
    visit(page, server, "/sell")
    assert page.locator('meta[name="meta-pixel-id"]').count() == 1  # it would have loaded
    start_the_form(page)
    context.close()
    assert ads.urls == []
    assert not page.problems.lines, page.problems.lines


def test_with_global_privacy_control_on_nothing_reaches_meta_or_google(browser, server):
    context, page = open_page(browser, server, DESKTOP)
    context.add_init_script(GPC_SCRIPT)
    ads = AdRequests(context)
    visit(page, server, "/")
    visit(page, server, "/sell")  # no Sec-GPC header: the page carries the ids
    assert page.locator('meta[name="meta-pixel-id"]').count() == 1
    start_the_form(page)
    fill_and_send(page)
    tracked(page, "Lead", "generate_lead")
    context.close()
    assert ads.urls == []
    assert not page.problems.lines, page.problems.lines
    with server.app.app_context():
        assert search.list_leads()[0]["ad_opt_out"] == "gpc"  # the island said so


def test_opting_out_and_back_in_without_javascript(browser, server):
    context, page = open_page(browser, server, MOBILE, java_script_enabled=False)
    ads = AdRequests(context)
    page.goto(server.url + "/privacy-choices")
    page.get_by_role("button", name="Opt out of sharing").click()
    expect(page.get_by_role("status")).to_contain_text("Saved: you have opted out")
    page.goto(server.url + "/sell")  # no noscript pixel for this visitor
    page.wait_for_load_state("networkidle")
    page.goto(server.url + "/privacy-choices")
    page.get_by_role("button", name="Opt back in").click()
    expect(page.get_by_role("status")).to_contain_text("Saved: you have opted back in")
    assert [c for c in context.cookies() if c["name"] == "privacy_opt_out"] == []
    page.goto(server.url + "/sell")
    page.wait_for_load_state("networkidle")
    context.close()
    assert ads.urls == ["https://www.facebook.com/tr?id=1234567890&ev=PageView&noscript=1"]
    assert not page.problems.lines, page.problems.lines


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["375", "1280"])
def test_the_choices_page_has_no_accessibility_violations(browser, server, viewport):
    context, page = open_page(browser, server, viewport)
    visit(page, server, "/privacy-choices")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Opt out of sharing").click()
    expect(page.get_by_role("status")).to_be_visible()
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    context.close()
    assert not page.problems.lines, page.problems.lines
