"""A claim under the parcel policy for a parcel lost or damaged: one staff member opens it with
the insurer's claim reference (a lost parcel then moves to `lost`: no tracking event moves it
again, but its delivery), another settles it, paid with the amount or refused. The one who
opened a claim can never settle it (the database refuses it too), the amount paid is never
above the parcel's insured value, a settled claim is never changed (but for the day its parcel
turned up delivered, once) and no claim is ever deleted; both steps are on the lead's timeline,
and the staff views audit them.

A parcel claimed lost that the carrier then delivers is where it was sent after all: it moves
on to `delivered` (the watch is opened on record, or the seller has it back), its claim keeps
the day for the insurer (the declaration says so), and staff are told once, on the timeline
and by e-mail, to tell the insurer.
"""

from __future__ import annotations

import json
import sqlite3

from app import queue
from app.leads.db import get_db, immediate_transaction, now
from app.leads.display import usd
from app.leads.history import append_event
from app.shipping import attention
from app.shipping.shipment_state import ShipmentState

KINDS = {"lost": "Lost", "damaged": "Damaged"}
OUTCOMES = {"paid": "Paid by the insurer", "refused": "Refused by the insurer"}
STATES = {"open": "Open"} | OUTCOMES
# A parcel may be claimed for once the carrier has it under cover (its first scan); a lost one
# only while it has not reached its address (once delivered, it is damaged or not at all).
CLAIMABLE = {
    "lost": (ShipmentState.IN_TRANSIT, ShipmentState.OUT_FOR_DELIVERY),
    "damaged": (ShipmentState.IN_TRANSIT, ShipmentState.OUT_FOR_DELIVERY,
                ShipmentState.DELIVERED, ShipmentState.RECEIVED),
}  # fmt: skip


class ClaimRefused(ValueError):
    """A claim step refused; str() is the message for staff, and nothing was changed."""


def of_shipment(shipment_id: int) -> dict | None:
    """The parcel's claim, if one was opened."""
    row = (
        get_db()
        .execute("SELECT * FROM shipment_claims WHERE shipment_id = ?", (shipment_id,))
        .fetchone()
    )
    return dict(row) if row else None


def parcel(db: sqlite3.Connection, shipment_id: int) -> dict:
    """The parcel's row inside the caller's transaction; ClaimRefused if there is none."""
    row = db.execute("SELECT * FROM shipments WHERE id = ?", (shipment_id,)).fetchone()
    if row is None:
        raise ClaimRefused("There is no such parcel. Nothing was changed.")
    return dict(row)


def open_claim(shipment_id: int, kind: str, reference: str, note: str, actor: str) -> int:
    """Open the parcel's claim with the insurer's reference; the timeline event's id. A lost
    parcel moves to `lost` in the same transaction, from a state on its way only."""
    if kind not in KINDS:
        raise ClaimRefused(f"“{kind}” is not a kind of claim. Nothing was changed.")
    with immediate_transaction() as db:
        shipment = parcel(db, shipment_id)
        if of_shipment(shipment_id) is not None:
            raise ClaimRefused("This parcel already has a claim. Nothing was changed.")
        if shipment["state"] not in CLAIMABLE[kind]:
            raise ClaimRefused(refusal(kind, shipment["state"]))
        if kind == "lost":
            move_to_lost(db, shipment)
        db.execute(
            "INSERT INTO shipment_claims (shipment_id, kind, insurer_reference, note, opened_by, "
            "opened_at) VALUES (?, ?, ?, ?, ?, ?)",
            (shipment_id, kind, reference.strip(), note.strip(), actor, now()),
        )
        data = {"leg": shipment["leg"], "shipment": shipment_id, "kind": kind,
                "reference": reference.strip()}  # fmt: skip
        return append_event(db, shipment["lead_id"], actor, "shipment_claim_opened", data)


def refusal(kind: str, state: str) -> str:
    """Why a parcel in `state` cannot be claimed for as `kind`."""
    if state in (ShipmentState.CREATED, ShipmentState.LABEL_READY):
        return (
            "The carrier has not scanned this parcel yet, so the policy's cover has not begun: "
            "there is nothing to claim. Nothing was changed."
        )
    if kind == "lost" and state in (ShipmentState.DELIVERED, ShipmentState.RECEIVED):
        return (
            "This parcel was delivered, so it cannot be claimed as lost; claim it as damaged if "
            "it arrived damaged. Nothing was changed."
        )
    return f"A parcel that is {state.replace('_', ' ')} cannot be claimed for. Nothing was changed."


def move_to_lost(db: sqlite3.Connection, shipment: dict) -> None:
    """The parcel to `lost`, only from where it was read (a conditional UPDATE), on its
    timeline; ClaimRefused if tracking moved it meanwhile."""
    moved = db.execute(
        "UPDATE shipments SET state = ?, updated_at = ? WHERE id = ? "
        "AND state IN (SELECT value FROM json_each(?))",
        (ShipmentState.LOST, now(), shipment["id"], json.dumps(CLAIMABLE["lost"])),
    ).rowcount
    if not moved:
        raise ClaimRefused("The parcel moved on meanwhile: look again. Nothing was changed.")
    append_event(db, shipment["lead_id"], "system", "shipment_moved",
                 {"leg": shipment["leg"], "state": str(ShipmentState.LOST)})  # fmt: skip


def settle(shipment_id: int, outcome: str, amount: int | None, actor: str) -> int:
    """Settle the parcel's open claim as the insurer did (paid, with the amount, or refused),
    by another staff member than the one who opened it; the timeline event's id."""
    if outcome not in OUTCOMES:
        raise ClaimRefused(f"“{outcome}” is not an insurer's answer. Nothing was changed.")
    with immediate_transaction() as db:
        shipment = parcel(db, shipment_id)
        claim = of_shipment(shipment_id)
        if claim is None or claim["state"] != "open":
            raise ClaimRefused("This parcel has no open claim to settle. Nothing was changed.")
        if claim["opened_by"] == actor:
            raise ClaimRefused(
                "You opened this claim, so another staff member must record how it was settled. "
                "Nothing was changed."
            )
        amount = check_amount(outcome, amount, shipment["insured_value"])
        settled = db.execute(
            "UPDATE shipment_claims SET state = ?, amount = ?, settled_by = ?, settled_at = ? "
            "WHERE id = ? AND state = 'open'",
            (outcome, amount, actor, now(), claim["id"]),
        ).rowcount
        if not settled:
            raise ClaimRefused("Someone settled this claim meanwhile. Nothing was changed.")
        data = {"leg": shipment["leg"], "shipment": shipment_id, "state": outcome,
                "amount": amount}  # fmt: skip
        return append_event(db, shipment["lead_id"], actor, "shipment_claim_settled", data)


def check_amount(outcome: str, amount: int | None, insured_value: int) -> int | None:
    """The amount a settlement records: a paid claim's, never above the insured value; none for
    a refused one."""
    if outcome == "refused":
        return None
    if not amount:
        raise ClaimRefused("A paid claim needs the amount the insurer paid. Nothing was changed.")
    if amount > insured_value:
        raise ClaimRefused(
            f"{usd(amount)} is above the parcel's insured value of {usd(insured_value)}: check "
            "the insurer's letter. Nothing was changed."
        )
    return amount


def delivered_after_lost(db: sqlite3.Connection, shipment: dict) -> tuple[str, tuple | None]:
    """Inside the tracking job's transaction: the carrier delivered a parcel claimed lost. It
    moves on to `delivered`, its claim keeps the day, and staff are told once (the timeline
    now, the e-mail once the caller has committed); what it did, and the job to queue."""
    at = now()
    db.execute(
        "UPDATE shipments SET state = ?, delivered_at = coalesce(delivered_at, ?), "
        "updated_at = ? WHERE id = ? AND state = ?",
        (ShipmentState.DELIVERED, at, at, shipment["id"], ShipmentState.LOST),
    )
    db.execute(
        "UPDATE shipment_claims SET delivered_at = (SELECT delivered_at FROM shipments "
        "WHERE id = ?) WHERE shipment_id = ? AND delivered_at IS NULL",
        (shipment["id"], shipment["id"]),
    )
    append_event(db, shipment["lead_id"], "system", "shipment_moved",
                 {"leg": shipment["leg"], "state": str(ShipmentState.DELIVERED)})  # fmt: skip
    event_id = attention.note_once(db, shipment, attention.DELIVERED_AFTER_LOST)
    alert = (queue.ALERT_SHIPPING_ATTENTION, shipment["lead_id"], event_id) if event_id else None
    return f"moved to {ShipmentState.DELIVERED}", alert
