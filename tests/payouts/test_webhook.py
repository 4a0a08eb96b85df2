"""`POST /webhooks/increase`: the bank's events verified on their raw bytes (current or previous
secret), stored once by id and answered at once; a job reads the transfer back from the bank's
API, never from the event, and moves the payout forward only. Forged, replayed and stale events
change nothing; a body too large or not an event is refused; the URL is off without a provider."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from app import queue
from app.leads.db import get_db
from app.payouts import ledger
from tests.payouts.fake_increase import sign
from tests.payouts.steps import PREVIOUS_SECRET, SECRET, deal_to_pay, payout_settings
from tests.payouts.test_two_people import approve, ask

URL = "/webhooks/increase"


def on_its_way(app, bank) -> tuple[int, dict]:
    """A lead whose payout the bank has released and not yet paid; (lead id, payout row)."""
    lead_id = deal_to_pay(app)
    payout_id = ask(app, lead_id)
    bank.plan("approve", "pending")
    approve(app, lead_id, payout_id)
    with app.app_context():
        row = ledger.get(payout_id)
    assert row["state"] == "released"
    return lead_id, row


def post(app, body: bytes, headers: dict):
    answer = app.test_client().post(URL, data=body, headers=headers)
    with app.app_context():
        queue.wait_until_idle(30)
    return answer


def deliver(app, bank, event: dict, secret: str = SECRET, at: datetime | None = None):
    return post(app, *bank.signed(event, secret, at))


def state_of(app, lead_id: int, payout_id: int) -> tuple[str, str]:
    with app.app_context():
        lead = get_db().execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()
        return lead[0], ledger.get(payout_id)["state"]


def stored_events(app) -> list[dict]:
    with app.app_context():
        return [dict(row) for row in get_db().execute("SELECT * FROM payout_events ORDER BY id")]


def test_a_verified_event_is_stored_and_the_transfer_read_back_moves_the_lead_to_bought(
    payout_app, bank
):
    lead_id, row = on_its_way(payout_app, bank)
    bank.settle(row["transfer_id"])
    answer = deliver(payout_app, bank, bank.events[-1])
    assert answer.status_code == 200 and answer.get_data(as_text=True) == "Stored.\n"
    assert state_of(payout_app, lead_id, row["id"]) == ("bought", "paid")
    [event] = stored_events(payout_app)
    assert event["outcome"].startswith(f"payout {row['id']}: moved to paid")
    reads = [r for r in bank.requests if r["action"] == "retrieve"]
    assert reads and reads[-1]["path"].endswith(row["transfer_id"])  # read back from the API


def test_the_previous_secret_is_taken_during_a_rotation(make_app, bank):
    app = make_app(**payout_settings(bank, INCREASE_WEBHOOK_SECRET_PREVIOUS=PREVIOUS_SECRET))
    lead_id, row = on_its_way(app, bank)
    bank.settle(row["transfer_id"])
    assert deliver(app, bank, bank.events[-1], PREVIOUS_SECRET).status_code == 200
    assert state_of(app, lead_id, row["id"]) == ("bought", "paid")


def test_an_event_is_never_trusted_for_the_transfers_state(payout_app, bank):
    lead_id, row = on_its_way(payout_app, bank)
    claimed = {"id": "event_forgedcomplete", "category": "real_time_payments_transfer.updated",
               "associated_object_id": row["transfer_id"], "status": "complete",
               "amount": 1}  # fmt: skip
    assert deliver(payout_app, bank, claimed).status_code == 200
    assert state_of(payout_app, lead_id, row["id"]) == ("agreed", "released")


def test_a_replayed_event_is_stored_once_and_changes_nothing(payout_app, bank):
    lead_id, row = on_its_way(payout_app, bank)
    bank.settle(row["transfer_id"])
    event = bank.events[-1]
    assert deliver(payout_app, bank, event).get_data(as_text=True) == "Stored.\n"
    again = deliver(payout_app, bank, event)
    assert again.status_code == 200 and again.get_data(as_text=True) == "Already stored.\n"
    assert len(stored_events(payout_app)) == 1
    with payout_app.app_context():
        bought = (
            get_db()
            .execute(
                "SELECT count(*) FROM lead_events WHERE kind = 'state_changed' "
                "AND json_extract(data, '$.to') = 'bought'"
            )
            .fetchone()[0]
        )
    assert bought == 1


def odd_header(bank, event: dict, name: str, change) -> tuple[bytes, dict]:
    """The event signed as the bank signs it, one of its headers then changed (a byte beyond
    ASCII, as a raw header line carries it; a value of the wrong shape)."""
    body, headers = bank.signed(event, SECRET)
    return body, headers | {name: change(headers[name])}


@pytest.mark.parametrize(
    "forge",
    [
        lambda bank, event: bank.signed(event, "whsec-not-ours"),
        lambda bank, event: bank.signed(event, SECRET, datetime.now(UTC) - timedelta(minutes=10)),
        lambda bank, event: (json.dumps(event).encode(), {"Content-Type": "application/json"}),
        lambda bank, event: odd_header(bank, event, "webhook-signature", lambda v: v[:-1] + "\xe9"),
        lambda bank, event: odd_header(bank, event, "webhook-signature", lambda v: "v1"),
        lambda bank, event: odd_header(bank, event, "webhook-timestamp", lambda v: "nan"),
    ],
    ids=["forged", "stale", "unsigned", "non-ascii", "no-comma", "no-time"],
)
def test_a_forged_stale_or_unsigned_event_is_refused_and_changes_nothing(payout_app, bank, forge):
    lead_id, row = on_its_way(payout_app, bank)
    bank.settle(row["transfer_id"])
    answer = post(payout_app, *forge(bank, bank.events[-1]))
    assert answer.status_code == 401
    assert stored_events(payout_app) == []
    assert state_of(payout_app, lead_id, row["id"]) == ("agreed", "released")


def test_a_body_over_the_limit_is_refused_unread(payout_app, bank):
    body = b"{" + b" " * (64 * 1024) + b"}"
    answer = post(payout_app, body, sign(SECRET, body, "msg_big"))
    assert answer.status_code == 413 and stored_events(payout_app) == []


def test_a_signed_body_that_is_not_an_event_is_a_400(payout_app, bank):
    body = b'{"hello": "world"}'
    assert post(payout_app, body, sign(SECRET, body, "msg_odd")).status_code == 400


def test_an_event_about_someone_elses_transfer_is_recorded_and_left(payout_app, bank):
    event = {"id": "event_other01", "category": "ach_transfer.updated",
             "associated_object_id": "ach_transfer_notours"}  # fmt: skip
    assert deliver(payout_app, bank, event).status_code == 200
    assert stored_events(payout_app)[0]["outcome"] == "not one of our payouts"


def test_the_webhook_does_not_exist_without_a_provider(app, bank):
    body, headers = bank.signed({"id": "event_x", "category": "x"}, SECRET)
    assert app.test_client().post(URL, data=body, headers=headers).status_code == 404
