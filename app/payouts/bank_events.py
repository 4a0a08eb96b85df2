"""The bank's events, as its webhook sends them: verified on the raw bytes by the bank's own
library (increase_api.verified_event: the current secret or, during a rotation, the previous
one, and never a delivery signed more than a few minutes ago, so a recorded one cannot be
replayed later), then stored once by the event's own id, since the bank delivers at least once
and in any order. An event only says which transfer changed: the job reads the transfer back
from the bank's API and moves its payout forward (transfers.carry_on), so a forged or replayed
body could at most make us ask the bank again."""

from __future__ import annotations

import json

from app.leads.db import get_db, now, transaction
from app.payouts import increase_api, ledger, transfers
from app.security.webhooks import Refused

# The events about transfers of the four rails a payout goes by.
TRANSFER_CATEGORIES = tuple(
    f"{kind}.{change}"
    for kind in ("real_time_payments_transfer", "fednow_transfer", "ach_transfer", "wire_transfer")
    for change in ("created", "updated")
)


def verified_event(body: bytes, headers) -> dict:
    """The event the body holds; Refused (401 unsigned, forged or stale; 400 signed but not an
    event)."""
    try:
        return increase_api.verified_event(body, headers)
    except increase_api.Unverified as error:
        raise Refused(401, str(error)) from None
    except increase_api.NotAnEvent as error:
        raise Refused(400, str(error)) from None


def store_event(event: dict) -> int | None:
    """Keep the event for its job; its row's id, or None if this event was stored before."""
    with transaction() as db:
        row = db.execute(
            "INSERT INTO payout_events (provider_event_id, category, object_id, body, "
            "received_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (provider_event_id) DO NOTHING RETURNING id",
            (event["id"], event["category"], event["object_id"], json.dumps(event), now()),
        ).fetchone()
    return row["id"] if row else None


def apply_event(event_id: int) -> str:
    """The stored event `event_id` applied: its transfer read back from the bank and its
    payout brought up to date (nothing for a transfer that is not ours); what it did, recorded
    once with the event."""
    row = get_db().execute("SELECT * FROM payout_events WHERE id = ?", (event_id,)).fetchone()
    if row is None:
        raise LookupError(f"Payout event {event_id} does not exist.")
    if row["processed_at"]:
        return f"already applied: {row['outcome']}"
    payout = ledger.by_transfer(row["object_id"]) if row["object_id"] else None
    if row["category"] not in TRANSFER_CATEGORIES:
        outcome = f"ignored: {row['category']}"
    elif payout is None:
        outcome = "not one of our payouts"
    else:
        outcome = f"payout {payout['id']}: {transfers.carry_on(payout['id'])}"
    with transaction() as db:
        db.execute(
            "UPDATE payout_events SET processed_at = ?, outcome = ? "
            "WHERE id = ? AND processed_at IS NULL",
            (now(), outcome[:300], event_id),
        )
    return outcome
