"""The bank API's adapter against the local fake: a routing number's rails, a transfer created
needing approval once per idempotency key (a time-out after it was made included), the bank's
refusals in its own words without the seller's account number, and the bank's events verified
on their raw bytes with the current or the previous secret, never when stale or forged."""

from __future__ import annotations

import json
import traceback
from datetime import UTC, datetime, timedelta

import pytest

from app.payouts import increase_api
from app.payouts.increase_api import BankError, NotAnEvent, Order, Unverified
from tests.payouts.fake_increase import ACCOUNT_ID, sign
from tests.payouts.steps import (
    ACCOUNT,
    ACH_BANK,
    API_KEY,
    FEDNOW_BANK,
    INSTANT_BANK,
    PREVIOUS_SECRET,
    SECRET,
    payout_settings,
)

ORDER = Order(
    amount_cents=950_000,
    routing_number=INSTANT_BANK,
    account_number=ACCOUNT,
    creditor_name="Jordan Avery",
    debtor_name="US Watch Buyers LLC",
    note="US Watch Buyers USWB-7K3F9Q",
)


@pytest.mark.parametrize(
    ("routing", "rails"),
    [
        (INSTANT_BANK, {"rtp", "fednow", "ach", "wire"}),
        (FEDNOW_BANK, {"fednow", "ach", "wire"}),
        (ACH_BANK, {"ach", "wire"}),
    ],
)
def test_a_routing_number_says_which_rails_its_bank_takes(payout_app, bank, routing, rails):
    with payout_app.app_context():
        found = increase_api.routing(routing)
    assert found.rails == rails and found.bank
    assert bank.requests[0]["authorization"] == f"Bearer {API_KEY}"


def test_a_routing_number_the_bank_does_not_know_is_none(payout_app, bank):
    with payout_app.app_context():
        assert increase_api.routing("122105278") is None


@pytest.mark.parametrize("rail", ["rtp", "fednow", "ach", "wire"])
def test_a_transfer_is_created_needing_approval_and_once_per_key(payout_app, bank, rail):
    with payout_app.app_context():
        first = increase_api.create_transfer(rail, ORDER, "uswb-payout-3-17-1")
        again = increase_api.create_transfer(rail, ORDER, "uswb-payout-3-17-1")
    assert first == again and first.stage == "waiting" and first.amount_cents == 950_000
    assert bank.made() == 1
    sent = [request for request in bank.requests if request["action"] == "create"]
    assert {request["key"] for request in sent} == {"uswb-payout-3-17-1"}
    assert sent[0]["body"]["require_approval"] is True and sent[0]["body"]["amount"] == 950_000
    assert ACCOUNT not in repr(first)


def test_ach_and_wire_name_the_account_behind_the_account_number(payout_app, bank):
    with payout_app.app_context():
        increase_api.create_transfer("ach", ORDER, "uswb-payout-4-20-1")
        increase_api.create_transfer("wire", ORDER, "uswb-payout-5-21-1")
    creates = [request["body"] for request in bank.requests if request["action"] == "create"]
    assert [body["account_id"] for body in creates] == [ACCOUNT_ID, ACCOUNT_ID]
    assert creates[0]["preferred_effective_date"] == {"settlement_schedule": "same_day"}
    assert [r["action"] for r in bank.requests].count("account") == 1  # read once per app


def test_a_time_out_after_the_transfer_was_made_takes_it_on_the_next_try(payout_app, bank):
    bank.plan("create", "slow")
    with payout_app.app_context():
        with pytest.raises(BankError, match="could not create the transfer"):
            increase_api.create_transfer("rtp", ORDER, "uswb-payout-6-22-1")
        taken = increase_api.create_transfer("rtp", ORDER, "uswb-payout-6-22-1")
    assert bank.made() == 1 and taken.stage == "waiting"


def test_the_same_key_with_another_amount_is_refused_not_paid_twice(payout_app, bank):
    with payout_app.app_context():
        increase_api.create_transfer("rtp", ORDER, "uswb-payout-7-23-1")
        other = Order(**vars(ORDER) | {"amount_cents": 9_500_000})
        with pytest.raises(BankError) as refused:
            increase_api.create_transfer("rtp", other, "uswb-payout-7-23-1")
    assert refused.value.status == 409 and bank.made() == 1


def test_a_500_comes_back_with_its_status_and_makes_nothing(payout_app, bank):
    bank.plan("create", 500)
    with payout_app.app_context(), pytest.raises(BankError, match="went wrong") as failed:
        increase_api.create_transfer("rtp", ORDER, "uswb-payout-8-24-1")
    assert failed.value.status == 500 and bank.made() == 0


def test_a_refusal_is_in_the_banks_words_without_the_sellers_account_number(payout_app, bank):
    bank.plan("create", 400)
    with payout_app.app_context(), pytest.raises(BankError) as refused:
        increase_api.create_transfer("rtp", ORDER, "uswb-payout-9-25-1")
    assert refused.value.status == 400
    assert "no open account with this number" in str(refused.value)
    assert ACCOUNT not in str(refused.value) and "[the seller's number]" in str(refused.value)
    logged = "".join(traceback.format_exception(refused.value))  # as logger.exception writes it
    assert ACCOUNT not in logged and API_KEY not in logged


def test_approving_releases_the_transfer_and_reading_it_says_it_is_paid(payout_app, bank):
    with payout_app.app_context():
        made = increase_api.create_transfer("rtp", ORDER, "uswb-payout-10-26-1")
        increase_api.approve_transfer("rtp", made.id)
        paid = increase_api.retrieve_transfer("rtp", made.id)
    assert paid.stage == "paid" and paid.reference and paid.paid_at
    assert bank.approved() == 1


def test_a_rejection_and_a_return_carry_the_banks_reason(payout_app, bank):
    bank.plan("approve", "rejected")
    with payout_app.app_context():
        rtp = increase_api.create_transfer("rtp", ORDER, "uswb-payout-11-27-1")
        increase_api.approve_transfer("rtp", rtp.id)
        ach = increase_api.create_transfer("ach", ORDER, "uswb-payout-12-28-1")
        increase_api.approve_transfer("ach", ach.id)
        bank.advance(ach.id, "returned", "no_account")
        rejected = increase_api.retrieve_transfer("rtp", rtp.id)
        returned = increase_api.retrieve_transfer("ach", ach.id)
    assert (rejected.stage, rejected.reason) == ("rejected", "account closed")
    assert (returned.stage, returned.reason) == ("returned", "no account")


def test_cancelling_calls_off_a_transfer_waiting_for_approval(payout_app, bank):
    with payout_app.app_context():
        made = increase_api.create_transfer("fednow", ORDER, "uswb-payout-13-29-1")
        assert increase_api.cancel_transfer("fednow", made.id).stage == "canceled"
        with pytest.raises(BankError) as refused:
            increase_api.approve_transfer("fednow", made.id)
    assert refused.value.status == 409 and bank.approved() == 0


EVENT = {
    "id": "event_001hq",
    "type": "event",
    "created_at": "2026-11-28T14:32:05Z",
    "category": "real_time_payments_transfer.updated",
    "associated_object_type": "real_time_payments_transfer",
    "associated_object_id": "real_time_payments_transfer_000042fk",
}


@pytest.mark.parametrize("secret", [SECRET, PREVIOUS_SECRET], ids=["current", "previous"])
def test_an_event_signed_with_the_current_or_previous_secret_is_verified(make_app, bank, secret):
    app = make_app(**payout_settings(bank, INCREASE_WEBHOOK_SECRET_PREVIOUS=PREVIOUS_SECRET))
    body, headers = bank.signed(EVENT, secret)
    with app.app_context():
        event = increase_api.verified_event(body, headers)
    assert event == {
        "id": "event_001hq",
        "category": "real_time_payments_transfer.updated",
        "object_id": "real_time_payments_transfer_000042fk",
    }


@pytest.mark.parametrize(
    "forge",
    [
        lambda bank: bank.signed(EVENT, "whsec-someone-else"),
        lambda bank: bank.signed(EVENT, SECRET, datetime.now(UTC) - timedelta(minutes=6)),
        lambda bank: (bank.signed(EVENT, SECRET)[0].replace(b"000042", b"000043"),
                      bank.signed(EVENT, SECRET)[1]),
        lambda bank: (json.dumps(EVENT).encode(), {"Content-Type": "application/json"}),
        lambda bank: (b"\xff\xfe", bank.signed(EVENT, SECRET)[1]),
    ],
    ids=["another-secret", "six-minutes-old", "body-altered", "unsigned", "not-text"],
)  # fmt: skip
def test_a_forged_stale_or_unsigned_event_is_not_verified(payout_app, bank, forge):
    body, headers = forge(bank)
    with payout_app.app_context(), pytest.raises(Unverified):
        increase_api.verified_event(body, headers)


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'{"id": 5, "category": "x"}'])
def test_a_signed_body_that_is_not_an_event_is_refused_as_such(payout_app, bank, body):
    headers = sign(SECRET, body, "msg_x")
    with payout_app.app_context(), pytest.raises(NotAnEvent):
        increase_api.verified_event(body, headers)
