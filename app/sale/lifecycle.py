"""The moves between a lead's states (app/leads/state.py) and what each does (docs/sale.md,
"States and moves").

Every change goes through `transition()`, which checks the move is allowed and carries what it
needs, then lets the database apply it only if the lead is still in the state the person saw
(`expected_state`): two staff acting on the same lead, or a form left open for an hour, get a
clear refusal instead of a double transition. Every change is also an event on the timeline.
"""

from __future__ import annotations

from flask import current_app

from app import queue
from app.leads import history, store
from app.leads.db import get_db, truncate_wal
from app.leads.state import State
from app.sale import keeping
from app.sale.purchase import (
    authentication,
    bank_payouts,
    checklist,
    files,
    payment,
    record,
    register_asks,
)

STATE_LABELS = {
    State.NEW: "New",
    State.CONTACTED: "Contacted",
    State.QUOTED: "Quoted",
    State.ACCEPTED: "Quote accepted",
    State.APPOINTMENT: "Appointment",
    State.OFFERED: "Final offer",
    State.AGREED: "Offer accepted",
    State.BOUGHT: "Bought",
    State.CLOSED: "Closed",
}
MOVES: dict[State, frozenset[State]] = {
    State.NEW: frozenset({State.CONTACTED, State.QUOTED, State.CLOSED}),
    State.CONTACTED: frozenset({State.QUOTED, State.CLOSED}),
    State.QUOTED: frozenset({State.QUOTED, State.ACCEPTED, State.CLOSED}),
    # A deal by mail has no appointment: its final offer follows the parcel received (below).
    State.ACCEPTED: frozenset({State.APPOINTMENT, State.OFFERED, State.CLOSED}),
    State.APPOINTMENT: frozenset({State.APPOINTMENT, State.OFFERED, State.CLOSED}),
    State.OFFERED: frozenset({State.OFFERED, State.AGREED, State.CLOSED}),
    State.AGREED: frozenset({State.BOUGHT, State.CLOSED}),
    State.BOUGHT: frozenset(),
    State.CLOSED: frozenset({State.CONTACTED}),
}
CLOSE_REASONS = {
    "seller_declined": "Seller declined",
    "not_a_fit": "Not a fit",
    "no_response": "No response",
    "withdrawn": "Withdrawn",
}
APPOINTMENT_MODES = {"office": "Office visit", "collection": "Insured collection"}
# What each move must carry (the forms ask for it; this is the last check before the database).
REQUIRED: dict[State, tuple[str, ...]] = {
    State.QUOTED: ("amount_low", "amount_high", "valid_until"),
    State.APPOINTMENT: ("date", "time", "mode", "place"),
    State.OFFERED: ("amount", "valid_until"),
    State.BOUGHT: ("amount", "paid_on", "method", "confirmation"),
    State.CLOSED: ("reason",),
}
# The e-mail (worker/seller_mail.py) a seller is sent when their lead enters each state.
SELLER_EMAILS = {
    State.QUOTED: "quote",
    State.APPOINTMENT: "appointment",
    State.OFFERED: "offer",
    State.AGREED: "paperwork",
    State.BOUGHT: "completed",
    State.CLOSED: "closed",
}
# What the purchase record must hold before a move (app/sale/purchase/checklist.py).
PREREQUISITES = {State.OFFERED: checklist.BEFORE_OFFER, State.BOUGHT: checklist.BEFORE_PURCHASE}


class TransitionError(ValueError):
    """A state change that was refused; str() is a message fit to show to the person."""


class IllegalMove(TransitionError):
    """A move the lifecycle does not allow from the lead's state, or to no state at all."""


class MissingDetails(TransitionError):
    """A move, question or note without what it must carry, or with a value not allowed."""


class StaleState(TransitionError):
    """The lead moved on since the form was shown (someone else acted first)."""

    def __init__(self, message: str, current: str):
        super().__init__(message)
        self.current = current


class LeadNotFound(LookupError):
    """No lead has that id."""


def allowed_moves(state: str) -> frozenset[str]:
    """The states a lead in `state` may move to (none for an unknown state)."""
    return MOVES.get(state, frozenset())


def check_move(from_state: str, to_state: str, data: dict) -> None:
    """Raise IllegalMove or MissingDetails unless the move is allowed and carries what it needs."""
    if to_state not in STATE_LABELS:
        raise IllegalMove(f"“{to_state}” is not a lead state.")
    if to_state not in allowed_moves(from_state):
        raise IllegalMove(
            f"A lead that is {STATE_LABELS[from_state]} cannot move to {STATE_LABELS[to_state]}."
        )
    missing = [key for key in REQUIRED.get(to_state, ()) if data.get(key) in (None, "")]
    if from_state == State.CLOSED and not data.get("note"):
        missing.append("note")
    if missing:
        raise MissingDetails(f"{STATE_LABELS[to_state]} needs: {', '.join(missing)}.")
    if to_state == State.CLOSED and data["reason"] not in CLOSE_REASONS:
        raise MissingDetails(f"“{data['reason']}” is not a reason for closing a lead.")
    if to_state == State.QUOTED and int(data["amount_low"]) > int(data["amount_high"]):
        raise MissingDetails("The low end of the quote is above the high end.")
    if to_state == State.APPOINTMENT and data["mode"] not in APPOINTMENT_MODES:
        raise MissingDetails(f"“{data['mode']}” is not a kind of appointment.")
    if to_state == State.BOUGHT and data["method"] not in record.PAYMENT_METHODS:
        raise MissingDetails(f"“{data['method']}” is not a payment method we use.")


def put_on_record(lead_id: int, moving: tuple[str, str], actor: str, data: dict) -> list[str]:
    """Inside the transaction that moves the lead (store.change_state) from `moving[0]` to
    `moving[1]`: refuse the move unless the purchase record holds what it needs (MissingDetails,
    naming each item missing) and a payment is the one agreed (payment.py); record a purchase's
    payment with the move that says it was made; discard the paperwork of an accepted offer
    that is closed, unless a flag or an open register question keeps it (app/sale/keeping.py).
    The names of the files to delete once the move is committed."""
    from_state, to_state = moving
    if from_state == State.ACCEPTED and to_state == State.OFFERED:
        refuse_unless_parcel_received(lead_id)
    purchase = record.get(lead_id)
    lacking = checklist.missing(purchase, PREREQUISITES.get(to_state, ()))
    if lacking:
        raise MissingDetails(f"{STATE_LABELS[to_state]} needs first: {'; '.join(lacking)}.")
    if to_state == State.BOUGHT:
        refused = payment.problems(get_db(), lead_id, purchase, data)
        refused += filter(None, [bank_payouts.purchase_problem(get_db(), lead_id, data)])
        if refused:
            raise MissingDetails(" ".join(refused))
        record.record_payment(get_db(), lead_id, actor, data)
    if from_state == State.AGREED and to_state == State.CLOSED:
        if refused := bank_payouts.stop_before_close(get_db(), lead_id, actor):
            raise MissingDetails(refused)
        if keeping.register_keeps(get_db(), lead_id):  # the identity and ID stay for the law
            return []
        return record.discard_paperwork(get_db(), lead_id, "system")
    return []


def refuse_unless_parcel_received(lead_id: int) -> None:
    """A final offer straight after the quote's acceptance is a deal by mail's only, once its
    parcel of this deal is opened on record and received (a parcel of the acceptance of now,
    or one that replaced it later: a new return address confirmed); an in-person deal goes
    through its appointment. MissingDetails otherwise, saying which."""
    db = get_db()
    lead = db.execute("SELECT handover FROM leads WHERE id = ?", (lead_id,)).fetchone()
    if lead is None or lead["handover"] != "mail":
        raise MissingDetails(
            "A final offer follows the authentication appointment: book it first (only a sale "
            "by mail goes from the accepted quote to the final offer)."
        )
    if not authentication.parcel_received(db, lead_id):
        raise MissingDetails(
            "A final offer by mail needs the seller's parcel received first: opened on record, "
            "and signed off by a second staff member if it did not match."
        )


def transition(lead_id: int, to_state: str, actor: str, data: dict, expected_state: str) -> int:
    """Move the lead from `expected_state` to `to_state`, then queue the seller's e-mail for
    the new state if it has one (and a purchase's report to the ad platforms); returns the new
    event's id.

    Raises IllegalMove or MissingDetails before touching the database (or, for what the
    purchase record lacks, changing nothing in it), StaleState when the lead is no longer in
    `expected_state` (nothing is changed), LeadNotFound for an unknown lead.
    """
    check_move(expected_state, to_state, data)
    if to_state == State.BOUGHT and register_asks.refresh_before_payment(lead_id) is not None:
        raise MissingDetails(  # the payment waits for the answer, however soon it comes
            f"{STATE_LABELS[to_state]} needs first: {checklist.named('register_recent')}."
        )
    discarded: list[str] = []
    event_id, current = store.change_state(
        lead_id,
        expected_state,
        to_state,
        actor,
        data,
        within=lambda: discarded.extend(
            put_on_record(lead_id, (expected_state, to_state), actor, data)
        ),
    )
    if current is None:
        raise LeadNotFound(f"Lead {lead_id} does not exist.")
    if event_id is None:
        raise StaleState(
            f"This lead is now {STATE_LABELS.get(current, current)}, not "
            f"{STATE_LABELS[expected_state]}: someone changed it after this page was opened. "
            "Nothing was changed; look at the lead again before acting.",
            current,
        )
    current_app.logger.info(
        "Lead %s: %s -> %s by %s (event %s).", lead_id, expected_state, to_state, actor, event_id
    )
    if discarded:  # the rows went with the move; the files follow, and no copy stays in the WAL
        files.remove_files(discarded)
        truncate_wal()
    queue_what_follows(lead_id, to_state, actor, event_id)
    return event_id


def queue_what_follows(lead_id: int, to_state: str, actor: str, event_id: int) -> None:
    """The jobs a move queues, in the order they should run: a purchase's documents before the
    "paid" e-mail that attaches them, the seller's e-mail for the new state, staff's alert of a
    seller's own move, a purchase's report to the ad platforms (never for an opted-out
    seller), a sale by mail's return parcel when it closes (the job sends the watch back if it
    is with us; app/shipping/returns.py), and a payout the close cancelled called off at the
    bank (app/payouts/transfers.py)."""
    if to_state == State.BOUGHT:
        queue.enqueue(queue.MAKE_PURCHASE_DOCUMENTS, lead_id)
    if to_state in SELLER_EMAILS:
        queue.enqueue(queue.SEND_SELLER_EMAIL, lead_id, event_id)
    if actor == "seller":
        queue.enqueue(queue.ALERT_STAFF, lead_id, event_id)
    if to_state == State.BOUGHT:
        queue.enqueue(queue.REPORT_PURCHASE, lead_id)
    if to_state == State.CLOSED and (store.get_lead(lead_id) or {}).get("handover") == "mail":
        queue.enqueue(queue.OPEN_RETURN_PARCEL, lead_id)
    called_off = bank_payouts.to_call_off(get_db(), lead_id) if to_state == State.CLOSED else []
    for payout_id in called_off:  # its transfer called off at the bank too
        queue.enqueue(queue.SEND_PAYOUT, payout_id)


def ask_question(lead_id: int, text: str) -> int:
    """A seller's question from their status page (checked by its form): on the timeline, and
    e-mailed to staff."""
    event_id = history.add_event(lead_id, "seller", "question", {"message": text})
    queue.enqueue(queue.ALERT_STAFF, lead_id, event_id)
    return event_id


def add_note(lead_id: int, actor: str, text: str) -> int:
    """A note from `actor` on the lead's timeline, trimmed; returns the new event's id."""
    if not text.strip():
        raise MissingDetails("A note needs some text.")
    if store.get_lead(lead_id) is None:
        raise LeadNotFound(f"Lead {lead_id} does not exist.")
    return history.add_event(lead_id, actor, "note", {"note": text.strip()})
