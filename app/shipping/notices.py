"""The seller told of their parcel by e-mail: once its label is ready on the status page
(`label_notices`, one row per parcel), then twice more: when the carrier first has it on its way to
us, and when it is delivered to us. A return parcel, which we hand to the carrier ourselves,
brings the same two: on its way back, and delivered back. Once each per parcel, whatever order
the tracking arrives in and however often: each is owed by the state the parcel is in when the
job runs (a parcel already delivered owes no "on its way" any more) and recorded as sent in
`parcel_notices`, one row per parcel and step."""

from __future__ import annotations

from app import queue
from app.leads import email_claims, email_kinds
from app.leads.db import get_db, now, transaction
from app.shipping.shipment_state import Leg, ShipmentState

LABEL_READY = "label_ready"
IN_TRANSIT = "in_transit"
DELIVERED = "delivered"
# The step a parcel in each state owes the seller word of.
STEP_OF_STATE = {
    ShipmentState.IN_TRANSIT: IN_TRANSIT,
    ShipmentState.OUT_FOR_DELIVERY: IN_TRANSIT,
    ShipmentState.DELIVERED: DELIVERED,
    ShipmentState.RECEIVED: DELIVERED,
}


def owed(parcel: dict) -> str | None:
    """The step the seller is owed an e-mail about for this parcel now, or None: the parcel's
    step that has no e-mail on record or claimed yet."""
    step = STEP_OF_STATE.get(parcel["state"])
    if step is None or email_claims.claimed(email_kinds.PARCEL.key(parcel["id"], step)):
        return None
    sent = (
        get_db()
        .execute(
            "SELECT 1 FROM parcel_notices WHERE shipment_id = ? AND step = ?", (parcel["id"], step)
        )
        .fetchone()
    )
    return None if sent else step


def queue_owed(tracking_code: str | None) -> None:
    """After tracking was applied: queue the seller's e-mail about the parcel with this code,
    if one is owed (the job checks again, so a second queueing sends nothing)."""
    if not tracking_code:
        return
    row = (
        get_db()
        .execute("SELECT * FROM shipments WHERE tracking_code = ?", (tracking_code,))
        .fetchone()
    )
    if row is not None and owed(dict(row)):
        queue.enqueue(queue.SEND_PARCEL_MAIL, row["id"])


def mark_sent(shipment_id: int, step: str) -> bool:
    """Record the e-mail about `step` as sent; False if it already was."""
    with transaction() as db:
        return bool(
            db.execute(
                "INSERT INTO parcel_notices (shipment_id, step, sent_at) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (shipment_id, step, now()),
            ).rowcount
        )


def label_mail_owed(parcel: dict) -> bool:
    """Whether the seller is owed word that this parcel's label is ready on their status page:
    an inbound parcel whose label is bought and not yet used, not told yet (nor claimed)."""
    if parcel["leg"] != Leg.INBOUND or parcel["state"] != ShipmentState.LABEL_READY:
        return False
    if email_claims.claimed(email_kinds.LABEL_READY.key(parcel["id"])):
        return False
    db = get_db()
    return (
        db.execute("SELECT 1 FROM label_notices WHERE shipment_id = ?", (parcel["id"],)).fetchone()
        is None
    )


def queue_label_mail(parcel: dict) -> None:
    """Once the label is bought: queue the seller's e-mail that it is ready, if owed (the job
    checks again, so a retried purchase sends nothing more)."""
    if label_mail_owed(parcel):
        queue.enqueue(queue.SEND_LABEL_MAIL, parcel["id"])


def mark_label_mail_sent(shipment_id: int) -> bool:
    """Record the label's e-mail as sent; False if it already was."""
    with transaction() as db:
        return bool(
            db.execute(
                "INSERT INTO label_notices (shipment_id, sent_at) VALUES (?, ?) "
                "ON CONFLICT DO NOTHING",
                (shipment_id, now()),
            ).rowcount
        )
