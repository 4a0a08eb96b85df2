"""The payout in Chromium, as two staff members and the seller live it: one asks on a desktop
(1,280 px), the other approves on a phone (375 px), the bank pays, and the seller follows it on
their status page at both widths, from "being prepared" to "paid by instant transfer at" its
time. Every screen passes axe, nothing overflows a phone, and each is saved as a screenshot to
look at (SCREENSHOTS_DIR, default /tmp/payout-screenshots)."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import browser, make_live_server  # noqa: F401 (fixtures)
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page, signed_in_page
from tests.helpers import give_token
from tests.payouts.steps import ACCOUNT, deal_to_pay, payout_settings

SHOTS = Path(os.environ.get("SCREENSHOTS_DIR", "/tmp/payout-screenshots"))
ASK = "Pay $9,500.00 to the account ending 5566 by instant transfer (RTP)"


def looked_at(page, name: str, width: int) -> None:
    """Saved to look at, checked by axe, and (on a phone) no wider than the screen."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}-{width}.png", full_page=True)
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert ACCOUNT not in page.content()


def test_one_asks_on_a_desktop_another_approves_on_a_phone_and_the_seller_reads_it(
    browser,  # noqa: F811
    make_live_server,  # noqa: F811
    bank,
):
    server = make_live_server(**payout_settings(bank))
    lead_id = deal_to_pay(server.app)
    lead_page = f"{server.url}/staff/leads/{lead_id}"
    status_page = f"{server.url}/status/{give_token(server.app, lead_id)}"
    asker_context, asker = signed_in_page(browser, server, "ana@example.com", DESKTOP)
    approver_context, approver = signed_in_page(browser, server, "ben@example.com", MOBILE)
    seller_contexts = {width: open_page(browser, server, viewport)
                       for width, viewport in ((375, MOBILE), (1280, DESKTOP))}  # fmt: skip

    asker.goto(lead_page)
    expect(asker.get_by_text(ASK)).to_be_visible()
    looked_at(asker, "staff-ask", 1280)
    asker.get_by_role("button", name="Ask for this payout").click()
    expect(asker.get_by_text("Payout asked for and recorded with your name")).to_be_visible()
    expect(asker.get_by_text("Waiting for another staff member to approve it")).to_be_visible()
    looked_at(asker, "staff-asked", 1280)

    for width, (_, seller) in seller_contexts.items():
        seller.goto(status_page)
        expect(seller.locator("[data-next-step]")).to_contain_text(
            "Your payment is being prepared: $9,500.00 by instant transfer"
        )
        looked_at(seller, "seller-prepared", width)

    approver.goto(lead_page)
    approve = approver.get_by_role("button", name="Approve: the bank sends it")
    approve.scroll_into_view_if_needed()
    looked_at(approver, "staff-approve", 375)
    approve.click()
    expect(approver.get_by_text("Payout approved and recorded with your name")).to_be_visible()
    approver.wait_for_timeout(500)  # the job has the bank pay, in this process
    approver.goto(lead_page)
    expect(approver.get_by_text("Bought and paid: the sale is complete")).to_be_visible()
    looked_at(approver, "staff-paid", 375)

    for width, (context, seller) in seller_contexts.items():
        seller.goto(status_page)
        expect(seller.locator("[data-payment]")).to_contain_text("by instant transfer at")
        looked_at(seller, "seller-paid", width)
        assert not seller.problems.lines, "\n".join(seller.problems.lines)
        context.close()
    assert bank.made() == 1 and bank.approved() == 1
    asker_context.close()
    approver_context.close()
