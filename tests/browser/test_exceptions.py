"""An exception in Chromium, as two staff members work it: one asks to pay another amount than
the accepted offer, on a desktop; the other approves it on a phone; the
first marks the lead bought at that amount. Both screens pass axe."""

from __future__ import annotations

from playwright.sync_api import expect

from app.sale.purchase import record
from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, signed_in_page
from tests.data.staff_purchase import ready_to_buy


def test_a_second_staff_member_approves_another_amount_and_it_is_paid(browser, live_server):
    lead_id = ready_to_buy(live_server.app)  # accepted at $7,400
    lead_path = f"{live_server.url}/staff/leads/{lead_id}"
    asker_context, asker = signed_in_page(browser, live_server, "kim@example.com", DESKTOP)
    approver_context, approver = signed_in_page(browser, live_server, "lee@example.com", MOBILE)
    asker.goto(lead_path)
    expect(asker.locator("[name=bought-amount]")).to_have_value("7400")
    asker.get_by_text("Ask to pay another amount than the accepted offer").click()
    asker.locator("[name=payment_exception-amount]").fill("7150")
    asker.locator("[name=payment_exception-reason]").fill("A link of the bracelet is missing.")
    asker.get_by_role("button", name="Ask for approval").click()
    expect(asker.get_by_text("Waiting for another staff member to approve it")).to_be_visible()
    assert axe_violations(asker) == []

    approver.goto(lead_path)
    exception = approver.get_by_text("Pay $7,150 instead of the accepted offer of $7,400")
    expect(exception).to_be_visible()
    assert axe_violations(approver) == []
    approver.get_by_role("button", name="Approve this exception").click()
    expect(approver.get_by_text("Exception approved: recorded")).to_be_visible()
    assert approver.evaluate("document.documentElement.scrollWidth") <= MOBILE["width"]

    asker.goto(lead_path)
    asker.locator("[name=bought-amount]").fill("7150")
    asker.locator("[name=bought-confirmation]").fill("FED-20261125-7")
    asker.get_by_role("button", name="Mark bought and e-mail receipt").click()
    expect(asker.get_by_text("the lead is now Bought")).to_be_visible()
    with live_server.app.app_context():
        assert record.get(lead_id)["paid_amount"] == 7150
    asker_context.close()
    approver_context.close()
