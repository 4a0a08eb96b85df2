"""The sell form's handover in Chromium while the sale by mail is offered, at 375 and 1,280 px:
with JavaScript, a far ZIP code refused for a meeting with the server's words, then sent by
mail and said back in the toast; without it, the plain form to the thank-you page. Screenshots
are kept for a person to look at (SCREENSHOT_DIR)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.leads import search
from tests.browser.conftest import start_server
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page, visit
from tests.browser.test_sell_form import fill_valid
from tests.helpers import lead_work_done

SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/sell-handover-screenshots"))
FAR = "Your ZIP code is more than 50 miles from the cities where we meet sellers"
MAIL_CHOSEN = "You chose to sell by insured mail"


@pytest.fixture(scope="module")
def mailin_server(make_app):
    server = start_server(make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000"))
    yield server
    server.shutdown()


def leads(server) -> list[dict]:
    with server.app.app_context():
        return search.list_leads()


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["375px", "1280px"])
def test_far_zip_code_is_offered_the_mail_then_sent_by_mail(browser, mailin_server, viewport):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = viewport["width"]
    context, page = open_page(browser, mailin_server, viewport)
    visit(page, mailin_server, "/sell")
    expect(page.get_by_role("heading", name="3. Handing Over Your Watch")).to_be_visible()
    section = page.locator("section", has=page.get_by_role("heading", name="3. Handing Over"))
    section.screenshot(path=SHOTS / f"handover-{width}.png")
    assert not axe_violations(page)

    fill_valid(page)
    page.fill("#field-postalCode", "8370")
    page.locator("#field-postalCode").blur()
    expect(page.locator("#field-postalCode-error")).to_have_text(
        "Please enter your 5-digit ZIP code"
    )
    page.fill("#field-postalCode", "83702")
    page.get_by_label("In person").check()
    page.click("button[type=submit]")
    expect(page.locator("#field-handover-error")).to_contain_text(FAR)
    section.screenshot(path=SHOTS / f"handover-refused-{width}.png")
    assert page.problems.lines == [f"HTTP 422: {mailin_server.url}/sell"]  # the refusal only
    page.problems.lines.clear()
    assert not axe_violations(page)

    page.get_by_label("By insured mail").check()
    page.click("button[type=submit]")
    expect(page.get_by_role("status").filter(has_text=MAIL_CHOSEN)).to_be_visible()
    page.screenshot(path=SHOTS / f"sell-sent-{width}.png")
    expect(page.locator("#field-postalCode")).to_have_value("")
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    lead = leads(mailin_server)[0]
    assert (lead["handover"], lead["postal_code"]) == ("mail", "83702")
    lead_work_done(mailin_server.app)


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["375px", "1280px"])
def test_without_javascript_the_plain_form_sends_the_handover(browser, mailin_server, viewport):
    context, page = open_page(browser, mailin_server, viewport, java_script_enabled=False)
    page.goto(mailin_server.url + "/sell?brand=Omega")
    fill_valid(page, watchBrand="Omega")
    page.fill("#field-postalCode", "68102")
    page.get_by_label("In person").check()
    page.click("button[type=submit]")
    expect(page.locator("#field-handover-error")).to_contain_text(FAR)
    expect(page.locator("#field-postalCode")).to_have_value("68102")
    page.get_by_label("By insured mail").check()
    page.click("button[type=submit]")
    page.wait_for_url("**/sell/thanks")
    expect(page.locator("[data-handover]")).to_contain_text(MAIL_CHOSEN)
    page.screenshot(path=SHOTS / f"thanks-{viewport['width']}.png", full_page=True)
    expect(page.get_by_role("link", name="How selling by mail works")).to_have_attribute(
        "href", "/sell-by-mail"
    )
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    lead = leads(mailin_server)[0]
    assert (lead["handover"], lead["postal_code"], lead["watch_brand"]) == (
        "mail",
        "68102",
        "Omega",
    )
    lead_work_done(mailin_server.app)
