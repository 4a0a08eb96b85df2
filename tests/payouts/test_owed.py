"""What a payout is owed is found again from its records by `flask leads requeue` and whatever
runs the requeue's list (app/sale/pending.py's OWED), not only by the payouts' own timer: an
event of the bank's stored but never applied, a payout approved whose job was lost, a paid
payout whose lead is not yet bought, and staff's e-mail about a payout not yet sent (never one
already claimed, nor a failure the job will still retry)."""

from __future__ import annotations

import pytest

from app import queue
from app.leads import email_claims, email_kinds, history
from tests.payouts.steps import deal_to_pay, payout_settings
from tests.payouts.test_reconcile import event_whose_job_was_lost, paid_but_not_bought
from tests.payouts.test_two_people import approve, ask
from tests.payouts.test_webhook import state_of
from tests.worker.test_two_runners import to
from worker import payout_jobs

STAFF = "desk@watches.example"


@pytest.fixture
def paying_app(make_app, bank, mail_settings):
    """Payouts through the fake bank, staff e-mailed at the loopback SMTP server."""
    return make_app(**payout_settings(bank), **mail_settings, STAFF_EMAIL=STAFF)


def requeue(app) -> str:
    result = app.test_cli_runner().invoke(args=["leads", "requeue"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        queue.wait_until_idle(30)
    return result.output


def test_an_event_stored_whose_job_was_lost_is_applied_by_the_requeue(payout_app, bank):
    lead_id, row, stored = event_whose_job_was_lost(payout_app, bank)
    assert f"Queued the bank's event {stored}" in requeue(payout_app)
    assert state_of(payout_app, lead_id, row["id"]) == ("bought", "paid")
    assert "bank's event" not in requeue(payout_app)


def test_a_payout_approved_while_the_queue_was_down_is_sent_by_the_requeue(
    payout_app, bank, monkeypatch
):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    with monkeypatch.context() as down:
        down.setattr(queue, "enqueue", lambda job_name, *ids: False)  # Redis refused the job
        approve(payout_app, lead_id, payout_id)
    assert state_of(payout_app, lead_id, payout_id) == ("agreed", "approved")
    assert f"Queued payout {payout_id}" in requeue(payout_app)
    assert state_of(payout_app, lead_id, payout_id) == ("bought", "paid")
    assert bank.made() == 1 and bank.approved() == 1
    assert f"payout {payout_id}" not in requeue(payout_app)


def test_a_paid_payout_whose_lead_was_not_bought_is_recorded_by_the_requeue(payout_app, bank):
    lead_id, row = paid_but_not_bought(payout_app, bank)
    assert f"Queued payout {row['id']}" in requeue(payout_app)
    assert state_of(payout_app, lead_id, row["id"]) == ("bought", "paid")


def test_a_payout_waiting_for_its_second_person_is_not_the_requeues(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)  # its transfer made, waiting for approval
    assert f"payout {payout_id}" not in requeue(payout_app)
    assert bank.made() == 1 and bank.approved() == 0


def test_staffs_e_mail_about_a_payout_not_sent_is_sent_once_by_the_requeue(
    paying_app, bank, smtp_server
):
    lead_id = deal_to_pay(paying_app)
    payout_id = ask(paying_app, lead_id)
    with paying_app.app_context():  # refused by the seller's bank; its e-mail's job lost
        details = {"payout": payout_id, "rail": "rtp", "reason": "account closed"}
        refusal = history.add_event(lead_id, "system", "payout_rejected", details)
    assert f"Queued staff's e-mail about payout event {refusal}" in requeue(paying_app)
    assert "payout event" not in requeue(paying_app)
    assert len(to(smtp_server, STAFF, "The seller's bank did not accept the payout")) == 1


def test_a_claimed_e_mail_and_a_failure_still_to_be_retried_are_not_owed(paying_app, bank):
    lead_id = deal_to_pay(paying_app)
    payout_id = ask(paying_app, lead_id)
    with paying_app.app_context():
        returned = history.add_event(
            lead_id, "system", "payout_returned", {"payout": payout_id, "reason": "no account"}
        )
        email_claims.claim(email_kinds.PAYOUT_ALERT.key(returned), lead_id)  # unsure: staff told
        history.add_event(lead_id, "system", "payout_failed", {"payout": payout_id, "error": "500"})
        last = history.add_event(
            lead_id, "system", "payout_failed", {"payout": payout_id, "error": "500", "alert": True}
        )
    told = requeue(paying_app)
    assert "payout event" in told
    assert [line for line in told.splitlines() if "payout event" in line] == [
        f"Queued staff's e-mail about payout event {last} of lead #{lead_id}."
    ]


def test_nothing_is_sent_to_the_bank_once_payouts_are_recorded_by_hand_again(
    payout_app, bank, monkeypatch
):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    with monkeypatch.context() as down:
        down.setattr(queue, "enqueue", lambda job_name, *ids: False)
        approve(payout_app, lead_id, payout_id)
    payout_app.config["PAYOUT_PROVIDER"] = ""  # staff now pay from the bank's own site
    assert f"payout {payout_id}" not in requeue(payout_app)
    with payout_app.app_context():
        assert (
            payout_jobs.send_payout(payout_id) == "payouts are not sent from the site: nothing sent"
        )
    assert bank.approved() == 0
    assert state_of(payout_app, lead_id, payout_id) == ("agreed", "approved")
