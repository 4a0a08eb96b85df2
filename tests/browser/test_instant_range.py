"""The seller's instant range in Chromium: with JavaScript it appears as the watch is described
and follows each answer; without, the thank-you page shows it. A watch the guide does not
cover gets no number."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_sell_form import fill_valid
from tests.data.prices import SUB_LINE, add_entry


def test_the_range_follows_the_sellers_answers_as_they_type(page, live_server):
    add_entry(live_server.app)
    page.goto(live_server.url + "/sell")
    shown = page.locator("[data-instant-range]")
    page.select_option("#field-watchBrand", "Rolex")
    page.fill("#field-watchModel", "Submariner 126610 LN")
    page.select_option("#field-watchCondition", "Very Good - Minor wear")
    expect(shown).to_contain_text("without box or papers")
    page.check("#field-hasBox")
    page.check("#field-hasPapers")
    expect(shown).to_contain_text(SUB_LINE)
    expect(shown).to_contain_text("confirmed after we authenticate the watch")
    page.select_option("#field-watchCondition", "Excellent - Like new")
    expect(shown).to_contain_text("Typically $10,000–$11,350")
    page.fill("#field-watchModel", "Daytona")
    expect(shown).to_have_count(0)  # no match: no number


def test_without_javascript_the_thank_you_page_shows_the_range(no_js_page, live_server):
    add_entry(live_server.app)
    no_js_page.goto(live_server.url + "/sell")
    fill_valid(no_js_page, watchModel="126610LN")
    no_js_page.check("#field-hasPapers")
    no_js_page.click("button[type=submit]")
    no_js_page.wait_for_url("**/sell/thanks")
    expect(no_js_page.locator("[data-instant-range]")).to_contain_text(SUB_LINE)
