"""The payout's two steps on the lead's page, as staff take them: the page shows the payout in
words with its rail before anyone asks, one staff member asks (both factors recently), the same
one is refused approving it, a second approves and the bank pays; Mark bought is gone, and the
seller's full account number is on no page. With PAYOUT_PROVIDER unset the lead page is as it
always was and the payout's URLs do not exist."""

from __future__ import annotations

import re
from html import unescape

from app import queue
from app.leads.db import get_db, transaction
from app.sale.purchase import record
from tests.helpers import Staff
from tests.payouts.steps import ACCOUNT, API_KEY, deal_to_pay, payout_settings
from tests.sale.purchase.fake_register import register, register_server, register_settings  # noqa: F401
from tests.sale.purchase.register_steps import answer_at_once

ASK_WORDS = (
    "Pay $9,500.00 to the account ending 5566 by instant transfer (RTP), at JPMORGAN CHASE BANK, NA"
)


def page(client, lead_id: int) -> str:
    answer = client.get(f"/staff/leads/{lead_id}")
    assert answer.status_code == 200
    return unescape(answer.get_data(as_text=True))


def hidden_fields(html: str, marker: str) -> dict:
    """The hidden inputs of the form marked `marker`, as a browser would send them."""
    form = re.search(rf"<form[^>]*{marker}.*?</form>", html, re.S).group(0)
    return dict(re.findall(r'name="([^"]+)" type="hidden" value="([^"]*)"', form))


def ask(client, lead_id: int):
    fields = hidden_fields(page(client, lead_id), "data-payout-ask")
    return client.post(f"/staff/leads/{lead_id}/payout", data=fields)


def approve(client, lead_id: int, payout_id: int = 1):
    token = re.search(r'csrf_token" type="hidden" value="([^"]+)"', page(client, lead_id))
    path = f"/staff/leads/{lead_id}/payouts/{payout_id}/approve"
    return client.post(path, data={"approve_payout-csrf_token": token.group(1)})


def finish(app) -> None:
    with app.app_context():
        queue.wait_until_idle(30)


def audit_actions(app) -> list[str]:
    with app.app_context():
        return [row[0] for row in get_db().execute("SELECT action FROM audit ORDER BY id")]


def test_the_page_shows_the_payout_with_its_rail_before_anyone_asks(payout_app, bank, ana):
    lead_id = deal_to_pay(payout_app)
    html = page(ana, lead_id)
    assert ASK_WORDS in html and "Ask for this payout" in html
    assert "Mark bought" not in html and 'name="bought-amount"' not in html
    assert ACCOUNT not in html and API_KEY not in html
    assert [r["action"] for r in bank.requests] == ["routing"]  # looked up, nothing created


def test_the_page_of_a_deal_on_a_register_check_too_old_asks_the_register_and_then_offers_the_ask(
    make_app, bank, register, clock, monkeypatch
):
    app = make_app(**payout_settings(bank), **register_settings(register))
    staff = Staff(app, app.test_cli_runner(), clock)
    client = app.test_client()
    staff.sign_in(client, staff.account("ana@example.com", "Ana Lima"))
    lead_id = deal_to_pay(app)
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, {"register_checked_on": "2026-09-01"})
    answer_at_once(monkeypatch)
    assert ASK_WORDS in page(client, lead_id) and "Ask for this payout" in page(client, lead_id)
    assert [search["body"]["serial_number"] for search in register.searches()] == ["7Z41K9Q2"]


def test_one_asks_the_same_one_is_refused_approving_another_approves_and_the_bank_pays(
    payout_app, bank, ana, ben
):
    lead_id = deal_to_pay(payout_app)
    answer = ask(ana, lead_id)
    assert answer.status_code == 303
    finish(payout_app)
    asked = page(ana, lead_id)
    assert "Payout asked for and recorded with your name" in asked
    assert "Waiting for another staff member to approve it" in asked
    assert "Approve: the bank sends it" not in asked and bank.made() == 1
    refused = approve(ana, lead_id)
    assert refused.status_code == 303 and bank.approved() == 0
    assert "You asked for this payout, so another staff member must approve it" in page(
        ana, lead_id
    )
    assert "Approve: the bank sends it" in page(ben, lead_id)
    assert approve(ben, lead_id).status_code == 303
    finish(payout_app)
    paid = page(ben, lead_id)
    assert "Bought" in paid and "Paid" in paid and bank.approved() == 1
    assert "Ben Ortiz" in paid and "Ana Lima" in paid
    actions = audit_actions(payout_app)
    assert {"payout_asked", "payout_approval_refused", "payout_approved"} <= set(actions)
    for html in (asked, paid, page(ana, lead_id)):
        assert ACCOUNT not in html and API_KEY not in html


def test_asking_needs_both_factors_again_recently(payout_app, bank, staff, ana):
    lead_id = deal_to_pay(payout_app)
    fields = hidden_fields(page(ana, lead_id), "data-payout-ask")
    staff.backdate_sessions("verified_at", 60)
    answer = ana.post(f"/staff/leads/{lead_id}/payout", data=fields)
    assert answer.status_code == 303 and "/staff/confirm" in answer.headers["Location"]
    finish(payout_app)
    with payout_app.app_context():
        assert get_db().execute("SELECT count(*) FROM payouts").fetchone()[0] == 0
    assert bank.made() == 0


def test_the_full_paperwork_shows_the_bank_numbers_by_their_last_4_only(payout_app, bank, ana):
    lead_id = deal_to_pay(payout_app)
    html = unescape(ana.get(f"/staff/leads/{lead_id}/paperwork").get_data(as_text=True))
    assert "Ending 5566, sent to the bank only" in html
    assert "On record, sent to the bank only" in html
    assert ACCOUNT not in html and "021000021" not in html


def test_without_a_provider_the_lead_page_is_as_it_was_and_the_urls_do_not_exist(make_app, clock):
    app = make_app()
    staff = Staff(app, app.test_cli_runner(), clock)
    client = app.test_client()
    staff.sign_in(client, staff.account())
    lead_id = deal_to_pay(app)
    html = page(client, lead_id)
    assert "Mark bought" in html and "Payout through the bank" not in html
    token = {"csrf_token": re.search(r'csrf_token" type="hidden" value="([^"]+)"', html).group(1)}
    assert client.post(f"/staff/leads/{lead_id}/payout", data=token).status_code == 404
    assert client.post(f"/staff/leads/{lead_id}/payouts/1/approve", data=token).status_code == 404
