"""The sell form in Chromium, with JavaScript (the island) and without (the plain form)."""

import re

import pytest
from playwright.sync_api import expect

from app.leads import search, store
from tests.browser.helpers import (
    DESKTOP,
    MOBILE,
    HeldRequests,
    HeldScripts,
    axe_violations,
    open_page,
    visit,
)
from tests.data.photos import write_photos
from tests.data.validation_cases import VALID
from tests.helpers import lead_work_done

SUCCESS = (
    "Form submitted successfully! We'll review your watch details and get back to you "
    "within 24 hours."
)
FAILURE = "Submission failed. Please try again or call us directly at (212) 555-0147."
RECORD_PROGRESS = """() => {
  window.seen = [];
  new MutationObserver(() => {
    const bar = document.querySelector('[role=progressbar]');
    const button = document.querySelector('#sell-form button[type=submit]');
    window.seen.push(button.textContent + (bar ? ' ' + bar.getAttribute('aria-valuenow') : ''));
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""

RECORD_UPLOAD_BYTES = """() => {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    window.uploadBytes = body.getAll('photos').reduce((sum, file) => sum + file.size, 0);
    return send.call(this, body);
  };
}"""


@pytest.fixture(scope="module")
def ten_photos(tmp_path_factory):
    return write_photos(tmp_path_factory.mktemp("photos"), 10, size=(2400, 1800), noise=60)


def leads(live_server) -> list[dict]:
    with live_server.app.app_context():
        return search.list_leads()


TEXT_FIELDS = ("fullName", "email", "phone", "watchModel", "watchYear", "additionalDetails")
# Logs whether the sell form hydrated, once its code (held back) has been let through and has
# run: the import of the island's module resolves when React's file has run too, and so do the
# runtime's own imports of them, so a task later the runtime has hydrated the island or chosen
# not to. (While a plain post is under way, Playwright's evaluate waits for the next page.)
REPORT_HYDRATION = """() => {
  const island = document.querySelector('[data-island=SellForm]');
  import(island.dataset.componentUrl).then(() => setTimeout(() =>
    console.log(`hydrated: ${island.dataset.hydrated === 'true'}`)));
}"""


def fill_valid(page, **changes):
    values = VALID | changes
    for name in TEXT_FIELDS:
        page.fill(f"#field-{name}", values[name])
    page.select_option("#field-watchBrand", values["watchBrand"])
    page.select_option("#field-watchCondition", values["watchCondition"])
    page.check("#field-hasBox")


def throttle_upload(page, bytes_per_second: int = 1_000_000) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 20,
            "downloadThroughput": 4 * bytes_per_second,
            "uploadThroughput": bytes_per_second,
        },
    )


def events(page) -> list[dict]:
    return page.evaluate("window.siteEvents || []")


def test_js_submit_with_ten_photos_uploads_with_progress_and_clears_form(
    page, live_server, ten_photos
):
    visit(page, live_server, "/sell?utm_source=google&utm_medium=cpc")
    page.wait_for_function("() => (window.siteEvents || []).some((e) => e.name === 'ViewContent')")
    fill_valid(page, fullName="Zoë O’Brien")
    page.set_input_files("#field-photos", [str(path) for path in ten_photos])
    expect(page.locator("ul[aria-label='Chosen photos'] img")).to_have_count(10)
    page.evaluate(RECORD_PROGRESS)
    before = len(leads(live_server))
    throttle_upload(page)  # a phone's uplink: progress is seen climbing, as a seller sees it
    page.click("button[type=submit]")
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=30_000)
    toast = page.locator("[data-toast=success]").inner_text()
    seen = page.evaluate("window.seen")
    assert any(state.startswith("Processing...") for state in seen)
    shown = {state.rsplit(" ", 1)[1] for state in seen if state.startswith("Processing...")}
    assert "100" in shown and len(shown) >= 3, shown
    expect(page.locator("#field-fullName")).to_have_value("")
    expect(page.locator("#field-watchBrand")).to_have_value("")
    expect(page.locator("#field-hasBox")).not_to_be_checked()
    expect(page.locator("ul[aria-label='Chosen photos']")).to_have_count(0)

    lead_work_done(live_server.app)
    lead = leads(live_server)[0]
    assert len(leads(live_server)) == before + 1
    assert lead["full_name"] == "Zoë O’Brien" and lead["photo_count"] == 10
    assert f"Your reference: {lead['reference']}" in toast
    assert lead["utm_source"] == "google" and lead["utm_medium"] == "cpc"
    names = [event["name"] for event in events(page)]
    assert names.count("ViewContent") == 1 and names.count("InitiateCheckout") == 1
    [lead_event] = [event for event in events(page) if event["name"] == "Lead"]
    assert lead_event["eventID"] == lead["meta_event_id"]
    assert lead_event["params"] == {
        "brand": "Rolex",
        "model": "Submariner",
        "value": 1000,
        "currency": "USD",
    }
    assert "generate_lead" in names


def test_photos_are_downscaled_in_the_browser_before_upload(page, live_server, tmp_path):
    [big] = write_photos(tmp_path, 1, size=(4000, 3000), noise=60, quality=95)
    visit(page, live_server, "/sell")
    fill_valid(page)
    page.set_input_files("#field-photos", str(big))
    page.evaluate(RECORD_UPLOAD_BYTES)
    page.click("button[type=submit]")
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=20_000)
    assert 0 < page.evaluate("window.uploadBytes") < big.stat().st_size / 2
    lead_work_done(live_server.app)
    with live_server.app.app_context():
        [photo] = store.lead_photos(leads(live_server)[0]["id"])
    assert max(photo["width"], photo["height"]) == 2560


def test_client_validation_shows_spec_messages_on_blur_and_focuses_first_error(page, live_server):
    visit(page, live_server, "/sell")
    page.fill("#field-fullName", "R2-D2")
    page.locator("#field-fullName").blur()
    message = "Name can only contain letters, spaces, hyphens, and apostrophes"
    expect(page.locator("#field-fullName-error")).to_have_text(message)
    expect(page.locator("#field-fullName")).to_have_attribute("aria-invalid", "true")
    page.fill("#field-watchYear", "２０１９")
    page.locator("#field-watchYear").blur()
    expect(page.locator("#field-watchYear-error")).to_have_text("Please enter a valid year")
    page.fill("#field-fullName", "李小龍")
    expect(page.locator("#field-fullName-error")).to_have_count(0)
    page.click("button[type=submit]")
    expect(page.get_by_role("alert").filter(has_text=FAILURE)).to_be_visible()
    expect(page.locator("#field-email-error")).to_have_text("Please enter a valid email address")
    expect(page.locator("#field-email")).to_be_focused()


def test_more_than_ten_photos_toast_and_extra_files_not_added(page, live_server, ten_photos):
    visit(page, live_server, "/sell")
    page.set_input_files("#field-photos", [str(path) for path in ten_photos[:6]])
    page.set_input_files("#field-photos", [str(path) for path in ten_photos[:5]])
    expect(page.get_by_text("Please upload a maximum of 10 photos.")).to_be_visible()
    expect(page.locator("ul[aria-label='Chosen photos'] img")).to_have_count(10)
    page.get_by_role("button", name="Remove photo 3").click()
    expect(page.locator("ul[aria-label='Chosen photos'] img")).to_have_count(9)


def test_oversize_photo_is_refused_in_the_browser(page, live_server):
    visit(page, live_server, "/sell")
    big = {"name": "big.jpg", "mimeType": "image/jpeg", "buffer": b"\xff" * (10 * 1024 * 1024 + 1)}
    page.set_input_files("#field-photos", files=[big])
    expect(page.get_by_text("big.jpg is larger than 10MB.")).to_be_visible()
    expect(page.locator("ul[aria-label='Chosen photos']")).to_have_count(0)


def test_text_file_named_jpg_is_refused_by_server_and_entries_stay(page, live_server):
    visit(page, live_server, "/sell")
    fill_valid(page)
    fake = {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not a photo\n" * 50}
    page.set_input_files("#field-photos", files=[fake])
    page.click("button[type=submit]")
    expect(page.get_by_role("alert").filter(has_text=FAILURE)).to_be_visible()
    expect(page.locator("#field-photos-error")).to_have_text(
        "notes.jpg is not a PNG, JPEG, WebP or HEIC photo."
    )
    expect(page.locator("#field-fullName")).to_have_value("Jane Doe")
    expect(page.locator("ul[aria-label='Chosen photos'] img")).to_have_count(1)
    expected = f"HTTP 422: {live_server.url}/sell"
    assert page.problems.lines == [expected]  # the refusal itself, nothing else
    page.problems.lines.clear()


def test_toasts_sit_bottom_right_at_most_three_and_leave_after_four_seconds(page, live_server):
    visit(page, live_server, "/sell")
    files = [{"name": f"note-{i}.txt", "mimeType": "text/plain", "buffer": b"x"} for i in range(4)]
    page.set_input_files("#field-photos", files=files)
    toasts = page.locator("[data-toast]")
    expect(toasts).to_have_count(3)
    expect(toasts.last).to_have_text(
        re.compile("note-3.txt is not a PNG, JPEG, WebP or HEIC photo.")
    )
    box = toasts.last.bounding_box()
    assert box["x"] + box["width"] > 1280 - 40 and box["y"] + box["height"] > 900 - 40
    expect(page.get_by_role("region", name="Notifications")).to_have_attribute(
        "aria-live", "polite"
    )
    page.wait_for_timeout(3000)
    expect(toasts).to_have_count(3)
    expect(toasts).to_have_count(0, timeout=2500)


def test_campaign_parameters_of_the_landing_page_reach_the_lead(page, live_server):
    visit(
        page, live_server, "/sell/thanks?utm_source=newsletter&utm_campaign=autumn&utm_term=rolex"
    )
    visit(page, live_server, "/sell?utm_source=ignored-later-page")
    fill_valid(page)
    page.click("button[type=submit]")
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=10_000)
    lead = leads(live_server)[0]
    assert (lead["utm_source"], lead["utm_campaign"], lead["utm_term"]) == (
        "newsletter",
        "autumn",
        "rolex",
    )


def test_without_javascript_errors_show_inline_then_success_redirects(
    no_js_page, live_server, ten_photos
):
    page = no_js_page
    page.goto(live_server.url + "/sell?brand=Omega&utm_source=print")
    expect(page.locator("#field-watchBrand")).to_have_value("Omega")
    page.fill("#field-fullName", "R2-D2")
    page.fill("#field-email", "jane@example.com")
    page.set_input_files("#field-photos", [str(ten_photos[0])])
    page.click("button[type=submit]")
    expect(page.get_by_role("alert")).to_contain_text(FAILURE)
    expect(page.get_by_role("alert")).to_contain_text("please choose them again")
    expect(page.locator("#field-fullName-error")).to_have_text(
        "Name can only contain letters, spaces, hyphens, and apostrophes"
    )
    expect(page.locator("#field-email")).to_have_value("jane@example.com")
    expect(page.locator("#field-watchBrand")).to_have_value("Omega")

    fill_valid(page, watchBrand="Omega")
    page.set_input_files("#field-photos", [str(path) for path in ten_photos[:2]])
    page.click("button[type=submit]")
    page.wait_for_url("**/sell/thanks")
    expect(page.get_by_role("status")).to_have_text(SUCCESS)
    lead = leads(live_server)[0]
    expect(page.locator("[data-reference]")).to_have_text(lead["reference"])
    assert lead["watch_brand"] == "Omega" and lead["photo_count"] == 2
    assert lead["utm_source"] == "print"


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["375px", "1280px"])
def test_sell_page_has_no_accessibility_violations_even_with_errors_shown(
    browser, live_server, viewport
):
    context, page = open_page(browser, live_server, viewport)
    visit(page, live_server, "/sell")
    clean = axe_violations(page)
    page.click("button[type=submit]")
    expect(page.locator("#field-fullName-error")).to_be_visible()
    with_errors = axe_violations(page)
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not clean, "\n".join(clean)
    assert not with_errors, "\n".join(with_errors)


def test_entries_and_photos_made_before_the_form_hydrates_survive_it_and_post_once(
    page, live_server, tmp_path
):
    """The form's code comes after the first paint: a seller may type, choose, tick and pick
    photos before it does. The hydrated form holds all of it, shows the photos and sends it."""
    photos = write_photos(tmp_path, 2)
    held = HeldScripts(page)
    page.goto(live_server.url + "/sell")
    fill_valid(page)
    page.check("#field-hasPapers")
    page.set_input_files("#field-photos", [str(path) for path in photos])
    held.wait_for("SellForm")
    assert page.get_attribute("[data-island=SellForm]", "data-hydrated") is None
    held.release()
    expect(page.locator("ul[aria-label='Chosen photos'] img")).to_have_count(2)
    expect(page.get_by_text("2 of 10 photos added")).to_be_visible()
    for name in TEXT_FIELDS:
        expect(page.locator(f"#field-{name}")).to_have_value(VALID[name])
    expect(page.locator("#field-watchBrand")).to_have_value(VALID["watchBrand"])
    expect(page.locator("#field-watchCondition")).to_have_value(VALID["watchCondition"])
    expect(page.locator("#field-hasBox")).to_be_checked()
    expect(page.locator("#field-hasPapers")).to_be_checked()
    before = len(leads(live_server))
    page.click("button[type=submit]")
    expect(page.get_by_text(SUCCESS)).to_be_visible(timeout=20_000)
    lead_work_done(live_server.app)
    assert len(leads(live_server)) == before + 1
    lead = leads(live_server)[0]
    assert (lead["full_name"], lead["email"], lead["phone"]) == (
        VALID["fullName"],
        VALID["email"],
        VALID["phone"],
    )
    assert (lead["watch_brand"], lead["watch_model"], lead["watch_condition"]) == (
        VALID["watchBrand"],
        VALID["watchModel"],
        VALID["watchCondition"],
    )
    assert lead["watch_year"] == 2019 and lead["additional_details"] == VALID["additionalDetails"]
    assert lead["has_box"] == 1 and lead["has_papers"] == 1 and lead["photo_count"] == 2
    names = [event["name"] for event in events(page)]
    assert names.count("InitiateCheckout") == 1 and names.count("Lead") == 1


def test_submit_pressed_before_the_form_hydrates_posts_once_the_plain_way(
    page, live_server, tmp_path
):
    """The plain post is under way when the form's code arrives: the island is left as it is,
    so a second press cannot send the form again by JavaScript."""
    photos = write_photos(tmp_path, 2)
    held = HeldScripts(page)
    page.goto(live_server.url + "/sell")
    fill_valid(page)
    page.set_input_files("#field-photos", [str(path) for path in photos])
    page.evaluate(REPORT_HYDRATION)
    post = HeldRequests(page, f"{live_server.url}/sell")  # the page itself has loaded
    before = len(leads(live_server))
    page.click("button[type=submit]", no_wait_after=True)
    post.wait_for("/sell")
    with page.expect_console_message(lambda message: message.text.startswith("hydrated")) as report:
        held.release()
    assert report.value.text == "hydrated: false"
    post.release()
    page.wait_for_url("**/sell/thanks")
    expect(page.get_by_role("status")).to_have_text(SUCCESS)
    lead_work_done(live_server.app)
    assert len(leads(live_server)) == before + 1
    assert leads(live_server)[0]["photo_count"] == 2
