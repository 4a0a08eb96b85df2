"""Ad click ids in Chromium: kept from whichever page the visitor lands on until the
sell form sends them, never past their platform's window; and without JavaScript, carried one
step from the landing page to /sell."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from app.leads import search, store
from app.sell.attribution import GOOGLE_CLICK_WINDOW, META_CLICK_WINDOW
from tests.browser.helpers import visit
from tests.data.validation_cases import VALID

FBCLID = "IwAR2F4-dbP0l7Mn1IawQQGCINEz7PYXQvwjNwB_qa2ofrHyiLjcbCRxTDMgk"
GCLID = "Cj0KCQiA5fetBhC9ARIsAP1UMgE_browser-gclid_0123"
GBRAID = "0AAAAADwvxR_browser-gbraid_0123"
LANDING = f"/sell-watch-boston?gclid={GCLID}&fbclid={FBCLID}&utm_source=google&utm_medium=cpc"
CLICK_PREFIX = "watchbuyers:click:"  # components/runtime/arrival.js
SUCCESS = "Form submitted successfully!"


def newest_lead(live_server) -> dict:
    with live_server.app.app_context():
        return store.get_lead(search.list_leads()[0]["id"])


def fill_and_send(page) -> None:
    for name in ("fullName", "email", "phone", "watchModel", "watchYear", "additionalDetails"):
        page.fill(f"#field-{name}", VALID[name])
    page.select_option("#field-watchBrand", VALID["watchBrand"])
    page.select_option("#field-watchCondition", VALID["watchCondition"])
    page.click("button[type=submit]")


def click_keys(page) -> list[str]:
    keys = page.evaluate("Object.keys(localStorage)")
    return sorted(key for key in keys if key.startswith(CLICK_PREFIX))


def test_click_ids_from_a_city_landing_page_reach_the_lead(page, live_server):
    landed = datetime.now(UTC)
    page.goto(live_server.url + LANDING, referer="https://www.google.com/")
    page.wait_for_load_state("networkidle")
    visit(page, live_server, "/blog")  # a second page, then /sell with no Referer to help
    visit(page, live_server, "/sell")
    fill_and_send(page)
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=10_000)
    lead = newest_lead(live_server)
    made = re.fullmatch(rf"fb\.1\.(\d{{13}})\.{FBCLID}", lead["fbc"] or "")
    assert made, lead["fbc"]
    assert abs(int(made[1]) / 1000 - landed.timestamp()) < 30
    assert lead["gclid"] == GCLID and lead["google_click_at"].startswith(landed.strftime("%Y-"))
    assert (lead["utm_source"], lead["utm_medium"]) == ("google", "cpc")
    assert (lead["landing_page"], lead["referrer_host"]) == ("/sell-watch-boston", "www.google.com")
    assert click_keys(page) == []  # sent, so no longer kept


def test_the_browser_drops_clicks_past_their_window(page, live_server):
    visit(page, live_server, "/blog")
    now = page.evaluate("Date.now()")
    margin = timedelta(minutes=5)
    recorded = {
        f"?fbclid={FBCLID}": now - (META_CLICK_WINDOW + margin) / timedelta(milliseconds=1),
        f"?gclid={GCLID}": now - (GOOGLE_CLICK_WINDOW + margin) / timedelta(milliseconds=1),
        f"?gbraid={GBRAID}": now - (GOOGLE_CLICK_WINDOW - margin) / timedelta(milliseconds=1),
    }
    page.evaluate(
        "(entries) => entries.forEach(([key, seen]) => localStorage.setItem(key, seen))",
        [[CLICK_PREFIX + search, str(int(seen))] for search, seen in recorded.items()],
    )
    visit(page, live_server, "/sell")
    assert click_keys(page) == [f"{CLICK_PREFIX}?gbraid={GBRAID}"]
    fill_and_send(page)
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=10_000)
    lead = newest_lead(live_server)
    assert (lead["fbc"], lead["gclid"], lead["gbraid"]) == (None, None, GBRAID)
    kept = datetime.fromtimestamp(recorded[f"?gbraid={GBRAID}"] / 1000, UTC)
    assert lead["google_click_at"] == kept.isoformat(timespec="seconds")


def test_without_javascript_click_ids_follow_the_link_from_the_landing_page(
    no_js_page, live_server
):
    page = no_js_page
    page.goto(live_server.url + LANDING, referer="https://www.google.com/")
    page.get_by_role("link", name="Get Your Free Valuation").first.click()
    page.wait_for_url("**/sell")
    fill_and_send(page)
    page.wait_for_url("**/sell/thanks")
    lead = newest_lead(live_server)
    assert re.fullmatch(rf"fb\.1\.\d{{13}}\.{FBCLID}", lead["fbc"] or ""), lead["fbc"]
    assert (lead["gclid"], lead["utm_source"]) == (GCLID, "google")
    assert lead["landing_page"] == "/sell-watch-boston"
    assert lead["referrer_host"] is None  # the limit: /sell sees only the page before it
