"""A claim in Chromium, as two staff members work it: one opens it for a lost parcel from the
parcel's page on a desktop, the other records the insurer's answer on a phone; the Claims tab
shows it, a watch held from its return is marked on its parcel's page, and so is a lost
parcel the carrier then delivered. Every screen passes
axe, nothing overflows a phone, and each is saved as a screenshot to look at."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from app.leads.db import immediate_transaction, transaction
from app.leads.state import State
from app.shipping import labels, returns, tracking
from tests.browser.conftest import browser, make_live_server  # noqa: F401 (fixtures)
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, signed_in_page
from tests.shipping.return_steps import mail_deal
from tests.shipping.steps import mailin_settings

SHOTS = Path(os.environ.get("SCREENSHOTS_DIR", "/tmp/claim-screenshots"))


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def test_a_claim_is_opened_on_a_desktop_and_settled_on_a_phone(
    browser,
    make_live_server,
    easypost,  # noqa: F811
):
    server = make_live_server(**mailin_settings(easypost))
    parcel = mail_deal(server.app, "in_transit")
    held = mail_deal(server.app, "delivered")
    with server.app.app_context():
        with transaction() as db:
            db.execute("UPDATE purchases SET register_result = 'flagged' WHERE lead_id = ?",
                       (held["lead_id"],))  # fmt: skip
            db.execute("UPDATE leads SET state = ? WHERE id = ?", (State.CLOSED, held["lead_id"]))
        returns.open_return(held["lead_id"])
    path = f"{server.url}/staff/shipments/{parcel['id']}"
    opener_context, opener = signed_in_page(browser, server, "kim@example.com", DESKTOP)
    settler_context, settler = signed_in_page(browser, server, "lee@example.com", MOBILE)

    opener.goto(path)
    opener.get_by_label("Lost or damaged").select_option("lost")
    opener.get_by_label("Insurer's claim reference").fill("CLM-2026-0042")
    opener.get_by_label("What happened, for the record").fill("No carrier scan for 9 days.")
    shoot(opener, "claim-form-1280")
    assert axe_violations(opener) == []
    opener.get_by_role("button", name="Open the claim").click()
    expect(opener.get_by_text("Claim opened: another staff member")).to_be_visible()
    expect(opener.get_by_text("You opened this claim, so another staff member")).to_be_visible()

    settler.goto(path)
    expect(settler.get_by_text("Lost: claim open, waiting for the insurer")).to_be_visible()
    settler.get_by_label("The insurer's answer").select_option("paid")
    settler.get_by_label("Amount paid (USD)").fill("18000")
    shoot(settler, "claim-settle-375")
    assert axe_violations(settler) == []
    assert settler.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]
    settler.get_by_role("button", name="Record the answer").click()
    expect(settler.get_by_text("Lost: paid by the insurer, $18,000")).to_be_visible()

    for page, width in ((opener, 1280), (settler, 375)):
        page.goto(f"{server.url}/staff/shipments?tab=claims")
        expect(page.get_by_text("Claim (lost): paid")).to_be_visible()
        shoot(page, f"claims-tab-{width}")
        assert axe_violations(page) == []
        page.goto(f"{server.url}/staff/shipments/{held['id']}")
        expect(page.get_by_text("Held: do not return", exact=True)).to_be_visible()
        shoot(page, f"held-parcel-{width}")
        assert axe_violations(page) == []
    assert settler.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]

    with server.app.app_context(), immediate_transaction() as db:  # the carrier finds it
        tracking.apply_status(db, labels.get(parcel["id"]), "delivered")
    for page, width in ((opener, 1280), (settler, 375)):
        page.goto(path)
        expect(page.locator("[data-found-after-claim]")).to_contain_text("Tell the insurer")
        shoot(page, f"claim-found-{width}")
        assert axe_violations(page) == []
    assert settler.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]
    opener_context.close()
    settler_context.close()
