"""The seller's status page in Chromium after a sale by mail ends without a purchase: the watch
on its way back (tracking shown), and a held watch read only as "on hold pending checks"; on a
phone and a desktop, passing axe, nothing overflowing, each saved as a screenshot to look at."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from app.leads.db import transaction
from app.leads.state import State
from app.shipping import labels, returns
from tests.browser.conftest import browser, make_live_server  # noqa: F401 (fixtures)
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page
from tests.helpers import give_token
from tests.shipping.return_steps import mail_deal, parcels
from tests.shipping.steps import mailin_settings

SHOTS = Path(os.environ.get("SCREENSHOTS_DIR", "/tmp/claim-screenshots"))


def closed_with_us(app, flagged: bool = False) -> int:
    """A closed sale by mail whose watch is with us, its return opened (or held); its lead."""
    inbound = mail_deal(app, "delivered")
    with app.app_context():
        with transaction() as db:
            closed = (State.CLOSED, inbound["lead_id"])
            db.execute("UPDATE leads SET state = ? WHERE id = ?", closed)
            if flagged:
                db.execute("UPDATE purchases SET register_result = 'flagged' WHERE lead_id = ?",
                           (inbound["lead_id"],))  # fmt: skip
        returns.open_return(inbound["lead_id"])
    return inbound["lead_id"]


def test_the_seller_follows_the_return_or_reads_on_hold(browser, make_live_server, easypost):  # noqa: F811
    server = make_live_server(**mailin_settings(easypost))
    back_lead, held_lead = closed_with_us(server.app), closed_with_us(server.app, flagged=True)
    with server.app.app_context():  # a staff member chose to tell the seller of the hold
        returns.tell_seller(held_lead, "staff:1")
    [back] = parcels(server.app, back_lead, "return")
    with server.app.app_context():
        labels.buy_label(back["id"])
        with transaction() as db:
            db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (back["id"],))
    tracking_code = parcels(server.app, back_lead, "return")[0]["tracking_code"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport, width in ((MOBILE, 375), (DESKTOP, 1280)):
        context, page = open_page(browser, server, viewport)
        page.goto(f"{server.url}/status/{give_token(server.app, back_lead)}")
        expect(page.get_by_text("Your watch is on its way back to you.")).to_be_visible()
        expect(page.get_by_text(tracking_code)).to_be_visible()
        page.locator("[data-return]").screenshot(path=SHOTS / f"return-{width}.png")
        assert axe_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.goto(f"{server.url}/status/{give_token(server.app, held_lead)}")
        expect(page.get_by_text("Your sale is on hold pending checks.")).to_be_visible()
        page.screenshot(path=SHOTS / f"held-status-{width}.png", full_page=True)
        text = page.locator("body").inner_text().lower()
        assert "stolen" not in text and "flagged" not in text
        assert axe_violations(page) == []
        context.close()
