"""The seller's status page in Chromium: adding photos with the sell form's picker (JavaScript
on) and with the plain form (off), the question form, and accessibility at both widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.leads import history, links, store
from app.leads.reference import new_status_token
from app.sale import lifecycle
from app.security.tokens import digest
from tests.browser.helpers import axe_violations, visit
from tests.data.photos import write_photos
from tests.helpers import lead_work_done, sample_lead

QUOTE = {"amount_low": 8000, "amount_high": 9500, "valid_until": "2099-12-01"}
# The page is left for the status page once the upload is done: the sighting is kept in
# sessionStorage, which the next page of the same tab still has.
RECORD_PROGRESS = """() => new MutationObserver(() => {
  if (document.querySelector('[role=progressbar]')) sessionStorage.setItem('progress', 'shown');
}).observe(document.body, { subtree: true, childList: true })"""


@pytest.fixture(scope="module")
def photo_files(tmp_path_factory):
    return write_photos(tmp_path_factory.mktemp("status-photos"), 11, size=(1600, 1200))


def seller_link(live_server, state: str = "new") -> tuple[int, str]:
    """A lead without photos, in `state`, and the path of its status page."""
    app = live_server.app
    token = new_status_token()
    with app.app_context():
        lead_id, _ = store.save_lead(sample_lead(), [])
        links.add_status_link(lead_id, digest(token))
        if state == "quoted":
            lifecycle.transition(lead_id, "quoted", "staff:1", QUOTE, "new")
    return lead_id, f"/status/{token}"


def notice(page) -> str:
    return page.locator("[data-notice]").inner_text()


def test_seller_adds_photos_with_the_sell_forms_picker_and_progress(page, live_server, photo_files):
    lead_id, path = seller_link(live_server)
    visit(page, live_server, path)
    island = page.locator("[data-island=AddPhotos]")
    island.scroll_into_view_if_needed()
    expect(island).to_have_attribute("data-hydrated", "true")
    page.set_input_files("#field-photos", [str(p) for p in photo_files[:3]])
    expect(page.get_by_text("3 of 10 photos added")).to_be_visible()
    page.evaluate(RECORD_PROGRESS)
    page.get_by_role("button", name="Send photos").click()
    expect(page.locator("[data-notice]")).to_contain_text("your new photos are with your enquiry")
    assert page.evaluate("sessionStorage.getItem('progress')") == "shown"
    expect(page.get_by_text("You can send 7 more photos.")).to_be_visible()

    # The picker now has room for seven: the browser refuses the rest with the server's words.
    page.locator("[data-island=AddPhotos]").scroll_into_view_if_needed()
    expect(page.locator("[data-island=AddPhotos]")).to_have_attribute("data-hydrated", "true")
    page.set_input_files("#field-photos", [str(p) for p in photo_files[3:11]])
    expect(page.get_by_text("You can add up to 7 more: we take 10 photos in all.")).to_be_visible()
    expect(page.get_by_text("7 of 7 photos added")).to_be_visible()

    lead_work_done(live_server.app)
    with live_server.app.app_context():
        photos = store.lead_photos(lead_id)
    assert len(photos) == 3 and all(p["image_name"] for p in photos)


def test_without_javascript_the_seller_adds_photos_and_asks_a_question(
    no_js_page, live_server, photo_files
):
    page = no_js_page
    lead_id, path = seller_link(live_server, "quoted")
    page.goto(live_server.url + path)
    page.set_input_files("#field-photos", [str(p) for p in photo_files[:2]])
    page.get_by_role("button", name="Send photos").click()
    assert "your new photos are with your enquiry" in notice(page)
    assert page.locator("dd", has_text="2").first.is_visible()
    page.fill("#question", "Would you collect the watch in Hoboken?")
    page.get_by_role("button", name="Send question").click()
    assert "your question is with our team" in notice(page)
    page.get_by_role("button", name="Accept the quote").click()
    assert "you have accepted our preliminary quote" in notice(page)
    lead_work_done(live_server.app)
    with live_server.app.app_context():
        kinds = [event["kind"] for event in history.lead_events(lead_id)]
    assert kinds.count("photos_added") == 1 and kinds.count("question") == 1


@pytest.mark.parametrize("state", ["new", "quoted"])
@pytest.mark.parametrize("viewport", ["page", "mobile_page"])
def test_status_page_has_no_accessibility_violations(request, live_server, viewport, state):
    page = request.getfixturevalue(viewport)
    _lead_id, path = seller_link(live_server, state)
    visit(page, live_server, path)
    page.locator("[data-island=AddPhotos]").scroll_into_view_if_needed()
    expect(page.locator("[data-island=AddPhotos]")).to_have_attribute("data-hydrated", "true")
    assert axe_violations(page) == []
