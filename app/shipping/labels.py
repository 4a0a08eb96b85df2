"""A deal's parcel on record, and its label bought once however often it is asked for.

The row comes first (one per deal and leg: the database refuses a second), the provider's
shipment id is stored as soon as the shipment exists and before its label is bought, and every
try reads the provider's shipment before buying: a label already bought is taken as it is. So
three clicks, a job retried after a time-out, or two workers at once buy one label; the provider
itself refuses a second purchase of one shipment, and the loser takes the winner's label.
"""

from __future__ import annotations

from flask import current_app

from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.history import append_event
from app.shipping import easypost_api
from app.shipping.easypost_api import ProviderError
from app.shipping.shipment_state import Leg, ShipmentState

# The plain double box the packing instructions ask for, as the label is bought for it: inches
# and ounces (a watch, its box and the padding); staff weigh it again on arrival.
PARCEL = {"length": 10, "width": 8, "height": 6, "weight": 32}


class OverTheLimit(ValueError):
    """The insured value is above the policy's per-parcel limit (MAILIN_MAX_VALUE)."""


def open_shipment(lead_id: int, leg: Leg, deal_event_id: int, insured_value: int,
                  from_address_id: str) -> int:  # fmt: skip
    """Record the parcel of this deal (the acceptance event `deal_event_id`) and leg, with the
    seller's address as the provider verified it, `from_address_id` (the parcel's sender on the
    way in, its recipient on the way back: ends_of); the existing one's id if it is on record
    already. OverTheLimit above MAILIN_MAX_VALUE: such a watch is bought in person."""
    with transaction() as db:
        return record_shipment(db, lead_id, leg, deal_event_id, insured_value, from_address_id)


def record_shipment(db, lead_id: int, leg: Leg, deal_event_id: int, insured_value: int,
                    from_address_id: str) -> int:  # fmt: skip
    """open_shipment inside the caller's transaction (which checked what the parcel rests on
    in the same transaction)."""
    limit = current_app.config["MAILIN_MAX_VALUE"]
    if insured_value > limit:
        raise OverTheLimit(f"${insured_value:,} is above the policy's ${limit:,} per parcel")
    db.execute(
        "INSERT INTO shipments (lead_id, leg, deal_event_id, insured_value, policy, "
        "from_address_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (lead_id, leg, deal_event_id) DO NOTHING",
        (lead_id, leg, deal_event_id, insured_value,
         current_app.config["MAILIN_POLICY_REFERENCE"], from_address_id, now(), now()),
    )  # fmt: skip
    row = db.execute(
        "SELECT id FROM shipments WHERE lead_id = ? AND leg = ? AND deal_event_id = ?",
        (lead_id, leg, deal_event_id),
    ).fetchone()
    return row["id"]


def get(shipment_id: int) -> dict:
    """One parcel's row; LookupError if there is none."""
    row = get_db().execute("SELECT * FROM shipments WHERE id = ?", (shipment_id,)).fetchone()
    if row is None:
        raise LookupError(f"Shipment {shipment_id} does not exist.")
    return dict(row)


def buy_label(shipment_id: int) -> dict:
    """The parcel's label, bought if it is not yet (the row after); ProviderError as the
    provider said it, the row unchanged but for the shipment id, for the job to retry."""
    row = get(shipment_id)
    if row["state"] != ShipmentState.CREATED:
        return row
    provider_id = row["provider_shipment_id"] or create_once(row)
    shipment = easypost_api.retrieve_shipment(provider_id)
    if not shipment.get("postage_label"):
        shipment = buy_or_take(provider_id, shipment)
    record_label(row, shipment)
    return get(shipment_id)


def create_once(row: dict) -> str:
    """The provider's shipment for this parcel, created and its id stored before anything is
    bought; if another try stored one first, that one (the spare is never bought: it is free)."""
    sender, recipient = ends_of(row)
    made = easypost_api.create_shipment(
        from_address=sender, to_address=recipient, parcel=PARCEL, reference=reference_of(row)
    )
    with transaction() as db:
        db.execute(
            "UPDATE shipments SET provider_shipment_id = ?, updated_at = ? "
            "WHERE id = ? AND provider_shipment_id IS NULL",
            (made["id"], now(), row["id"]),
        )
    return get(row["id"])["provider_shipment_id"]


def ends_of(row: dict) -> tuple[dict, dict]:
    """The parcel's sender and recipient, the one place a leg's direction is decided: the
    seller's verified address (the row's `from_address_id`, whichever the leg, as the seller's
    is the address we verified) and our receiving address; an inbound parcel goes from the
    seller to us, a return from us to the seller."""
    ours = easypost_api.receiving_address()
    theirs = {"id": row["from_address_id"]}
    return (theirs, ours) if row["leg"] == Leg.INBOUND else (ours, theirs)


def reference_of(row: dict) -> str:
    """What the label's reference says: the lead's reference and the leg, nothing about a watch
    (the policy wants no word of the contents outside the box)."""
    lead = get_db().execute("SELECT reference FROM leads WHERE id = ?", (row["lead_id"],))
    return f"{lead.fetchone()['reference']}-{row['leg']}"


def buy_or_take(provider_id: str, shipment: dict) -> dict:
    """Buy the shipment's label at the chosen rate; if the provider refuses because another try
    bought it meanwhile, the label that try bought."""
    try:
        return easypost_api.buy_shipment(provider_id, easypost_api.chosen_rate(shipment)["id"])
    except ProviderError:
        again = easypost_api.retrieve_shipment(provider_id)
        if again.get("postage_label"):
            return again
        raise


def record_label(row: dict, shipment: dict) -> None:
    """The bought label on the parcel's row and its lead's timeline, once (the UPDATE moves
    only a parcel still without one). The label's image, with the seller's name and address,
    stays with the provider: the status page fetches it by the shipment's id (label_files.py)."""
    rate = shipment.get("selected_rate") or {}
    with immediate_transaction() as db:
        moved = db.execute(
            "UPDATE shipments SET state = ?, tracking_code = ?, carrier = ?, service = ?, "
            "rate_cents = ?, label_weight_oz = ?, bought_at = ?, updated_at = ? "
            "WHERE id = ? AND state = ?",
            (ShipmentState.LABEL_READY, shipment.get("tracking_code"), rate.get("carrier"),
             rate.get("service"), round(float(rate.get("rate") or 0) * 100), PARCEL["weight"],
             now(), now(), row["id"], ShipmentState.CREATED),
        ).rowcount  # fmt: skip
        if moved:
            details = {"leg": row["leg"], "carrier": rate.get("carrier")}
            append_event(db, row["lead_id"], "system", "shipment_label_bought", details)
