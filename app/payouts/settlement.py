"""What the bank says of a payout's transfer, read back from its API (never from an event's
body), applied to the payout: forward only, by conditional UPDATEs the database also holds to,
each move on the lead's timeline.

A transfer the bank sent while its payout still waits for its second person here (approved on
the bank's own site) is recorded as nothing but that, and staff are told to find out who.
Paid (complete; an ACH transfer once submitted, on the day): the lead moves to `bought` through
`lifecycle.transition`, carrying the amount, the rail, the time and the network's own reference
as the confirmation, so the receipt, the bill of sale and the seller's e-mail follow as for any
purchase. Rejected or cancelled by the bank: the lead stays `agreed`, staff are e-mailed once
with the bank's reason, and the seller's page says their bank did not accept the transfer. A
return after payment is put on the timeline and e-mailed to staff; the lead is never moved back.
"""

from __future__ import annotations

import json

from flask import current_app

from app import queue
from app.leads import history
from app.leads.db import immediate_transaction, now
from app.leads.display import business_day
from app.leads.history import append_event
from app.leads.state import State
from app.payouts import ledger
from app.payouts.increase_api import Transfer
from app.payouts.ledger import PayoutState
from app.sale import lifecycle

# The bank's stage, the payout's state it moves to, from which states, and the timeline's word.
MOVES = {
    "paid": (PayoutState.PAID, (PayoutState.RELEASED,), "payout_paid"),
    "rejected": (PayoutState.REJECTED, (PayoutState.ASKED, PayoutState.APPROVED,
                                        PayoutState.RELEASED), "payout_rejected"),
    "canceled": (PayoutState.CANCELED, (PayoutState.ASKED, PayoutState.APPROVED,
                                        PayoutState.RELEASED), "payout_canceled"),
    "returned": (PayoutState.RETURNED, (PayoutState.RELEASED, PayoutState.PAID),
                 "payout_returned"),
}  # fmt: skip
ALERTED = ("payout_rejected", "payout_canceled", "payout_returned")  # staff e-mailed once


def apply(row: dict, transfer: Transfer) -> str:
    """Bring the payout up to what the bank says of its transfer; what it did."""
    if transfer.amount_cents != row["amount_cents"]:
        current_app.logger.error("Payout %s: the bank's transfer is for another amount.", row["id"])
        return "the bank's transfer is for another amount: left for staff"
    if row["state"] == PayoutState.ASKED and transfer.stage in ("sending", "paid", "returned"):
        return released_elsewhere(row, transfer)
    if row["state"] == PayoutState.APPROVED and transfer.stage != "waiting":
        mark_released(row, transfer)  # released at the bank by a try that did not record it
        row = row | {"state": PayoutState.RELEASED}
    if transfer.stage not in MOVES:
        note_status(row, transfer)
        return f"stays {row['state']} ({transfer.status})"
    moved = move(row, transfer)
    outcome = f"moved to {MOVES[transfer.stage][0]}" if moved else f"stays {row['state']}"
    if transfer.stage == "paid" and (moved or row["state"] == PayoutState.PAID):
        # again, if it was refused before
        return f"{outcome}; {record_purchase(ledger.get(row['id']), transfer)}"
    return outcome


def paid(transfer: Transfer) -> dict:
    """What a paid transfer puts on its payout: when, and the network's reference."""
    return {"paid_at": transfer.paid_at or now(), "network_reference": transfer.reference}


def released_elsewhere(row: dict, transfer: Transfer) -> str:
    """A transfer the bank sent while its payout still waits for a second person here (someone
    approved it on the bank's own site): nothing is recorded as paid, and staff are told once,
    to find out who; a second staff member's approval here then puts the payment on record."""
    note_status(row, transfer)
    told = any(
        event["kind"] == "payout_released_elsewhere" and event["data"].get("payout") == row["id"]
        for event in history.lead_events(row["lead_id"])
    )
    if not told:
        details = {"payout": row["id"], "rail": row["rail"], "reason": transfer.status}
        event_id = history.add_event(row["lead_id"], "system", "payout_released_elsewhere", details)
        queue.enqueue(queue.ALERT_PAYOUT, row["lead_id"], event_id)
    return f"released at the bank before its approval here ({transfer.status}): staff told"


def note_status(row: dict, transfer: Transfer) -> None:
    """Keep the bank's status of a transfer still on its way (for staff to read)."""
    with immediate_transaction() as db:
        db.execute(
            "UPDATE payouts SET bank_status = ?, updated_at = ? WHERE id = ?",
            (transfer.status, now(), row["id"]),
        )


def mark_released(row: dict, transfer: Transfer) -> bool:
    """The approved payout released at the bank: on the timeline, once."""
    with immediate_transaction() as db:
        moved = db.execute(
            "UPDATE payouts SET state = ?, released_at = ?, bank_status = ?, updated_at = ? "
            "WHERE id = ? AND state = ?",
            (PayoutState.RELEASED, now(), transfer.status, now(), row["id"],
             PayoutState.APPROVED),
        ).rowcount  # fmt: skip
        if moved:
            details = {"payout": row["id"], "rail": row["rail"]}
            append_event(db, row["lead_id"], "system", "payout_released", details)
    return bool(moved)


def move(row: dict, transfer: Transfer) -> bool:
    """The payout moved to the state the bank's stage means, from the states before it only,
    with the event that says so (and staff's alert queued for a refusal or a return)."""
    state, before, kind = MOVES[transfer.stage]
    values = {"state": state, "bank_status": transfer.status, "reason": transfer.reason,
              "at": now(), "id": row["id"], "before": json.dumps(before)}  # fmt: skip
    values |= paid(transfer)
    with immediate_transaction() as db:
        moved = db.execute(
            "UPDATE payouts SET state = :state, bank_status = :bank_status, updated_at = :at, "
            "reason = coalesce(:reason, reason), "
            "paid_at = CASE WHEN :state = 'paid' THEN :paid_at ELSE paid_at END, "
            "network_reference = coalesce(network_reference, :network_reference) "
            "WHERE id = :id AND state IN (SELECT value FROM json_each(:before))",
            values,
        ).rowcount
        event_id = None
        if moved:
            details = {"payout": row["id"], "rail": row["rail"], "reason": transfer.reason}
            event_id = append_event(db, row["lead_id"], "system", kind, details)
    if event_id and kind in ALERTED:
        queue.enqueue(queue.ALERT_PAYOUT, row["lead_id"], event_id)
    return bool(moved)


def record_purchase(row: dict, transfer: Transfer) -> str:
    """The lead of a paid payout moved to `bought` by `transition`, as staff's record of a
    payment was: the amount, the method (an ACH transfer is "same-day" only when the bank
    expects it to settle that day), the day and time, the network's reference. A lead bought
    already is left; a move refused is on the timeline and e-mailed to staff once (the
    reconciler tries again)."""
    same_day_ach = row["rail"] == "ach" and not transfer.settles_later
    data = {
        "amount": row["amount_cents"] // 100,
        "method": "ach_same_day" if same_day_ach else row["rail"],
        "paid_on": business_day(row["paid_at"]).isoformat(),
        "paid_at": row["paid_at"],
        "confirmation": row["network_reference"] or row["transfer_id"],
        "payout": row["id"],
    }
    try:
        lifecycle.transition(row["lead_id"], State.BOUGHT, "system", data, State.AGREED)
    except lifecycle.StaleState as stale:
        if stale.current == State.BOUGHT:
            return "the lead is bought"
        return not_recorded(row, str(stale))
    except lifecycle.TransitionError as refused:
        return not_recorded(row, str(refused))
    return "the lead is bought"


def not_recorded(row: dict, why: str) -> str:
    """A paid payout whose lead could not be marked bought: on the timeline and e-mailed to
    staff, once per payout."""
    already = any(
        event["kind"] == "payout_not_recorded" and event["data"].get("payout") == row["id"]
        for event in history.lead_events(row["lead_id"])
    )
    if not already:
        details = {"payout": row["id"], "reason": why[:300]}
        event_id = history.add_event(row["lead_id"], "system", "payout_not_recorded", details)
        queue.enqueue(queue.ALERT_PAYOUT, row["lead_id"], event_id)
    return f"paid, but the lead is not marked bought: {why}"
