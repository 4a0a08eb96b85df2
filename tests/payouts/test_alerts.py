"""Staff's e-mails about a payout are claimed before they are sent, as every e-mail promised once
is (worker/mail.py's send_once): two runners at once send one; a payout the bank keeps failing,
tried again by the sweep on its schedule, is told once."""

from __future__ import annotations

import pytest

from app import queue
from app.leads import history
from app.payouts.increase_api import BankError
from tests.payouts.steps import deal_to_pay, payout_settings
from tests.payouts.test_two_people import ask
from tests.worker.test_two_runners import race, to
from worker import payout_jobs

STAFF = "desk@watches.example"


@pytest.fixture
def paying_app(make_app, bank, mail_settings):
    """Payouts through the fake bank, staff e-mailed at the loopback SMTP server."""
    return make_app(**payout_settings(bank), **mail_settings, STAFF_EMAIL=STAFF)


def refused_payout(app) -> tuple[int, int]:
    """A payout asked for, then refused by the seller's bank with its staff e-mail not sent yet
    (its job lost): its lead and the refusal's event."""
    lead_id = deal_to_pay(app)
    payout_id = ask(app, lead_id)
    with app.app_context():
        details = {"payout": payout_id, "rail": "rtp", "reason": "account closed"}
        return lead_id, history.add_event(lead_id, "system", "payout_rejected", details)


def test_two_runners_at_once_send_staff_one_e_mail_about_a_payout(
    paying_app, bank, smtp_server, monkeypatch
):
    lead_id, event_id = refused_payout(paying_app)
    answers = race(
        paying_app, monkeypatch, history, "email_sent", payout_jobs.alert_payout, lead_id, event_id
    )
    assert sorted(answers) == ["already claimed", "sent"]
    assert len(to(smtp_server, STAFF, "The seller's bank did not accept the payout")) == 1
    with paying_app.app_context():
        assert history.email_sent(event_id, kind="staff_alerted")


def test_staff_are_told_once_that_the_bank_failed_a_payout_however_often_it_is_tried_again(
    paying_app, bank, smtp_server
):
    lead_id = deal_to_pay(paying_app)
    bank.plan("create", 500, 500, 500)  # the ask's job, then two runs of the sweep on its schedule
    payout_id = ask(paying_app, lead_id)
    for _ in range(2):
        with paying_app.app_context(), pytest.raises(BankError):
            payout_jobs.send_payout(payout_id)
    with paying_app.app_context():
        failed = [e for e in history.lead_events(lead_id) if e["kind"] == "payout_failed"]
        queue.wait_until_idle(30)
    assert len(failed) == 3 and [bool(e["data"].get("alert")) for e in failed] == [
        True,
        False,
        False,
    ]
    assert len(to(smtp_server, STAFF, "The bank API failed the payout after every retry")) == 1
