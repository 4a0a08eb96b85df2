"""The serial number a seller may give on their status page once they have accepted the quote,
before anyone has seen the watch: kept whole on the lead for staff (`leads.sellers_serial`,
blanked when the lead is erased), on the timeline by its last 4 characters only, and put to the
stolen-watch register by a job when it is asked by API (register_asks.ask_about), so a flagged
watch is known before anyone travels or a label is bought. Given once: the page then hides the
form, and a second post changes nothing."""

from __future__ import annotations

from app.leads.db import immediate_transaction
from app.leads.history import append_event
from app.leads.state import State
from app.sale.purchase import register_asks, serials

# From the quote's acceptance until staff authenticate the watch (their findings, with the
# serial read on it, come with the final offer; a sale by mail's arrival reads it too).
GIVEN_STATES = (State.ACCEPTED, State.APPOINTMENT)
EVENT = "sellers_serial_given"


def can_give(lead: dict) -> bool:
    """Whether the status page offers the serial number's form: at a state that takes it, and
    not given yet."""
    return lead["state"] in GIVEN_STATES and not lead.get("sellers_serial")


def give(lead_id: int, serial: str) -> bool:
    """Keep the seller's serial number (as the register is asked it: capitals, without spaces
    or dashes) and ask the register about it when it is asked by API; False, changing nothing,
    when the lead is not at a state that takes it, already has one, or is erased."""
    serial = serials.normal(serial)
    marks = ", ".join("?" for _ in GIVEN_STATES)
    with immediate_transaction() as db:
        kept = db.execute(
            "UPDATE leads SET sellers_serial = ? WHERE id = ? AND sellers_serial IS NULL "
            f"AND erased_at IS NULL AND state IN ({marks})",
            (serial, lead_id, *GIVEN_STATES),
        ).rowcount
        if not kept:
            return False
        append_event(db, lead_id, "seller", EVENT, {"serial_last4": serial[-4:]})
    register_asks.ask_about(lead_id, serial, "sellers_serial")
    return True
