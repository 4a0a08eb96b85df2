"""Staff's e-mails about a payout are claimed before they are sent, as every e-mail promised once
is (worker/mail.py's send_once): two runners at once send one."""

from __future__ import annotations

import pytest

from app.leads import history
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
