"""The seller's view of a lead's events, on their status page: the road a sale takes, in plain
words, each step done, current or still to come (the staff timeline is app/sale/timeline.py)."""

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


def seller_steps(state: str, events: list[dict]) -> list[Step]:
    """The seller's timeline: each step done, current or still to come, with what the current
    and finished steps carried (quote, appointment, offer, payment). A closed lead shows the
    steps it reached, then why it closed."""
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
    return steps
