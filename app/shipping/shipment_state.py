"""A parcel's states, one type: they only move forward, from the label to our signed receipt.
An exception the carrier reports (a failed delivery, a return to sender) is kept beside the
state, not as one, so a parcel delivered after a failed attempt still moves on."""

from __future__ import annotations

from enum import StrEnum


class ShipmentState(StrEnum):
    """Where a parcel is, as far as we know."""

    CREATED = "created"  # on record; no label bought yet
    LABEL_READY = "label_ready"
    IN_TRANSIT = "in_transit"
    OUT_FOR_DELIVERY = "out_for_delivery"
    DELIVERED = "delivered"
    RECEIVED = "received"  # opened on record by staff
    VOIDED = "voided"  # the label refunded unused
    LOST = "lost"  # a claim under the policy


class Leg(StrEnum):
    """Which way the parcel goes."""

    INBOUND = "inbound"  # the seller's watch to us
    RETURN = "return"  # back to the seller, declined or not bought


# The way forward; VOIDED and LOST end a parcel from wherever it was.
FORWARD = (
    ShipmentState.CREATED,
    ShipmentState.LABEL_READY,
    ShipmentState.IN_TRANSIT,
    ShipmentState.OUT_FOR_DELIVERY,
    ShipmentState.DELIVERED,
    ShipmentState.RECEIVED,
)
ENDED = (ShipmentState.RECEIVED, ShipmentState.VOIDED, ShipmentState.LOST)
# The states that mean the carrier has scanned the parcel: the policy's cover has begun.
SCANNED = (ShipmentState.IN_TRANSIT, ShipmentState.OUT_FOR_DELIVERY, ShipmentState.DELIVERED)

# EasyPost's tracker statuses: those that move a parcel forward, and those staff must look at.
PROVIDER_PROGRESS = {
    "pre_transit": ShipmentState.LABEL_READY,
    "in_transit": ShipmentState.IN_TRANSIT,
    "out_for_delivery": ShipmentState.OUT_FOR_DELIVERY,
    "delivered": ShipmentState.DELIVERED,
}
PROVIDER_EXCEPTIONS = {
    "return_to_sender": "returned to the sender",
    "failure": "a delivery failure",
    "available_for_pickup": "held at a carrier location for pickup",
    "error": "a carrier error",
    "cancelled": "cancelled by the carrier",
}
# ... and ours: a label bought and the parcel never scanned (app/shipping/reconcile.py; the
# carrier's first scan ends it, tracking.py), and a parcel opened on record that did not match
# its label, its weight or its seal (app/shipping/arrival.py). Staff read these words.
NO_FIRST_SCAN = "no_first_scan"
# A parcel opened on record keeps it while its mismatch waits for a second staff member: no
# carrier's word replaces it.
ARRIVAL_MISMATCH = "arrival_mismatch"
EXCEPTIONS = PROVIDER_EXCEPTIONS | {
    NO_FIRST_SCAN: "not scanned by the carrier 3 days after its label was bought",
    ARRIVAL_MISMATCH: "did not match its label when opened on record",
}


def earlier_than(state: ShipmentState) -> tuple[ShipmentState, ...]:
    """The states a parcel may move to `state` from: every one before it on the way forward."""
    return FORWARD[: FORWARD.index(state)]
