"""A payout is asked for by one staff member and approved by another, then released: the one
who asked (or who confirmed the account by a call-back) is refused by the code and the one who
asked by the database too; every item before `bought` must hold; the amount is the accepted
offer or one a second person approved, in integer cents; the rail comes from the routing
number; and the business's limits hold, exactly at their edges."""

from __future__ import annotations

import re
import sqlite3

import pytest

from app import queue
from app.leads.db import get_db, now, transaction
from app.payouts import ledger, readiness, two_people
from app.sale.purchase import approvals, record
from app.sale.purchase.authentication import Refused
from tests.payouts.steps import ACH_BANK, FEDNOW_BANK, deal_to_pay, payout_settings
from tests.sale.purchase.fake_register import register, register_server, register_settings  # noqa: F401
from tests.sale.purchase.register_steps import answer_at_once


def shown(app, lead_id: int) -> dict:
    """What the lead's page would show for the payout: its amount, rail and account."""
    with app.app_context():
        db = get_db()
        lead = dict(db.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone())
        purchase = record.get(lead_id)
        proposal = readiness.proposal(db, lead, purchase)
    assert proposal.problems == []
    return {"amount_cents": proposal.amount_cents, "rail": proposal.rail, "last4": proposal.last4}


def ask(app, lead_id: int, actor: str = "staff:1") -> int:
    with app.app_context():
        payout_id = two_people.ask(lead_id, actor, shown(app, lead_id))
        queue.wait_until_idle(30)
    return payout_id


def approve(app, lead_id: int, payout_id: int, actor: str = "staff:2") -> None:
    with app.app_context():
        two_people.approve(lead_id, payout_id, actor)
        queue.wait_until_idle(30)


def payout(app, payout_id: int) -> dict:
    with app.app_context():
        return ledger.get(payout_id)


def lead_state(app, lead_id: int) -> str:
    with app.app_context():
        return get_db().execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()[0]


def test_asking_creates_one_transfer_needing_approval_and_nothing_is_sent(payout_app, bank):
    lead_id = deal_to_pay(payout_app, 9500)
    payout_id = ask(payout_app, lead_id)
    row = payout(payout_app, payout_id)
    assert (row["state"], row["amount_cents"], row["rail"]) == ("asked", 950_000, "rtp")
    assert row["transfer_id"] and bank.made() == 1 and bank.approved() == 0
    created = next(r["body"] for r in bank.requests if r["action"] == "create")
    assert created["require_approval"] is True and created["amount"] == 950_000
    assert created["creditor_name"] == "Jordan Avery" and created["account_number"]
    with payout_app.app_context():
        reference = get_db().execute("SELECT reference FROM leads").fetchone()[0]
    assert row["idempotency_key"] == f"payout-{reference}-deal-{row['deal']}-try-1"
    assert lead_state(payout_app, lead_id) == "agreed"


def test_a_second_staff_member_approves_and_the_bank_pays_once(payout_app, bank):
    lead_id = deal_to_pay(payout_app, 9500)
    payout_id = ask(payout_app, lead_id)
    approve(payout_app, lead_id, payout_id)
    row = payout(payout_app, payout_id)
    assert row["state"] == "paid" and row["approved_by"] == "staff:2" and row["network_reference"]
    assert bank.approved() == 1 and bank.made() == 1
    assert lead_state(payout_app, lead_id) == "bought"
    with payout_app.app_context():
        bought = record.get(lead_id)
    assert (bought["paid_amount"], bought["payment_method"]) == (9500, "rtp")
    assert bought["bank_confirmation"] == row["network_reference"] and bought["paid_at"]


def test_the_one_who_asked_cannot_approve_nor_can_the_database_be_made_to(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id, "staff:1")
    with payout_app.app_context():
        with pytest.raises(Refused, match="You asked for this payout"):
            two_people.approve(lead_id, payout_id, "staff:1")
        with pytest.raises(sqlite3.IntegrityError), transaction() as db:
            db.execute(
                "UPDATE payouts SET state = 'approved', approved_by = 'staff:1', "
                "approved_at = ? WHERE id = ?",
                (now(), payout_id),
            )
    assert payout(payout_app, payout_id)["state"] == "asked" and bank.approved() == 0


def test_the_one_who_confirmed_the_account_by_call_back_cannot_approve(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    with payout_app.app_context(), transaction() as db:
        record.update(db, lead_id, {"payout_confirmed_by": "staff:2"})
    payout_id = ask(payout_app, lead_id, "staff:1")
    with payout_app.app_context(), pytest.raises(Refused, match="confirmed this account"):
        two_people.approve(lead_id, payout_id, "staff:2")
    approve(payout_app, lead_id, payout_id, "staff:3")
    assert payout(payout_app, payout_id)["state"] == "paid"


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE payouts SET amount_cents = 9500000",
        "UPDATE payouts SET rail = 'wire'",
        "UPDATE payouts SET asked_by = 'staff:9'",
        "UPDATE payouts SET state = 'released'",
        "UPDATE payouts SET transfer_id = 'real_time_payments_transfer_other'",
        "DELETE FROM payouts",
    ],
    ids=["amount", "rail", "asker", "released-unapproved", "other-transfer", "delete"],
)
def test_the_database_keeps_what_was_asked_and_moves_a_payout_forward_only(
    payout_app, bank, statement
):
    lead_id = deal_to_pay(payout_app)
    ask(payout_app, lead_id)
    with payout_app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
        db.execute(statement)


def test_a_paid_payout_is_never_moved_back(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    approve(payout_app, lead_id, payout_id)
    with payout_app.app_context():
        for state in ("asked", "approved", "released", "rejected", "canceled"):
            with pytest.raises(sqlite3.IntegrityError), transaction() as db:
                db.execute("UPDATE payouts SET state = ?", (state,))


def test_pressing_ask_three_times_records_one_payout_and_one_transfer(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    ask(payout_app, lead_id)
    with payout_app.app_context():
        for _ in range(2):
            with pytest.raises(Refused, match="already asked for or on its way"):
                two_people.ask(lead_id, "staff:1", shown_without_check(lead_id))
        count = get_db().execute("SELECT count(*) FROM payouts").fetchone()[0]
    assert count == 1 and bank.made() == 1


def shown_without_check(lead_id: int) -> dict:
    purchase = record.get(lead_id)
    return {"amount_cents": 950_000, "rail": "rtp", "last4": purchase["account_number_last4"]}


@pytest.mark.parametrize(
    ("routing", "amount", "wire_above", "rail"),
    [
        (FEDNOW_BANK, 9500, "0", "fednow"),
        (ACH_BANK, 9500, "0", "ach"),
        (ACH_BANK, 9500, "9500", "ach"),  # exactly at the setting: not above it
        (ACH_BANK, 9501, "9500", "wire"),
    ],
)
def test_the_rail_comes_from_the_sellers_routing_number(
    make_app, bank, routing, amount, wire_above, rail
):
    app = make_app(**payout_settings(bank, PAYOUT_WIRE_ABOVE=wire_above))
    lead_id = deal_to_pay(app, amount, routing=routing)
    payout_id = ask(app, lead_id)
    assert payout(app, payout_id)["rail"] == rail
    actions = [r["path"].split("?")[0] for r in bank.requests if r["action"] == "create"]
    assert actions == [{"fednow": "/fednow_transfers", "ach": "/ach_transfers",
                        "wire": "/wire_transfers"}[rail]]  # fmt: skip


def test_a_routing_number_the_banks_data_does_not_know_is_not_paid(payout_app, bank):
    lead_id = deal_to_pay(payout_app, routing="122105278")
    with payout_app.app_context():
        lead = dict(get_db().execute("SELECT * FROM leads").fetchone())
        proposal = readiness.proposal(get_db(), lead, record.get(lead_id))
    assert proposal.rail is None
    assert proposal.problems == [
        "The bank's data does not know the routing number ending 5278: call the seller to check it."
    ]


@pytest.mark.parametrize(("offer", "asked"), [(25000, True), (25001, False)])
def test_one_transfer_pays_at_most_payout_max_amount_exactly(payout_app, bank, offer, asked):
    lead_id = deal_to_pay(payout_app, offer)
    with payout_app.app_context():
        lead = dict(get_db().execute("SELECT * FROM leads").fetchone())
        problems = readiness.problems(get_db(), lead, record.get(lead_id), offer * 100)
    if asked:
        assert problems == []
    else:
        assert problems == [
            "$25,001.00 is above the most one transfer may pay, $25,000 (PAYOUT_MAX_AMOUNT): "
            "pay it from the bank's own site."
        ]


def test_the_days_limit_holds_across_payouts_exactly_at_its_edge(make_app, bank):
    app = make_app(**payout_settings(bank, PAYOUT_DAILY_LIMIT="20000"))
    first, second, third = (deal_to_pay(app, offer) for offer in (12000, 8000, 1))
    for lead_id in (first, second):  # $20,000 in all: exactly the limit
        approve(app, lead_id, ask(app, lead_id))
    with app.app_context():
        with pytest.raises(Refused, match=re.escape("come to $20,000.00: this one would take")):
            two_people.ask(third, "staff:1", shown_without_check(third) | {"amount_cents": 100})
        count = get_db().execute("SELECT count(*) FROM payouts").fetchone()[0]
    assert count == 2 and bank.approved() == 2


def test_two_approvals_at_once_cannot_pass_the_days_limit_together(make_app, bank):
    app = make_app(**payout_settings(bank, PAYOUT_DAILY_LIMIT="15000"))
    leads = [deal_to_pay(app, 9500), deal_to_pay(app, 5600)]
    payouts = [ask(app, lead_id) for lead_id in leads]  # each alone within the limit
    approve(app, leads[0], payouts[0])
    with app.app_context(), pytest.raises(Refused, match="above the day's limit of \\$15,000"):
        two_people.approve(leads[1], payouts[1], "staff:2")
    assert payout(app, payouts[1])["state"] == "asked" and bank.approved() == 1


def test_another_amount_is_paid_only_once_a_second_person_approved_it(payout_app, bank):
    lead_id = deal_to_pay(payout_app, 9500)
    with payout_app.app_context():
        approvals.ask(lead_id, approvals.PAYMENT_AMOUNT, "9100", "Bracelet link missing", "s:1")
        blocked = readiness.proposal(get_db(), dict(get_db().execute(
            "SELECT * FROM leads").fetchone()), record.get(lead_id))  # fmt: skip
        assert blocked.problems == [
            "An exception is waiting for its second person: decide it first."
        ]
        approvals.approve(lead_id, 1, "s:2")
    payout_id = ask(payout_app, lead_id)
    assert payout(payout_app, payout_id)["amount_cents"] == 910_000


def test_a_page_shown_before_the_amount_changed_asks_nothing(payout_app, bank):
    lead_id = deal_to_pay(payout_app, 9500)
    before = shown(payout_app, lead_id)
    with payout_app.app_context():
        approvals.ask(lead_id, approvals.PAYMENT_AMOUNT, "9100", "Bracelet link missing", "s:1")
        approvals.approve(lead_id, 1, "s:2")
        with pytest.raises(Refused, match="changed since this page was opened"):
            two_people.ask(lead_id, "staff:1", before)
        assert get_db().execute("SELECT count(*) FROM payouts").fetchone()[0] == 0
    assert bank.made() == 0


def test_a_register_check_recorded_by_hand_too_long_ago_is_not_paid_on(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    with payout_app.app_context():
        with transaction() as db:
            record.update(db, lead_id, {"register_checked_on": "2026-09-01"})
        lead = dict(get_db().execute("SELECT * FROM leads").fetchone())
        found = readiness.problems(get_db(), lead, record.get(lead_id), 950_000)
    assert found == ["The register check is older than 30 days: record a new one first."]


def test_nothing_is_asked_before_every_item_holds(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    with payout_app.app_context():
        with transaction() as db:
            record.update(db, lead_id, {"payout_confirmed_at": None, "payout_confirmed_by": None})
        with pytest.raises(Refused, match="confirmation of the payout account"):
            two_people.ask(lead_id, "staff:1", shown_without_check(lead_id))
    assert bank.made() == 0 and bank.requests == []


def test_a_register_check_by_api_too_old_to_pay_on_is_asked_again_and_the_ask_waits(
    make_app, bank, register
):
    app = make_app(**payout_settings(bank), **register_settings(register))
    lead_id = deal_to_pay(app)
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, {"register_checked_on": "2026-09-01"})
    with app.app_context():
        with pytest.raises(Refused, match="the register has been asked again"):
            two_people.ask(lead_id, "staff:1", shown_without_check(lead_id))
        queue.wait_until_idle(30)
        assert get_db().execute("SELECT count(*) FROM payouts").fetchone()[0] == 0
    assert [search["body"]["serial_number"] for search in register.searches()] == ["7Z41K9Q2"]
    payout_id = ask(app, lead_id)  # the register's fresh clear answer is on record now
    assert payout(app, payout_id)["state"] == "asked"


def test_a_register_answer_in_at_once_still_makes_the_ask_wait_for_another_press(
    make_app, bank, register, monkeypatch
):
    app = make_app(**payout_settings(bank), **register_settings(register))
    lead_id = deal_to_pay(app)
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, {"register_checked_on": "2026-09-01"})
    answer_at_once(monkeypatch)
    with app.app_context():
        with pytest.raises(Refused, match="the register has been asked again"):
            two_people.ask(lead_id, "staff:1", shown_without_check(lead_id))
        assert record.get(lead_id)["register_result"] == "clear"  # in before the ask was checked
        assert get_db().execute("SELECT count(*) FROM payouts").fetchone()[0] == 0
