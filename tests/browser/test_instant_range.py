"""The seller's instant range in Chromium: with JavaScript it appears as the watch is described
and follows each answer, a seller typing asks well within the per-client limit, and past the
limit the range goes and the form still posts; without, the thank-you page shows it. A watch
the guide does not cover gets no number."""

from __future__ import annotations

import urllib.error
import urllib.request

from playwright.sync_api import expect

from tests.browser.test_sell_form import SUCCESS, fill_valid
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


def range_questions(page) -> list[str]:
    """Every /sell/range request the page makes from now on (the list grows as it asks)."""
    asked: list[str] = []
    page.on("request", lambda request: "/sell/range" in request.url and asked.append(request.url))
    return asked


def test_a_seller_typing_letter_by_letter_stays_well_within_the_limit(page, make_live_server):
    server = make_live_server(RATELIMIT_ENABLED=True)  # SELL_RANGE_RATELIMIT: 60 a minute
    add_entry(server.app)
    page.goto(server.url + "/sell")
    asked = range_questions(page)
    page.select_option("#field-watchBrand", "Rolex")
    page.select_option("#field-watchCondition", "Very Good - Minor wear")
    for word in ("Submariner ", "126610LN"):  # a pause between words, 180 ms between keys
        page.locator("#field-watchModel").press_sequentially(word, delay=180)
        page.wait_for_timeout(500)
    page.check("#field-hasBox")
    page.check("#field-hasPapers")
    shown = page.locator("[data-instant-range]")
    expect(shown).to_contain_text(SUB_LINE)
    print(f"/sell/range questions for 19 letters and 4 choices: {len(asked)}")
    assert len(asked) <= 10  # measured 3; the limit is 60 a minute


def test_past_its_limit_the_range_goes_and_the_form_still_posts(page, make_live_server):
    server = make_live_server(RATELIMIT_ENABLED=True, SELL_RANGE_RATELIMIT="6 per minute")
    add_entry(server.app)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/sell")
    shown = page.locator("[data-instant-range]")
    fill_valid(page, watchModel="126610LN")  # one question or a few, as the machine keeps up
    expect(shown).to_have_count(1)
    spend_the_rest_of_the_limit(server.url + "/sell/range?watchBrand=Rolex&watchModel=126610LN")
    with page.expect_response(lambda answer: "/sell/range" in answer.url) as refusal:
        page.check("#field-hasPapers")
    assert refusal.value.status == 429
    expect(shown).to_have_count(0)  # no range drawn for what was typed before
    page.click("button[type=submit]")
    expect(page.get_by_text(SUCCESS)).to_be_visible()
    assert errors == []


def spend_the_rest_of_the_limit(url: str) -> None:
    """Ask the range from the browser's own address until the limit refuses: the next question
    the page asks is then past it, however many the typing before took."""
    for _ in range(10):
        try:
            urllib.request.urlopen(url, timeout=10)
        except urllib.error.HTTPError as refused:
            assert refused.code == 429
            return
    raise AssertionError("the range's limit never refused")


def test_without_javascript_the_thank_you_page_shows_the_range(no_js_page, live_server):
    add_entry(live_server.app)
    no_js_page.goto(live_server.url + "/sell")
    fill_valid(no_js_page, watchModel="126610LN")
    no_js_page.check("#field-hasPapers")
    no_js_page.click("button[type=submit]")
    no_js_page.wait_for_url("**/sell/thanks")
    expect(no_js_page.locator("[data-instant-range]")).to_contain_text(SUB_LINE)
