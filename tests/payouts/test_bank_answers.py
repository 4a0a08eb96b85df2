"""What the bank answers, and what it does to a payout: a transfer the seller's bank rejects
leaves the lead `agreed` and e-mails staff once with the bank's reason; an ACH return after the
purchase is on the timeline and e-mailed, never a move back; a 500 or a time-out, before or
after the transfer was made or released, and two workers at once, make one transfer released
once; a transfer the bank holds for another amount is never released."""

from __future__ import annotations

import threading

import pytest

from app import queue
from app.leads import history
from app.leads.db import get_db
from app.payouts import ledger, transfers
from app.payouts.increase_api import BankError
from tests.payouts.steps import ACCOUNT, ACH_BANK, API_KEY, deal_to_pay, payout_settings
from tests.payouts.test_two_people import approve, ask
from tests.payouts.test_webhook import deliver, state_of


@pytest.fixture
def paying_app(make_app, bank, mail_settings):
    """Payouts through the fake bank, staff e-mailed at the loopback SMTP server."""
    return make_app(**payout_settings(bank), **mail_settings, STAFF_EMAIL="desk@watches.example")


def kinds(app, lead_id: int) -> list[str]:
    with app.app_context():
        return [event["kind"] for event in history.lead_events(lead_id)]


def carry_on(app, payout_id: int) -> str:
    with app.app_context():
        return transfers.carry_on(payout_id)


def row_of(app, payout_id: int) -> dict:
    with app.app_context():
        return ledger.get(payout_id)


def test_a_transfer_the_sellers_bank_rejects_leaves_the_lead_agreed_and_tells_staff_once(
    paying_app, bank, smtp_server
):
    lead_id = deal_to_pay(paying_app)
    payout_id = ask(paying_app, lead_id)
    bank.plan("approve", "rejected")
    approve(paying_app, lead_id, payout_id)
    row = row_of(paying_app, payout_id)
    assert (row["state"], row["reason"]) == ("rejected", "account closed")
    assert state_of(paying_app, lead_id, payout_id) == ("agreed", "rejected")
    for event in bank.events[-3:]:  # the bank's events about it, each delivered twice
        deliver(paying_app, bank, event)
        deliver(paying_app, bank, event)
    carry_on(paying_app, payout_id)
    [alert] = smtp_server.wait_for(1)
    body = alert.get_body(("plain",)).get_content()
    assert "The seller's bank did not accept the payout" in alert["Subject"]
    assert "account closed" in body and "$9,500.00" in body
    assert ACCOUNT not in body and API_KEY not in body
    assert kinds(paying_app, lead_id).count("payout_rejected") == 1
    assert len(smtp_server.messages) == 1


def test_an_ach_return_after_the_purchase_is_told_and_never_moves_the_lead_back(
    paying_app, bank, smtp_server
):
    lead_id = deal_to_pay(paying_app, routing=ACH_BANK)
    payout_id = ask(paying_app, lead_id)
    approve(paying_app, lead_id, payout_id)
    assert state_of(paying_app, lead_id, payout_id) == ("bought", "paid")  # submitted: paid
    transfer_id = row_of(paying_app, payout_id)["transfer_id"]
    bank.advance(transfer_id, "returned", "no_account")
    deliver(paying_app, bank, bank.events[-1])
    assert state_of(paying_app, lead_id, payout_id) == ("bought", "returned")
    assert row_of(paying_app, payout_id)["reason"] == "no account"
    returned = [m for m in smtp_server.wait_for(2) if "returned" in m["Subject"]]
    assert len(returned) == 1 and "no account" in returned[0].get_body(("plain",)).get_content()


def test_a_500_at_creation_is_tried_again_and_one_transfer_is_made(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    bank.plan("create", 500)
    payout_id = ask(payout_app, lead_id)  # its job failed: nothing made
    assert row_of(payout_app, payout_id)["transfer_id"] is None and bank.made() == 0
    assert "payout_failed" in kinds(payout_app, lead_id)
    carry_on(payout_app, payout_id)
    assert row_of(payout_app, payout_id)["transfer_id"] and bank.made() == 1


def test_a_time_out_after_the_transfer_was_made_takes_that_one(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    bank.plan("create", "slow")
    payout_id = ask(payout_app, lead_id)
    assert row_of(payout_app, payout_id)["transfer_id"] is None  # the answer never came
    carry_on(payout_app, payout_id)
    made = [r for r in bank.requests if r["action"] == "create"]
    assert len(made) == 2 and len({r["key"] for r in made}) == 1 and bank.made() == 1
    assert row_of(payout_app, payout_id)["transfer_id"] in bank.transfers


def test_a_time_out_after_the_release_takes_the_transfer_as_released(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    bank.plan("approve", "slow")
    approve(payout_app, lead_id, payout_id)
    assert state_of(payout_app, lead_id, payout_id) == ("bought", "paid")
    assert bank.approved() == 1


def test_two_workers_at_once_make_one_transfer_and_release_it_once(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    bank.plan("create", 500, 500)  # neither the ask's job nor the approval's makes it
    payout_id = ask(payout_app, lead_id)
    approve(payout_app, lead_id, payout_id)
    assert row_of(payout_app, payout_id)["state"] == "approved" and bank.made() == 0
    barrier, done = threading.Barrier(2), []

    def worker():
        with payout_app.app_context():
            barrier.wait()
            try:
                done.append(transfers.carry_on(payout_id))
            except BankError as error:  # the loser's approve refused, its read said released
                done.append(str(error))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert bank.made() == 1 and bank.approved() == 1 and len(done) == 2
    with payout_app.app_context():
        queue.wait_until_idle(30)
    assert state_of(payout_app, lead_id, payout_id) == ("bought", "paid")


def test_a_refusal_at_creation_ends_the_payout_in_the_banks_words_without_the_number(
    paying_app, bank, smtp_server
):
    lead_id = deal_to_pay(paying_app)
    bank.plan("create", 400)
    payout_id = ask(paying_app, lead_id)
    row = row_of(paying_app, payout_id)
    assert row["state"] == "rejected" and "no open account" in row["reason"]
    assert ACCOUNT not in row["reason"]
    body = smtp_server.wait_for(1)[0].get_body(("plain",)).get_content()
    assert "no open account" in body and ACCOUNT not in body


def test_a_transfer_the_bank_holds_for_another_amount_is_never_released(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    bank.transfers[row_of(payout_app, payout_id)["transfer_id"]]["amount"] = 9_500_000
    approve(payout_app, lead_id, payout_id)
    row = row_of(payout_app, payout_id)
    assert (row["state"], row["reason"]) == (
        "canceled",
        "the bank's transfer is not for the amount approved",
    )
    assert bank.approved() == 0
    with payout_app.app_context():
        assert get_db().execute("SELECT state FROM leads").fetchone()[0] == "agreed"


def test_a_transfer_released_on_the_banks_own_site_before_its_approval_here_is_told(
    paying_app, bank, smtp_server
):
    lead_id = deal_to_pay(paying_app)
    payout_id = ask(paying_app, lead_id)
    transfer_id = row_of(paying_app, payout_id)["transfer_id"]
    bank.advance(transfer_id, "complete")  # someone approved it in the bank's dashboard
    for _ in range(2):
        deliver(paying_app, bank, bank.events[-1])
        paying_app.test_cli_runner().invoke(args=["payouts", "reconcile"])
    assert state_of(paying_app, lead_id, payout_id) == ("agreed", "asked")
    [told] = smtp_server.wait_for(1)
    assert "sent from the bank's own site before its second approval here" in told["Subject"]
    assert kinds(paying_app, lead_id).count("payout_released_elsewhere") == 1
    approve(paying_app, lead_id, payout_id)  # a second person looks, and approves it here
    assert state_of(paying_app, lead_id, payout_id) == ("bought", "paid")
    to_staff = [m for m in smtp_server.wait_for(2) if m["To"] == "desk@watches.example"]
    assert bank.approved() == 0 and len(to_staff) == 1
