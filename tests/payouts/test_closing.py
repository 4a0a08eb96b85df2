"""While payouts are sent through the bank's API, the watch is bought from its payout alone:
a payment recorded by hand is refused. Closing an accepted offer calls off a payout still
waiting for its second person, at the bank too, and is refused once one is on its way."""

from __future__ import annotations

import pytest

from app import queue
from app.leads.db import get_db
from app.payouts import ledger, two_people
from app.sale import lifecycle
from app.sale.purchase.authentication import Refused
from tests.helpers import PAYMENT, business_today
from tests.payouts.steps import deal_to_pay
from tests.payouts.test_two_people import approve, ask


def test_a_payment_recorded_by_hand_is_refused_while_the_bank_sends_payouts(payout_app, bank):
    lead_id = deal_to_pay(payout_app, 9500)
    data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
    with payout_app.app_context():
        with pytest.raises(lifecycle.MissingDetails, match="not by hand"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        assert get_db().execute("SELECT state FROM leads").fetchone()[0] == "agreed"


def test_closing_calls_off_a_payout_waiting_for_its_second_person_at_the_bank_too(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    with payout_app.app_context():
        lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "agreed")
        queue.wait_until_idle(30)
        row = ledger.get(payout_id)
    assert (row["state"], row["reason"]) == ("canceled", "the lead was closed")
    assert bank.transfers[row["transfer_id"]]["status"] == "canceled"
    with payout_app.app_context(), pytest.raises(Refused, match="no longer waiting"):
        two_people.approve(lead_id, payout_id, "staff:2")
    assert bank.approved() == 0


def test_a_payout_on_its_way_cannot_be_closed_under_it(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    bank.plan("approve", "pending")  # released, and not yet paid
    approve(payout_app, lead_id, payout_id)
    with payout_app.app_context():
        assert ledger.get(payout_id)["state"] == "released"
        with pytest.raises(lifecycle.MissingDetails, match="money may already have left"):
            lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "agreed")
        assert get_db().execute("SELECT state FROM leads").fetchone()[0] == "agreed"
