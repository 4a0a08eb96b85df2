"""What a stored tracking event does to its parcel, applied once by a job (ids only).

A parcel only moves forward (a conditional UPDATE from the states before the new one, so an
event that arrives late, or twice, changes nothing); each move goes on its lead's timeline. An
exception the carrier reports is kept beside the state, on the timeline, and e-mailed to staff;
the seller is e-mailed when the parcel is first on its way to us and when it is delivered.
An event for a tracking code we do not know is recorded as such and left: the provider sends
every tracker of the account. Nothing here creates a deal, moves one or changes an amount; a
watch delivered to us for a deal closed meanwhile has its return queued (returns.py).
"""

from __future__ import annotations

import json

from flask import current_app

from app import queue
from app.leads.db import immediate_transaction, now
from app.leads.history import append_event
from app.shipping import claims, notices, returns
from app.shipping.shipment_state import (
    ARRIVAL_MISMATCH,
    ENDED,
    NO_FIRST_SCAN,
    PROVIDER_EXCEPTIONS,
    PROVIDER_PROGRESS,
    SCANNED,
    ShipmentState,
    earlier_than,
)


def apply_event(event_id: int) -> str:
    """Apply the stored event `event_id` to its parcel, once; what it did."""
    with immediate_transaction() as db:
        row = db.execute("SELECT * FROM shipment_events WHERE id = ?", (event_id,)).fetchone()
        if row is None:
            raise LookupError(f"Shipment event {event_id} does not exist.")
        if row["processed_at"]:
            return f"already applied: {row['outcome']}"
        outcome, alert = what_it_does(db, dict(row))
        db.execute(
            "UPDATE shipment_events SET processed_at = ?, outcome = ? WHERE id = ?",
            (now(), outcome, event_id),
        )
    if alert:
        queue.enqueue(*alert)
    notices.queue_owed(row["tracking_code"])
    if outcome == f"moved to {ShipmentState.DELIVERED}":
        returns.queue_if_owed(row["tracking_code"])
    return outcome


def what_it_does(db, row: dict) -> tuple[str, tuple | None]:
    """Inside the job's transaction: the event applied; what it did, and the alert to queue
    once it has committed (the job's name, the lead and the timeline event), if any."""
    if not row["description"].startswith("tracker."):
        return "ignored: not a tracking event", None
    shipment = db.execute(
        "SELECT * FROM shipments WHERE tracking_code = ?", (row["tracking_code"],)
    ).fetchone()
    if shipment is None:
        current_app.logger.warning("Tracking event %s: unknown tracking code.", row["id"])
        return "unknown tracking code", None
    note_weight(db, dict(shipment), (json.loads(row["body"]).get("result") or {}).get("weight"))
    return apply_status(db, dict(shipment), row["status"] or "")


def note_weight(db, shipment: dict, weight) -> None:
    """Inside the caller's transaction: keep the first weight the carrier measured (its
    tracker's `weight`, in ounces), which the arrival is weighed against; none, or nonsense,
    leaves the label's."""
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight < 2000:
        return
    db.execute(
        "UPDATE shipments SET carrier_weight_oz = ? WHERE id = ? AND carrier_weight_oz IS NULL",
        (float(weight), shipment["id"]),
    )


def apply_status(db, shipment: dict, status: str) -> tuple[str, tuple | None]:
    """Inside the caller's transaction: the provider's tracking `status` applied to the
    parcel (by the webhook's job, or the reconciler that asks for what webhooks missed): only
    the provider's own exceptions, never one of ours a body might name; what it did, and the
    alert to queue once the caller has committed."""
    delivered = PROVIDER_PROGRESS.get(status) == ShipmentState.DELIVERED
    if delivered and shipment["state"] == ShipmentState.LOST:  # turned up where it was sent
        return claims.delivered_after_lost(db, shipment)
    if status in PROVIDER_PROGRESS:
        return move_forward(db, shipment, PROVIDER_PROGRESS[status]), None
    if status in PROVIDER_EXCEPTIONS:
        return record_exception(db, shipment, status)
    return f"no change ({status or 'no status'})", None


def move_forward(db, shipment: dict, state) -> str:
    """Move the parcel to `state` if it is not there or further yet (or ended), noting when we
    first heard of a carrier scan (the policy's cover starts there; it ends the exception of a
    label not scanned) and of its delivery."""
    at = now()
    scanned = at if state in SCANNED else None
    delivered = at if state == ShipmentState.DELIVERED else None
    moved = db.execute(
        "UPDATE shipments SET state = :state, updated_at = :at, "
        "first_scan_at = coalesce(first_scan_at, :scanned), "
        "delivered_at = coalesce(delivered_at, :delivered), "
        "exception_status = CASE WHEN :scanned IS NOT NULL AND exception_status = :unscanned "
        "THEN NULL ELSE exception_status END "
        "WHERE id = :id AND state IN (SELECT value FROM json_each(:before))",
        {"state": state, "at": at, "scanned": scanned, "delivered": delivered,
         "unscanned": NO_FIRST_SCAN, "id": shipment["id"],
         "before": json.dumps(earlier_than(state))},
    ).rowcount  # fmt: skip
    if not moved:
        return f"stays {shipment['state']} (not moved back to {state})"
    append_event(db, shipment["lead_id"], "system", "shipment_moved",
                 {"leg": shipment["leg"], "state": str(state)})  # fmt: skip
    return f"moved to {state}"


def record_exception(db, shipment: dict, status: str) -> tuple[str, tuple | None]:
    """Keep the exception beside the parcel's state and put it on the timeline, for staff to
    be e-mailed, once per change (the provider repeats a status in every later event); an
    ended parcel's is left alone, and so is a parcel whose arrival on record did not match:
    its mismatch waits for a second staff member and is what the insurer is told."""
    if shipment["state"] in ENDED:
        return f"exception {status} after the parcel ended", None
    if shipment["exception_status"] == ARRIVAL_MISMATCH:
        return f"exception {status} not recorded: the arrival's mismatch stands", None
    if shipment["exception_status"] == status:
        return f"exception {status} already recorded", None
    db.execute(
        "UPDATE shipments SET exception_status = ?, updated_at = ? WHERE id = ?",
        (status, now(), shipment["id"]),
    )
    event_id = append_event(db, shipment["lead_id"], "system", "shipment_exception",
                            {"leg": shipment["leg"], "status": status})  # fmt: skip
    return f"exception {status}", (queue.ALERT_SHIPMENT_EXCEPTION, shipment["lead_id"], event_id)
