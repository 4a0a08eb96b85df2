"""The seller's view of a lead's events, on their status page: the road a sale takes, in plain
words, each step done, current or still to come (the staff timeline is app/sale/timeline.py).
A sale by mail has its parcel's steps in place of the appointment."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.leads.history import latest_change
from app.leads.state import State
from app.rendering.dates import display_date
from app.sale.timeline import state_details

SELLER_STEPS = (
    (State.NEW, "Received"),
    (State.CONTACTED, "Under review"),
    (State.QUOTED, "Preliminary quote"),
    (State.APPOINTMENT, "Appointment"),
    (State.OFFERED, "Final offer"),
    (State.BOUGHT, "Completed"),
)
# Where each state stands on that road (a quote accepted is still the quote's step).
STEP_OF_STATE = {State.ACCEPTED: State.QUOTED, State.AGREED: State.OFFERED, State.CLOSED: None} | {
    state: state for state, _ in SELLER_STEPS
}
SELLER_CLOSE_REASONS = {
    "seller_declined": "You declined our quote",
    "not_a_fit": "We could not make an offer",
    "no_response": "We did not hear back from you",
    "withdrawn": "You withdrew your watch",
}


@dataclass
class Step:
    """One step of the seller's timeline on their status page."""

    label: str
    status: str  # done, current or upcoming
    when: str = ""  # the date the lead first reached this step
    details: list[tuple[str, str]] = field(default_factory=list)


def reached_on(events: list[dict]) -> dict[str, str]:
    """The first time the lead reached each state, as a display date."""
    reached = {}
    for event in events:
        if event["kind"] == "submitted":
            reached.setdefault(State.NEW, event["at"])
        elif event["kind"] == "state_changed":
            reached.setdefault(event["data"]["to"], event["at"])
    return {state: display_date(at[:10]) for state, at in reached.items()}


def paperwork_signed(events: list[dict]) -> bool:
    """Whether the latest paperwork of the lead is signed and stands (not voided since)."""
    kinds = [e["kind"] for e in events if e["kind"] in ("paperwork_signed", "paperwork_discarded")]
    return bool(kinds) and kinds[-1] == "paperwork_signed"


def seller_steps(state: str, events: list[dict], by_mail: bool = False) -> list[Step]:
    """The seller's timeline: each step done, current or still to come, with what the current
    and finished steps carried (quote, appointment, offer, payment). A closed lead shows the
    steps it reached, then why it closed. A sale `by_mail` has its parcel's two steps in place
    of the appointment."""
    reached = reached_on(events)
    current = STEP_OF_STATE.get(state)
    steps, passed = [], False
    for step_state, label in SELLER_STEPS:
        if step_state == current:
            status = "current"
            passed = True
        elif current is None:
            if step_state not in reached:
                continue
            status = "done"
        else:
            status = "upcoming" if passed else "done"
        data = latest_change(events, step_state)
        details = state_details(data) if data and status != "upcoming" else []
        steps.append(Step(label, status, reached.get(step_state, ""), details))
    if state == State.ACCEPTED:
        steps[2].label = "Preliminary quote accepted"
    if state == State.AGREED and paperwork_signed(events):  # the payment is what comes next
        steps[4].label, steps[4].status = "Offer accepted, paperwork signed", "done"
        steps[5].label, steps[5].status = "Payment: after our checks", "current"
    elif state == State.AGREED:
        steps[4].label = "Offer accepted: paperwork"
    if state == State.BOUGHT:  # the last step is done, not waiting
        steps[5].label, steps[5].status = "Completed: payment sent", "done"
    if state == State.CLOSED:
        data = latest_change(events, State.CLOSED) or {}
        reason = SELLER_CLOSE_REASONS.get(data.get("reason"), "Your enquiry is closed")
        if data.get("reason") == "seller_declined" and data.get("from") == State.OFFERED:
            reason = "You declined our final offer"
        steps.append(Step("Closed", "current", reached.get(State.CLOSED, ""), [("Why", reason)]))
    return with_parcel(steps, state, events) if by_mail else steps


# The parcel's moves (app/shipping/) that mean the carrier has it, and that we opened it.
SENT_STATES = ("in_transit", "out_for_delivery", "delivered", "received")


def parcel_dates(events: list[dict]) -> tuple[str, str]:
    """When the seller's parcel was first on its way, and when we received it on record, as
    display dates ('' for a step not reached)."""
    moves = [(e["data"]["state"], e["at"]) for e in events
             if e["kind"] == "shipment_moved" and e["data"].get("leg") == "inbound"]  # fmt: skip
    sent = next((at for moved, at in moves if moved in SENT_STATES), "")
    received = next((at for moved, at in moves if moved == "received"), "")
    return (display_date(sent[:10]) if sent else ""), (
        display_date(received[:10]) if received else ""
    )


def with_parcel(steps: list[Step], state: str, events: list[dict]) -> list[Step]:
    """A sale by mail's steps: "Sent by insured mail" and "Received by us" where the appointment
    would be, done as the parcel goes; while the quote is accepted, the parcel's step of now is
    the current one. A sale by mail moved to an appointment (a watch above the policy's limit)
    keeps its appointment; one closed before its quote has no parcel to show."""
    quote = next((i for i, s in enumerate(steps) if s.label.startswith("Preliminary quote")), None)
    if quote is None or latest_change(events, State.APPOINTMENT) is not None:
        return steps  # closed before a quote, or bought in person after all
    sent, received = parcel_dates(events)
    after = steps[quote + 1] if quote + 1 < len(steps) else None
    replaced = 1 if after is not None and after.label == "Appointment" else 0
    later = after.status if replaced else "done"  # a closed lead shows the steps it reached
    parcel = [Step("Sent by insured mail", later, sent), Step("Received by us", later, received)]
    if state == State.ACCEPTED and sent:
        steps[quote].status = "done"
        parcel[0].status = "done" if received else "current"
        parcel[1].status = "current" if received else "upcoming"
    if not replaced:
        parcel = [step for step in parcel if step.when]
    steps[quote + 1 : quote + 1 + replaced] = parcel
    return steps
