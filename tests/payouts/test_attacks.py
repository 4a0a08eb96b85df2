"""Attacks on the payout, written with it: a leaked status link cannot change the account (nor
call the sale off under a payout on its way) once a payout is asked; amounts are integer cents
from the offer to the bank; and neither the bank's key nor the seller's account or routing
number reaches a log, a staff or seller page, an e-mail, the timeline or a job's arguments,
refusals and failures included. (Asking and approving by one person, forged, replayed and
stale events, one transfer however often it is asked, and the daily limit: test_two_people.py,
test_webhook.py, test_bank_answers.py.)"""

from __future__ import annotations

import logging
from html import unescape
from pathlib import Path

import pytest

from app import queue
from app.leads import history
from app.leads.db import get_db, transaction
from app.payouts import ledger
from app.sale.purchase import record
from tests.data.paperwork import ACCOUNT, ROUTING, agreed_lead, post_paperwork
from tests.helpers import CLEAR_CHECK, Staff, business_today
from tests.payouts.steps import API_KEY, payout_settings
from tests.payouts.test_two_people import approve, ask

THEIRS = "770011223344"  # the account whoever holds a leaked link would like paid


def signed_deal(app) -> tuple[int, str]:
    """A lead whose seller signed the paperwork on the status page (account ACCOUNT at
    ROUTING) and confirmed it from their mailbox, its ID checked and the register clear
    today; its id and status token."""
    lead_id, token = agreed_lead(app)
    answer = post_paperwork(app.test_client(), token)
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, CLEAR_CHECK | {
            "register_checked_on": business_today().isoformat(),
            "payout_confirmed_at": "2026-11-28T15:00:00+00:00",
            "payout_confirmed_by": "seller",
            "id_verified_by": "staff:9",
            "id_verified_at": "2026-11-28T15:05:00+00:00",
        })  # fmt: skip
    return lead_id, token


def account_on_record(app, lead_id: int) -> str:
    with app.app_context():
        return record.opened(record.get(lead_id), "account_number_enc")


def test_a_leaked_status_link_cannot_change_the_account_once_a_payout_is_asked(payout_app, bank):
    lead_id, token = signed_deal(payout_app)
    payout_id = ask(payout_app, lead_id)
    theirs = {"account_number": THEIRS, "account_number_again": THEIRS,
              "account_holder": "Someone Else"}  # fmt: skip
    client = payout_app.test_client()
    assert post_paperwork(client, token, theirs).status_code == 303
    told = unescape(client.get(f"/status/{token}").get_data(as_text=True))
    assert "Your paperwork is already signed, so nothing was changed." in told
    assert account_on_record(payout_app, lead_id) == ACCOUNT
    approve(payout_app, lead_id, payout_id)
    [created] = [r["body"] for r in bank.requests if r["action"] == "create"]
    assert created["account_number"] == ACCOUNT and created["routing_number"] == ROUTING
    assert created["creditor_name"] == "Jordan Avery"
    with payout_app.app_context():
        assert ledger.get(payout_id)["state"] == "paid"


def test_a_leaked_status_link_cannot_call_the_sale_off_under_a_payout_on_its_way(payout_app, bank):
    lead_id, token = signed_deal(payout_app)
    payout_id = ask(payout_app, lead_id)
    bank.plan("approve", "pending")
    approve(payout_app, lead_id, payout_id)
    client = payout_app.test_client()
    page = client.get(f"/status/{token}").get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    answer = client.post(f"/status/{token}/withdraw", data={"csrf_token": csrf, "confirm": "yes"})
    assert answer.status_code == 303
    told = unescape(client.get(f"/status/{token}").get_data(as_text=True))
    assert "Your sale has moved on since this page was opened" in told
    with payout_app.app_context():
        assert get_db().execute("SELECT state FROM leads").fetchone()[0] == "agreed"
        assert ledger.get(payout_id)["state"] == "released"


def test_amounts_are_integer_cents_from_the_offer_to_the_bank(payout_app, bank):
    lead_id, _ = signed_deal(payout_app)  # a final offer of $7,400
    payout_id = ask(payout_app, lead_id)
    approve(payout_app, lead_id, payout_id)
    sent = [r["body"]["amount"] for r in bank.requests if r["action"] == "create"]
    assert sent == [740_000] and all(type(amount) is int for amount in sent)
    with payout_app.app_context():
        kinds = (
            get_db()
            .execute(
                "SELECT typeof(amount_cents) FROM payouts UNION ALL "
                "SELECT typeof(paid_amount) FROM purchases"
            )
            .fetchall()
        )
    assert [row[0] for row in kinds] == ["integer", "integer"]
    sources = Path(__file__).parents[2] / "app" / "payouts"
    for path in sources.glob("*.py"):
        assert "float(" not in path.read_text(), path.name


@pytest.fixture
def watched_app(make_app, bank, mail_settings):
    return make_app(**payout_settings(bank), **mail_settings, STAFF_EMAIL="desk@watches.example")


def test_the_key_and_the_bank_numbers_are_in_no_log_page_e_mail_or_timeline(
    watched_app, bank, smtp_server, caplog, clock
):
    caplog.set_level(logging.DEBUG)
    app = watched_app
    (first, token), (second, _), (third, _) = (signed_deal(app) for _ in range(3))
    bank.plan("create", 400)  # refused in words that echo the number
    ask(app, first)
    approve(app, second, ask(app, second))
    bank.plan("create", 500)  # failed: logged, on the timeline, staff told
    ask(app, third)
    with app.app_context():
        queue.wait_until_idle(30)
    seen = [record.getMessage() for record in caplog.records]
    seen += [m.as_string() for m in smtp_server.wait_for(3, timeout=60)]
    staff, staff_client = Staff(app, app.test_cli_runner(), clock), app.test_client()
    staff.sign_in(staff_client, staff.account("kit@example.com", "Kit Moreno"))
    for lead_id in (first, second, third):
        for path in (f"/staff/leads/{lead_id}", f"/staff/leads/{lead_id}/paperwork"):
            seen.append(staff_client.get(path).get_data(as_text=True))
    seen.append(app.test_client().get(f"/status/{token}").get_data(as_text=True))
    with app.app_context():
        for lead_id in (first, second, third):
            seen += [str(event["data"]) for event in history.lead_events(lead_id)]
        seen += [str(dict(row)) for row in get_db().execute("SELECT * FROM payouts")]
        seen += [str(dict(row)) for row in get_db().execute("SELECT * FROM payout_events")]
    assert len(seen) > 10
    for secret in (API_KEY, ACCOUNT, ROUTING):
        leaked = [text[:200] for text in seen if secret in text]
        assert leaked == [], secret
