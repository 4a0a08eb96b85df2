"""The status page in Chromium, as a seller reads it, on a phone and a desktop: a sale by mail just
accepted (no appointment anywhere), the serial number's form, refused then given, a flagged lead
and a held closed mail deal (as any sale, then only "on hold pending checks" once staff tell
the seller); each passing axe, nothing
overflowing, each saved as a screenshot to look at."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from app.leads.db import transaction
from app.leads.state import State
from app.shipping import returns
from tests.browser.conftest import browser, make_live_server  # noqa: F401 (fixtures)
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page
from tests.helpers import give_token
from tests.shipping.return_steps import mail_deal as deal_at_the_offer
from tests.shipping.steps import mailin_settings
from tests.status.mail_steps import mail_deal

SHOTS = Path(os.environ.get("SCREENSHOTS_DIR", "/tmp/words-screenshots"))
TELLING = ("stolen", "flagged", "register", "police")


def flag(app, lead_id: int, state: str) -> None:
    with app.app_context(), transaction() as db:
        db.execute(
            "INSERT INTO purchases (lead_id, register_result) VALUES (?, 'flagged') "
            "ON CONFLICT (lead_id) DO UPDATE SET register_result = 'flagged'",
            (lead_id,),
        )
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (state, lead_id))


def looks_right(page, viewport: dict, name: str, width: int) -> str:
    """Axe passes, nothing overflows; the screenshot saved; the page's text in lower case."""
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=SHOTS / f"{name}-{width}.png", full_page=True)
    return page.locator("body").inner_text().lower()


def test_the_seller_reads_the_sale_by_mail_the_serial_form_and_a_hold(
    browser, make_live_server, easypost
):
    server = make_live_server(**mailin_settings(easypost))
    app = server.app
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, width in ((MOBILE, 375), (DESKTOP, 1280)):
        accepted, _ = mail_deal(app)
        flagged, _ = mail_deal(app)
        flag(app, flagged, State.OFFERED)
        held = deal_at_the_offer(app, "delivered")["lead_id"]
        flag(app, held, State.CLOSED)
        with app.app_context():
            assert "held" in returns.open_return(held)
        context, page = open_page(browser, server, viewport)

        page.goto(f"{server.url}/status/{give_token(app, accepted)}")
        expect(page.get_by_text("Three steps before your prepaid label")).to_be_visible()
        text = looks_right(page, viewport, "mail-accepted", width)
        assert "appointment" not in text

        serial = page.locator("[data-serial]")
        serial.get_by_label("Your watch's serial number").fill("7Z4")
        serial.get_by_role("button", name="Send the serial number").click()
        expect(page.get_by_role("alert")).to_contain_text("4 to 20 letters and digits")
        expect(serial.get_by_label("Your watch's serial number")).to_have_value("7Z4")
        serial.scroll_into_view_if_needed()
        serial.screenshot(path=SHOTS / f"serial-form-{width}.png")
        serial.get_by_label("Your watch's serial number").fill("7Z41-K9Q2")
        serial.get_by_role("button", name="Send the serial number").click()
        expect(page.locator("[data-serial-given]")).to_be_visible()
        assert page.locator("[data-serial-form]").count() == 0
        looks_right(page, viewport, "serial-given", width)

        for lead_id, name in ((flagged, "flagged"), (held, "held-closed")):
            page.goto(f"{server.url}/status/{give_token(app, lead_id)}")
            text = looks_right(page, viewport, f"{name}-untold", width)
            assert "on hold" not in text and not [word for word in TELLING if word in text]
            with app.app_context():  # a staff member chooses to tell the seller
                returns.tell_seller(lead_id, "staff:1")
            page.goto(f"{server.url}/status/{give_token(app, lead_id)}")
            expect(page.locator("[data-next-step]")).to_contain_text(
                "Your sale is on hold pending checks."
            )
            text = looks_right(page, viewport, name, width)
            assert not [word for word in TELLING if word in text]
            assert "this enquiry is closed" not in text
        context.close()
