"""The leads inbox in Chromium: a staff member works a lead from new to bought with the plain
forms (JavaScript on and off), through the authentication, the final offer, the seller's
paperwork and the ID check, and looks at its photos in the viewer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.leads import storage, store
from tests.browser.helpers import (
    DESKTOP,
    MOBILE,
    authenticate,
    axe_violations,
    do,
    expect_state,
    signed_in_page,
    visit,
)
from tests.data.paperwork import give_token, post_paperwork
from tests.data.photos import photo_bytes
from worker.jobs import process_photos

SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/inbox-screenshots"))
EVIL = '<script>alert("x")</script>'


def lead_with_photos(app, name: str, count: int = 3) -> int:
    """A lead saved as the sell form saves one, its photos cleaned by the real photo job."""
    with app.app_context():
        incoming = storage.incoming_dir()
        incoming.mkdir(parents=True, exist_ok=True)
        uploads = []
        for number in range(count):
            upload = f"{name}-{number}.upload"
            (incoming / upload).write_bytes(photo_bytes(size=(1200, 900), seed=number))
            uploads.append({"original_name": f"IMG_{number}.jpg", "upload_name": upload})
        lead = {
            "full_name": name,
            "email": f"{name.lower().replace(' ', '.')}@example.com",
            "phone": "(917) 555-0134",
            "watch_brand": "Omega",
            "watch_model": "Speedmaster Professional",
            "watch_year": 2018,
            "watch_condition": "Very Good - Minor wear",
            "has_box": True,
            "has_papers": True,
            "additional_details": f"Full set, serviced by Omega in 2023. {EVIL}",
            "source": "USA Website",
            "utm_source": "google",
            "utm_campaign": "speedmaster-2025",
            "meta_event_id": f"browser-{name.replace(' ', '-')}",
        }
        lead_id, _ = store.save_lead(lead, uploads)
        process_photos(lead_id)
    return lead_id


@pytest.mark.parametrize("java_script_enabled", [True, False], ids=["js", "no-js"])
def test_staff_member_works_a_lead_from_new_to_bought(browser, live_server, java_script_enabled):
    mode = "js" if java_script_enabled else "nojs"
    lead_id = lead_with_photos(live_server.app, f"Dana Flow {mode.upper()}")
    context, page = signed_in_page(
        browser, live_server, f"flow-{mode}@example.com", DESKTOP, java_script_enabled
    )
    page.get_by_role("link", name=f"Dana Flow {mode.upper()}").click()
    expect(page).to_have_url(f"{live_server.url}/staff/leads/{lead_id}")
    expect(page.get_by_text(f"Full set, serviced by Omega in 2023. {EVIL}")).to_be_visible()

    do(page, "contacted", {"Note (optional)": "Called; sending a quote today."}, "Mark contacted")
    expect_state(page, "the lead is now Contacted")
    do(
        page,
        "quote",
        {
            "Amount, or low end of a range (USD)": "4200",
            "High end of the range (USD, optional)": "4800",
            "Valid until": "2099-06-30",
        },
        "Send quote to the seller",
    )
    expect_state(page, "the lead is now Quoted. The seller is being e-mailed.")
    do(page, "answer", {"Accepted the quote": "yes"}, "Record answer")
    expect_state(page, "the lead is now Quote accepted")
    do(
        page,
        "appointment",
        {
            "Date": "2099-07-02",
            "Time": "11:00",
            "Insured collection": "yes",
            "Place": "88 Greenwich Ave, New York",
        },
        "Book and e-mail",
    )
    expect_state(page, "the lead is now Appointment")
    authenticate(page)
    page.locator("details", has=page.locator('form[action$="/offer"]')).locator("summary").click()
    difference = page.get_by_role("group", name="Difference 1")
    difference.get_by_label("What differs").fill("Scratched crystal")
    difference.get_by_label("Why").fill("The crystal needs replacing before resale.")
    offer = {"Final offer (USD)": "4650", "Valid until": "2099-07-09"}
    do(page, "offer", offer, "Record and e-mail the offer")
    expect_state(page, "the lead is now Final offer")
    do(page, "answer_offer", {"Accepted the offer": "yes"}, "Record answer")
    expect_state(page, "the lead is now Offer accepted")
    signed = post_paperwork(live_server.app.test_client(), give_token(live_server.app, lead_id))
    assert signed.status_code == 303
    page.reload()
    violations = axe_violations(page) if java_script_enabled else []  # the checklist, unticked
    page.get_by_role("link", name="View full paperwork").click()
    expect(page.get_by_role("heading", name="Seller's paperwork")).to_be_visible()
    expect(page.get_by_role("img", name="Front of the seller's ID")).to_have_js_property(
        "complete", True
    )
    page.get_by_label("I have compared the ID photos and details with the seller").check()
    page.get_by_role("button", name="Record: ID verified").click()
    expect_state(page, "ID verified")
    callback = page.locator('form[action$="/payout-call-back"]')  # the number on file, filled in
    page.locator("details", has=callback).locator("summary").click()
    callback.get_by_label("On this call the seller confirmed the account").check()
    callback.get_by_role("button", name="Record the call-back").click()
    expect_state(page, "Call-back recorded")
    do(
        page,
        "bought",
        {
            "Amount paid (USD)": "4650",
            "Wire transfer": "yes",
            "Bank's confirmation number": "FED-20990702-11",
        },
        "Mark bought and e-mail receipt",
    )
    expect_state(page, "the lead is now Bought")

    timeline = page.locator("#timeline")
    for text in (
        "Preliminary quote sent",
        "$4,200 to $4,800",
        "Seller accepted the quote (by phone)",
        "Appointment booked",
        "Insured collection",
        "Authentication findings recorded",
        "Stolen-watch register checked: clear",
        "Final offer recorded",
        "Differs: Scratched crystal",
        "Seller accepted the final offer (by phone)",
        "Seller signed the sale paperwork",
        "Seller's ID verified",
        "Bought",
    ):
        expect(timeline).to_contain_text(text)
    expect(page.locator("#purchase")).to_contain_text("FED-20990702-11")
    expect(page.get_by_text("On hold until")).to_be_visible()
    with live_server.app.app_context():
        assert store.get_lead(lead_id)["state"] == "bought"
    violations += axe_violations(page) if java_script_enabled else []
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not violations, "\n".join(violations)


def loaded(viewer, name: str):
    """The viewer's full-size image once the browser has it (so the next step aborts nothing)."""
    image = viewer.get_by_role("img", name=name)
    expect(image).to_have_js_property("complete", True)
    return image


def test_photo_viewer_zooms_and_steps_with_the_keyboard(browser, live_server):
    lead_id = lead_with_photos(live_server.app, "Vera Photos")
    context, page = signed_in_page(browser, live_server, "photos@example.com", DESKTOP)
    visit(page, live_server, f"/staff/leads/{lead_id}")
    photos = page.locator("#photos")
    expect(photos.get_by_role("img")).to_have_count(3)
    photos.get_by_role("link", name="Photo 1").click()
    viewer = page.get_by_role("dialog", name="Photo viewer")
    expect(viewer).to_be_visible()
    loaded(viewer, "Photo 1")
    expect(viewer).to_contain_text("Photo 1 · 1 of 3 · 100%")
    page.keyboard.press("ArrowRight")
    loaded(viewer, "Photo 2")
    expect(viewer).to_contain_text("Photo 2 · 2 of 3")
    page.keyboard.press("ArrowLeft")
    loaded(viewer, "Photo 1")
    page.keyboard.press("ArrowLeft")
    expect(viewer).to_contain_text("Photo 3 · 3 of 3")
    assert loaded(viewer, "Photo 3").evaluate("element => element.naturalWidth") == 1200
    page.keyboard.press("+")
    expect(viewer).to_contain_text("150%")
    viewer.get_by_role("button", name="Zoom in").click()
    expect(viewer).to_contain_text("200%")
    page.keyboard.press("0")
    expect(viewer).to_contain_text("100%")
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)


def test_photo_links_open_the_full_photo_without_javascript(browser, live_server):
    lead_id = lead_with_photos(live_server.app, "Nora Nojs", count=1)
    context, page = signed_in_page(browser, live_server, "nojs-photos@example.com", DESKTOP, False)
    page.goto(f"{live_server.url}/staff/leads/{lead_id}")
    with page.expect_response(lambda response: "/photos/" in response.url) as answer:
        page.locator("#photos").get_by_role("link", name="Photo 1").click()
    response = answer.value
    assert response.status == 200 and response.headers["content-type"] == "image/jpeg"
    assert response.headers["cache-control"] == "private, no-store"
    context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280px", "375px"])
def test_inbox_and_lead_page_screenshots_have_no_accessibility_violations(
    browser, live_server, viewport
):
    width = viewport["width"]
    lead_id = lead_with_photos(live_server.app, f"Ida Screens {width}")
    context, page = signed_in_page(browser, live_server, f"shots-{width}@example.com", viewport)
    SHOTS.mkdir(parents=True, exist_ok=True)
    visit(page, live_server, "/staff/leads")
    page.screenshot(path=SHOTS / f"inbox-{width}.png", full_page=True)
    violations = axe_violations(page)
    visit(page, live_server, f"/staff/leads/{lead_id}")
    page.screenshot(path=SHOTS / f"lead-{width}.png", full_page=True)
    violations += axe_violations(page)
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not violations, "\n".join(violations)
