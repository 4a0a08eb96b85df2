"""Exceptions to a purchase's rules need a second staff member, from the lead page: a payment
other than the accepted offer, and clearing a flagged stolen-watch register check. Each refusal
is asserted with nothing changed; the one who asks can never approve."""

from __future__ import annotations

import re

from app.leads.db import get_db, transaction
from app.sale.purchase import record
from tests.data.paperwork import accepted_again
from tests.data.staff_purchase import (
    act,
    audit,
    authenticated_lead,
    check_register,
    lead_page,
    page_token,
    post_step,
    purchase,
    ready_to_buy,
    state_of,
)
from tests.helpers import business_today

PAYMENT = {"method": "wire", "confirmation": "FED-0042"}
REFUSED_TO_ASKER = "You asked for this exception, so another staff member must approve it."


def second_staff(app, staff):
    """Another staff member, signed in with both factors in a client of their own."""
    client = app.test_client()
    staff.sign_in(client, staff.account("ben@example.com", "Ben Ortiz"))
    return client


def pay(client, lead_id: int, amount: str, paid_on: str | None = None):
    """Mark the lead bought from its page at `amount`, paid on `paid_on` (today by default)."""
    fields = PAYMENT | {"amount": amount, "paid_on": paid_on or business_today().isoformat()}
    return act(client, lead_id, "bought", fields)


def approval_ids(html: str) -> list[int]:
    """The approve buttons' exceptions on a lead page."""
    return [int(found) for found in re.findall(r"/exceptions/(\d+)/approve", html)]


def approve(client, lead_id: int, approval_id: int, page_of: int | None = None):
    """POST the approval of `approval_id` with a token from the page of lead `page_of`."""
    token = page_token(lead_page(client, page_of or lead_id))
    path = f"/staff/leads/{lead_id}/exceptions/{approval_id}/approve"
    return client.post(path, data={"approve-csrf_token": token})


def ask_to_pay(client, lead_id: int, amount: str, reason: str = "Bracelet link missing"):
    """Ask, from the lead page, to pay another amount than the accepted offer."""
    return post_step(client, lead_id, "payment_exception", {"amount": amount, "reason": reason})


def approvals(app) -> list[dict]:
    """Every row of the approvals table."""
    with app.app_context():
        return [dict(row) for row in get_db().execute("SELECT * FROM approvals ORDER BY id")]


def test_mark_bought_starts_with_the_accepted_offer(app, signed_in):
    lead_id = ready_to_buy(app)
    html = lead_page(signed_in, lead_id)
    assert re.search(r'name="bought-amount"[^>]*value="7400"', html)


def test_another_amount_is_refused_until_a_second_staff_member_approves_it(app, signed_in, staff):
    lead_id = ready_to_buy(app)  # the seller accepted $7,400
    assert pay(signed_in, lead_id, "74,000").status_code == 303
    html = lead_page(signed_in, lead_id)
    assert "The amount, $74,000, is not the accepted offer of $7,400." in html
    assert state_of(app, lead_id) == "agreed" and purchase(app, lead_id)["paid_on"] is None

    assert ask_to_pay(signed_in, lead_id, "$7,200").status_code == 303
    html = lead_page(signed_in, lead_id)
    assert "Pay $7,200 instead of the accepted offer of $7,400" in html
    assert "Waiting for another staff member to approve it" in html
    assert approval_ids(html) == []  # the one who asked gets no approve button
    (asked,) = approvals(app)
    assert approve(signed_in, lead_id, asked["id"]).status_code == 303
    assert REFUSED_TO_ASKER in lead_page(signed_in, lead_id)
    assert approvals(app)[0]["approved_by"] is None

    other = second_staff(app, staff)
    assert approval_ids(lead_page(other, lead_id)) == [asked["id"]]
    assert approve(other, lead_id, asked["id"]).status_code == 303
    assert "Exception approved" in lead_page(other, lead_id)
    assert approvals(app)[0]["approved_by"] not in (None, asked["requested_by"])

    assert pay(signed_in, lead_id, "7,300").status_code == 303  # not the amount approved
    assert "is not the accepted offer" in lead_page(signed_in, lead_id)
    assert pay(signed_in, lead_id, "7,200").status_code == 303
    assert state_of(app, lead_id) == "bought" and purchase(app, lead_id)["paid_amount"] == 7200
    actions = [action for action, _ in audit(app)]
    assert "exception_approval_refused" in actions and "exception_approved" in actions


def test_an_exception_is_asked_once_and_approved_once(app, signed_in, staff):
    lead_id = ready_to_buy(app)
    ask_to_pay(signed_in, lead_id, "7,000")
    ask_to_pay(signed_in, lead_id, "7,000")
    assert "already waiting for approval" in lead_page(signed_in, lead_id)
    other = second_staff(app, staff)
    (asked,) = approvals(app)
    approve(other, lead_id, asked["id"])
    approve(other, lead_id, asked["id"])
    assert "This exception was already approved." in lead_page(other, lead_id)
    assert ask_to_pay(signed_in, lead_id, "7,400").status_code == 303
    assert "$7,400 is the accepted offer: paying it needs no approval." in lead_page(
        signed_in, lead_id
    )
    assert len(approvals(app)) == 1


def test_an_exception_of_an_earlier_deal_offers_no_approve_button(app, signed_in, staff):
    lead_id = ready_to_buy(app)
    ask_to_pay(signed_in, lead_id, "7,000")
    accepted_again(app, lead_id, 7400)  # closed, reopened, a final offer accepted again
    html = lead_page(second_staff(app, staff), lead_id)
    assert approval_ids(html) == []
    assert "asked for an earlier deal: it counts no more" in html


def test_an_approval_is_not_given_through_another_lead(app, signed_in, staff):
    mine, theirs = ready_to_buy(app), ready_to_buy(app)
    ask_to_pay(signed_in, theirs, "7,100")
    (asked,) = approvals(app)
    other = second_staff(app, staff)
    assert approve(other, mine, asked["id"]).status_code == 303
    html = lead_page(other, mine)
    assert "There is no such exception on this lead." in html and "7,100" not in html
    assert approvals(app)[0]["approved_by"] is None


def test_a_payment_before_the_signature_or_in_the_future_is_refused(app, signed_in):
    lead_id = ready_to_buy(app)  # signed today
    assert pay(signed_in, lead_id, "7,400", paid_on="2016-03-01").status_code == 303
    assert "The payment date, 1 March 2016, is before the seller signed" in lead_page(
        signed_in, lead_id
    )
    response = pay(signed_in, lead_id, "7,400", paid_on="2999-01-01")
    assert response.status_code == 400 and "This date is still to come." in response.text
    kept = purchase(app, lead_id)
    assert state_of(app, lead_id) == "agreed"
    assert kept["paid_on"] is None and kept["hold_ends_on"] is None and kept["retain_until"] is None


def test_a_flagged_watch_is_cleared_only_with_a_second_staff_members_approval(
    app, signed_in, staff
):
    lead_id = ready_to_buy(app)
    assert check_register(signed_in, lead_id, result="flagged").status_code == 303
    assert check_register(signed_in, lead_id, result="clear").status_code == 303
    assert purchase(app, lead_id)["register_result"] == "flagged"  # the clear one waits
    html = lead_page(signed_in, lead_id)
    assert "counts only once a second staff member approves clearing the flag" in html
    assert "Every check (2)" in html
    assert pay(signed_in, lead_id, "7,400").status_code == 303
    assert "a clear stolen-watch register check" in lead_page(signed_in, lead_id)
    assert state_of(app, lead_id) == "agreed"

    check_id = re.search(r'name="clear_flag-check" type="hidden" value="(\d+)"', html).group(1)
    fields = {"check": check_id, "reason": "The register withdrew its match on the serial."}
    assert post_step(signed_in, lead_id, "clear_flag", fields).status_code == 303
    (asked,) = approvals(app)
    approve(signed_in, lead_id, asked["id"])
    assert REFUSED_TO_ASKER in lead_page(signed_in, lead_id)
    assert purchase(app, lead_id)["register_result"] == "flagged"

    other = second_staff(app, staff)
    assert approve(other, lead_id, asked["id"]).status_code == 303
    assert purchase(app, lead_id)["register_result"] == "clear"
    assert pay(signed_in, lead_id, "7,400").status_code == 303
    assert state_of(app, lead_id) == "bought"


def test_a_flag_cannot_be_cleared_without_a_newer_clear_check(app, signed_in):
    lead_id = ready_to_buy(app)
    check_register(signed_in, lead_id, result="flagged")
    assert 'name="clear_flag-check"' not in lead_page(signed_in, lead_id)
    fields = {"check": "1", "reason": "Trust me"}
    assert post_step(signed_in, lead_id, "clear_flag", fields).status_code == 303
    assert "There is no clear register check waiting to clear a flag" in lead_page(
        signed_in, lead_id
    )
    assert approvals(app) == []


def test_a_register_check_dated_before_the_authentication_is_refused(app, signed_in):
    lead_id = authenticated_lead(app)
    fields = {"provider": "Stolen Watch Register", "result": "clear", "checked_on": "2016-01-04"}
    certificate = {"certificate": (b"%PDF-1.7\n%%EOF\n", "c.pdf")}
    assert post_step(signed_in, lead_id, "register_check", fields, certificate).status_code == 303
    assert "is older than the watch&#39;s authentication" in lead_page(signed_in, lead_id)
    assert purchase(app, lead_id)["register_result"] is None


def test_an_account_in_another_name_is_paid_only_with_a_second_approval(app, signed_in, staff):
    lead_id = ready_to_buy(app)
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, {"account_holder": "Morgan Lee"})
    pay(signed_in, lead_id, "7,400")
    html = lead_page(signed_in, lead_id)
    assert "The account holder, Morgan Lee, is not the seller&#39;s legal name" in html
    names = re.search(r'name="holder_name-names" type="hidden" value="(\w+)"', html).group(1)
    fields = {"names": names, "reason": "A joint account; the seller sent a bank letter."}
    assert post_step(signed_in, lead_id, "holder_name", fields).status_code == 303
    (asked,) = approvals(app)
    assert approve(second_staff(app, staff), lead_id, asked["id"]).status_code == 303
    pay(signed_in, lead_id, "7,400")
    assert state_of(app, lead_id) == "bought"


def test_a_call_back_to_another_number_is_refused_and_audited(app, signed_in):
    lead_id = ready_to_buy(app)
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, {"payout_confirmed_at": None, "payout_confirmed_by": None})
    called = {"phone_called": "(646) 555-0199", "confirmed": "y"}
    assert post_step(signed_in, lead_id, "payout_callback", called).status_code == 303
    assert "counts only on the phone number on file" in lead_page(signed_in, lead_id)
    assert purchase(app, lead_id)["payout_confirmed_at"] is None
    assert ("purchase_step_refused", {"step": "payout_callback"}) in audit(app)
