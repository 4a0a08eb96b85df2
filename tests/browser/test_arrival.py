"""A parcel opened on record in Chromium, as two staff members work it: one records a light
parcel on a desktop (photos chosen in the file inputs), the other signs it off on a phone; the
seller's status page then shows the parcel received, at 375 and 1,280 px. Every screen passes
axe and fits its width. Set ARRIVAL_SHOTS to a folder to keep screenshots of each."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page, signed_in_page
from tests.browser.mail_pages import records_the_arrival
from tests.helpers import give_token
from tests.shipping.deal_steps import delivered_deal
from tests.shipping.fake_easypost import FakeEasyPost
from tests.shipping.steps import mailin_settings


@pytest.fixture
def fake():
    server = FakeEasyPost()
    yield server
    server.stop()


def shot(page, name: str) -> None:
    """Keep a full-page screenshot when ARRIVAL_SHOTS names a folder."""
    if folder := os.environ.get("ARRIVAL_SHOTS"):
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def fits(page, viewport) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_a_light_parcel_is_recorded_then_signed_off_by_another(browser, make_live_server, fake):
    server = make_live_server(**mailin_settings(fake))
    parcel = delivered_deal(server.app)
    path = f"{server.url}/staff/leads/{parcel['lead_id']}/arrival"
    recorder_context, recorder = signed_in_page(browser, server, "kim@example.com", DESKTOP)
    signer_context, signer = signed_in_page(browser, server, "lee@example.com", MOBILE)

    recorder.goto(f"{server.url}/staff/leads/{parcel['lead_id']}")
    recorder.get_by_text("The parcel by mail: its arrival on record").click()
    expect(recorder.get_by_role("heading", name="Record the arrival")).to_be_visible()
    shot(recorder, "arrival-form-1280")
    assert axe_violations(recorder) == [] and fits(recorder, DESKTOP)
    signer.goto(path)
    shot(signer, "arrival-form-375")
    assert axe_violations(signer) == [] and fits(signer, MOBILE)
    records_the_arrival(recorder, "26.4", "7Z41K9Q2")
    expect(recorder.get_by_text("must sign off what did not match")).to_be_visible()
    expect(recorder.get_by_text("You recorded this arrival, so another")).to_be_visible()
    expect(recorder.locator("#arrival-files img")).to_have_count(4)
    shot(recorder, "arrival-mismatch-1280")
    assert axe_violations(recorder) == []

    signer.goto(path)
    expect(signer.get_by_text("Did not match: waiting for a second staff member")).to_be_visible()
    shot(signer, "arrival-sign-off-375")
    assert axe_violations(signer) == [] and fits(signer, MOBILE)
    signer.get_by_label("What you checked").fill("Weighed it again: the inner box is lighter.")
    signer.get_by_role("button", name="Sign off").click()
    expect(signer.get_by_text("Signed off: the parcel counts as received")).to_be_visible()
    assert fits(signer, MOBILE)
    recorder_context.close()
    signer_context.close()

    token = give_token(server.app, parcel["lead_id"])
    for viewport, width in ((MOBILE, 375), (DESKTOP, 1280)):
        context, page = open_page(browser, server, viewport)
        page.goto(f"{server.url}/status/{token}")
        expect(page.get_by_role("heading", name="Your parcel to us")).to_be_visible()
        expect(page.locator('[data-parcel-step="done"]')).to_have_count(4)
        expect(page.get_by_text("Received by us")).to_be_visible()
        expect(page.locator("[data-next-step]")).not_to_contain_text("appointment")
        shot(page, f"status-parcel-{width}")
        assert axe_violations(page) == [] and fits(page, viewport)
        assert parcel["tracking_code"] not in page.content()
        context.close()
