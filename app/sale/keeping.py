"""Why a lead's details and evidence are kept from erasure (docs/sale.md, "Erasure"): while its
watch travels to us, is with us, is held or travels back to its seller, and while a
stolen-watch register check of it stands flagged or a question to the register about it is
still open, no erasure runs, by the seller, by staff or by the daily retention. Its identity,
purchase record, register checks and certificate, ID photos and the arrival's photos and video
stay for as long as the law's retention requires; a restore's re-erasure of a lead erased
before is the one erasure never stopped (app/sale/erasure.py).

A seller is never told which of these it is: a refusal that came only with a flag would tell a
thief of it. So the seller's own request (`seller_may_ask`) is offered only while nothing is
under way that the seller knows of, and which could let the register answer: the quote not yet
past its acceptance, no serial number given or read on the watch, no label bought; refused, it
reads one sentence whatever the reason (app/status/messages.py). Staff read the reason.

The parcels are the sale by mail's (app/shipping/), read here by their table alone, as
authentication.parcel_received reads them: that package stands above this one.
"""

from __future__ import annotations

import sqlite3

from app.leads.state import State

# The quote's states before anything a seller does can put the watch or its serial in our
# hands: from the appointment on, or once the serial is given or a label bought, the seller
# asks for deletion only once it is all over (by replying to an e-mail; staff then erase).
ASKING_STATES = frozenset({State.NEW, State.CONTACTED, State.QUOTED, State.ACCEPTED})
# An inbound parcel in these states may be carrying the watch to us; delivered or received,
# the watch is with us. A parcel lost on either leg keeps nothing: the watch is in nobody's
# hands, and the insurer's records (the parcel, its claim) outlive an erasure; should the
# carrier deliver it after all, it keeps the lead again from then on.
ON_ITS_WAY = ("created", "label_ready", "in_transit", "out_for_delivery")
ENDED = ("delivered", "lost")


def register_keeps(db: sqlite3.Connection, lead_id: int) -> str | None:
    """Why the register keeps the lead, in staff's words: a flag standing, or a question not
    answered yet (its answer could be a flag); None otherwise."""
    flagged = db.execute(
        "SELECT 1 FROM purchases WHERE lead_id = ? AND register_result = 'flagged'", (lead_id,)
    ).fetchone()
    if flagged:
        return "its stolen-watch register check stands flagged"
    asking = db.execute(
        "SELECT 1 FROM register_asks WHERE lead_id = ? AND outcome IS NULL", (lead_id,)
    ).fetchone()
    return "a stolen-watch register question about its watch is still open" if asking else None


def parcels_keep(db: sqlite3.Connection, lead_id: int) -> str | None:
    """Why the lead's watch keeps it, in staff's words: held, on its way to us, with us, or on
    its way back (until its return is delivered); None when it never left the seller (no
    parcel, or only labels voided unused), is back with them, or was lost on the way."""
    parcels = db.execute(
        "SELECT inbound.state, inbound.return_held_at, back.state AS back_state "
        "FROM shipments AS inbound LEFT JOIN shipments AS back ON back.lead_id = inbound.lead_id "
        "AND back.leg = 'return' AND back.deal_event_id = inbound.deal_event_id "
        "WHERE inbound.lead_id = ? AND inbound.leg = 'inbound' AND inbound.state != 'voided'",
        (lead_id,),
    ).fetchall()
    for parcel in parcels:
        if parcel["return_held_at"]:
            return "its watch is held, not to be returned"
    for parcel in parcels:
        if parcel["state"] in ON_ITS_WAY:
            return "its watch is on its way to us"
        if parcel["state"] == "lost" or parcel["back_state"] in ENDED:
            continue
        if parcel["back_state"] is None or parcel["back_state"] == "voided":
            return "its watch is with us"
        return "its watch is on its way back to its seller"
    return None


def kept_because(db: sqlite3.Connection, lead_id: int) -> str | None:
    """Why the lead may not be erased now, in staff's words, or None."""
    return register_keeps(db, lead_id) or parcels_keep(db, lead_id)


def seller_may_ask(db: sqlite3.Connection, lead: dict) -> bool:
    """Whether the status page offers the seller to have their details deleted as they
    withdraw: only before anything under way could keep them, judged by what the seller knows
    and never by the register's answer (a request confirmed while something keeps the lead
    all the same waits: erasure.confirmed)."""
    if lead["state"] not in ASKING_STATES or lead.get("sellers_serial"):
        return False
    seen = db.execute(
        "SELECT 1 FROM purchases WHERE lead_id = ? AND serial_number IS NOT NULL", (lead["id"],)
    ).fetchone()
    labelled = db.execute(
        "SELECT 1 FROM shipments WHERE lead_id = ? AND state != 'voided'", (lead["id"],)
    ).fetchone()
    return not seen and not labelled
