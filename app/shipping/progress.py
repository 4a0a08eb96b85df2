"""The seller's parcel as their status page shows it, in plain words: its label ready, in
transit, delivered to us, opened on record, each done, current or still to come. Nothing a
stranger holding the link could use: no tracking number, no label, no address."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from app.leads.state import State
from app.shipping.arrival import arrival_of, inbound_parcel
from app.shipping.shipment_state import ShipmentState

# Each step the seller sees, the state that completes it, and what it says while current.
STEPS = (
    (ShipmentState.LABEL_READY, "Label ready",
     "Pack the watch as the packing conditions say and hand the parcel to a staffed counter of "
     "the carrier. Keep the counter receipt."),
    (ShipmentState.IN_TRANSIT, "On its way to us",
     "The carrier has your parcel. It is covered by our shipping policy from its first scan "
     "until we sign for it."),
    (ShipmentState.DELIVERED, "Delivered to us",
     "The carrier has delivered your parcel and we signed for it. We open it on record next."),
    (ShipmentState.RECEIVED, "Opened on record",
     "We weighed the parcel, photographed the seal and the box as received, and opened it "
     "with the serial number in frame. Authentication comes next."),
)  # fmt: skip
# The last step's words once the sale has gone on from it (the final offer made, or later):
# authentication is then behind the seller, not ahead.
OPENED = (
    "We weighed the parcel, photographed the seal and the box as received, and opened it with "
    "the serial number in frame."
)
# What happens now, while a sale by mail waits for its parcel to be received and authenticated.
NEXT_STEP = (
    "Thank you for accepting. Follow your parcel to us below: once it has reached us and been "
    "opened on record, our watchmakers authenticate your watch and we e-mail you our final offer."
)
CHECKING = "We have opened your parcel on record and are checking it. Authentication comes next."
ENDED_WORDS = {
    ShipmentState.VOIDED: "Your label was not used in time, so we cancelled it. If you still "
    "want to sell, ask us below and we will send a new one.",
    ShipmentState.LOST: "The carrier has not delivered your parcel. We have opened a claim "
    "under our shipping policy and will be in touch with you.",
}
# ... and a voided label's once the sale is closed (the seller withdrew or declined): the page
# has no question form then, and what happens now says how to pick the sale up again.
VOIDED_CLOSED = "Your label was not used in time, so we cancelled it."


@dataclass
class ParcelStep:
    """One step of the parcel on the status page."""

    label: str
    status: str  # done, current or upcoming


def current_step(parcel: dict) -> tuple[int, str]:
    """Which of STEPS the parcel is at (len(STEPS) once received) and what that means."""
    state = parcel["state"]
    if state == ShipmentState.RECEIVED:
        return len(STEPS), STEPS[-1][2]
    if state == ShipmentState.DELIVERED and arrival_of(parcel["id"]) is not None:
        return len(STEPS) - 1, CHECKING  # opened on record, a second look still to come
    on_the_way = ShipmentState.IN_TRANSIT if state == ShipmentState.OUT_FOR_DELIVERY else state
    index = [step_state for step_state, _label, _words in STEPS].index(on_the_way)
    return index, STEPS[index][2]


def ended_words(lead: dict, state: ShipmentState) -> str:
    """What an ended parcel says: a voided label offers a new one only while the sale is open."""
    if state == ShipmentState.VOIDED and lead["state"] == State.CLOSED:
        return VOIDED_CLOSED
    return ENDED_WORDS[state]


def inbound_progress(lead: dict) -> dict | None:
    """The seller's parcel on its way to us, for their status page: its steps and what the
    current one means; None unless this is a sale by mail with a label bought."""
    if not current_app.config["MAILIN_ENABLED"] or lead.get("handover") != "mail":
        return None
    parcel = inbound_parcel(lead["id"])
    if parcel is None or parcel["state"] == ShipmentState.CREATED:
        return None
    if parcel["state"] in ENDED_WORDS:
        return {"steps": [], "words": ended_words(lead, parcel["state"])}
    now, words = current_step(parcel)
    if now == len(STEPS) and lead["state"] != State.ACCEPTED:
        words = OPENED
    steps = [
        ParcelStep(label, "done" if index < now else "current" if index == now else "upcoming")
        for index, (_state, label, _words) in enumerate(STEPS)
    ]
    return {"steps": steps, "words": words}
