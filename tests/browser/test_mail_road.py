"""The seller's whole road by mail in Chromium, at 375 px with JavaScript and at 1,280 px without:
/sell by mail from a Boise ZIP code, the quote accepted on the status page, the three steps
before the label, the label's download, the parcel's progress to us, and the final offer. Staff's
part (the quote, the ID check, the arrival, the findings and the offer) is done as their views do
it, in-process; the label is bought from the fake provider and the parcel moved by signed
webhooks. Every stage fits the screen, passes axe (with JavaScript) and is kept as a
screenshot (SCREENSHOT_DIR)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.leads import search
from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle
from app.sale.purchase import record
from app.shipping import arrival, labels
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page, visit
from tests.browser.mail_pages import easypost, gives_the_three_parts, mail_server  # noqa: F401
from tests.browser.test_sell_form import fill_valid
from tests.data.photos import photo_bytes
from tests.helpers import FINDINGS, give_token, lead_work_done
from tests.shipping.steps import deliver, tracking_event
from tests.status.mail_steps import quote, verify_id

SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/mail-road-screenshots"))
MAIL_CHOSEN = "You chose to sell by insured mail"


class Road:
    """One seller's tab and what is checked at each stage of the road."""

    def __init__(self, page, server, js: bool):
        self.page, self.server, self.js = page, server, js
        self.name = f"{page.viewport_size['width']}{'-js' if js else '-nojs'}"

    def go(self, path: str) -> None:
        if self.js:
            visit(self.page, self.server, path)
        else:
            self.page.goto(self.server.url + path)

    def stage(self, name: str) -> None:
        """The page as it stands fits its width, passes axe (where scripts run: axe is one, and
        without them it would wait for ever), and is kept as a screenshot."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"road-{name}-{self.name}.png"), full_page=True)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"], f"{name}: {width}px wide"
        if self.js:
            assert axe_violations(self.page) == [], name


def move(app, tracking_code: str, *statuses: str) -> None:
    """Each tracking status as its own signed webhook event, applied by its job."""
    client = app.test_client()
    for status in statuses:
        assert deliver(client, tracking_event(tracking_code, status)).status_code == 200
        lead_work_done(app)


def opened_on_record() -> arrival.Opened:
    photo = photo_bytes(size=(480, 360), seed=7)
    return arrival.Opened(weight_oz=32, seal_intact=True, serial="81234567", box_photos=[photo],
                          opening_photos=[photo], serial_photo=photo)  # fmt: skip


@pytest.mark.parametrize(
    ("viewport", "js"), [(MOBILE, True), (DESKTOP, False)], ids=["375-js", "1280-no-js"]
)
def test_the_sellers_road_by_mail_from_the_form_to_the_final_offer(
    browser, mail_server, viewport, js, tmp_path
):
    app = mail_server.app
    context, page = open_page(browser, mail_server, viewport, java_script_enabled=js)
    road = Road(page, mail_server, js)
    email = f"road.{road.name}@example.com"
    try:
        # /sell by mail, from Boise.
        road.go("/sell")
        fill_valid(page, email=email)
        page.fill("#field-postalCode", "83702")
        page.get_by_label("By insured mail").check()
        page.click("#sell-form button[type=submit]" if js else "button[type=submit]")
        expect(page.get_by_text(MAIL_CHOSEN).first).to_be_visible(timeout=30_000)
        road.stage("1-sent")
        lead_work_done(app)
        with app.app_context():
            [lead] = [row for row in search.list_leads() if row["email"] == email]
        lead_id, token = lead["id"], give_token(app, lead["id"])
        assert (lead["handover"], lead["postal_code"]) == ("mail", "83702")

        # Staff quote; the seller accepts on the status page and is shown the three steps.
        with app.app_context():
            lifecycle.transition(lead_id, State.QUOTED, "staff:1", quote(9500), State.NEW)
        road.go(f"/status/{token}")
        road.stage("2-quoted")
        page.get_by_role("button", name="Accept the quote").click()
        expect(page.locator("[data-mail]")).to_be_visible()
        road.stage("3-steps")

        gives_the_three_parts(page, tmp_path)
        road.stage("4-given")

        # Staff verify the ID and the label is bought: the seller downloads it.
        with app.app_context():
            parcel = labels.buy_label(verify_id(lead_id))
        road.go(f"/status/{token}")
        expect(page.locator("[data-label]")).to_have_count(2)
        expect(page.locator("[data-parcel-step=current]")).to_contain_text("Label ready")
        road.stage("5-label")
        with page.expect_download() as download:
            page.click("[data-label='4x6']")
        assert download.value.suggested_filename.endswith("-4x6.pdf")
        assert Path(download.value.path()).read_bytes().startswith(b"%PDF")

        # The parcel on its way, then with us: its progress in plain words, in one box.
        move(app, parcel["tracking_code"], "in_transit")
        road.go(f"/status/{token}")
        expect(page.locator("[data-parcel-step=current]")).to_contain_text("On its way to us")
        expect(page.locator("[data-label]")).to_have_count(0)
        road.stage("6-in-transit")
        move(app, parcel["tracking_code"], "delivered")
        road.go(f"/status/{token}")
        expect(page.locator("[data-parcel-step=current]")).to_contain_text("Delivered to us")
        expect(page.locator("[data-parcel]")).to_have_count(1)  # one box: steps, number, words
        road.stage("7-delivered")

        # Opened on record, authenticated, and the final offer on the status page.
        with app.app_context():
            arrival.record_arrival(lead_id, opened_on_record(), "staff:1")
            with transaction() as db:
                record.update(db, lead_id, FINDINGS)
            offer = {"amount": 9100, "valid_until": "2099-01-01"}
            lifecycle.transition(lead_id, State.OFFERED, "staff:1", offer, State.ACCEPTED)
        lead_work_done(app)
        road.go(f"/status/{token}")
        expect(page.locator("[data-final-offer] [data-offer-amount]")).to_have_text("$9,100")
        expect(page.locator("[data-parcel-step=done]")).to_have_count(4)
        road.stage("8-final-offer")
    finally:
        context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
