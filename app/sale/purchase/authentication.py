"""What staff put on a lead's purchase record at and after the authentication (docs/sale.md,
"The purchase on record"): the watch's findings and the check of the seller's ID against the
signed paperwork (the stolen-watch register's checks are in stolen_register.py).

Each step reads the lead and its record under SQLite's write lock (immediate_transaction), then
writes the record and its timeline event in the same transaction: a lead that moved on since the
page was shown, or a second click, gets a clear refusal (Refused) and changes nothing.
"""

from __future__ import annotations

import sqlite3

from app.leads.db import immediate_transaction, now
from app.leads.history import append_event
from app.leads.state import State
from app.sale.purchase import record, serials

# From the appointment until the watch is bought (an accepted offer still takes corrections).
AT_AUTHENTICATION = (State.APPOINTMENT, State.OFFERED, State.AGREED)
FINDINGS = (
    "brand",
    "model_reference",
    "serial_number",
    "case_marks",
    "movement_marks",
    "condition_findings",
)


class Refused(ValueError):
    """A step the lead's state or record does not allow now; str() says why, fit to show."""


def lead_and_record(db: sqlite3.Connection, lead_id: int) -> tuple[dict, dict]:
    """The lead's state and erasure, and its purchase record ({} before there is one)."""
    lead = db.execute(
        "SELECT id, state, erased_at, handover FROM leads WHERE id = ?", (lead_id,)
    ).fetchone()
    if lead is None:
        raise Refused("This lead does not exist.")
    purchase = db.execute("SELECT * FROM purchases WHERE lead_id = ?", (lead_id,)).fetchone()
    return dict(lead), dict(purchase) if purchase else {}


def parcel_received(db: sqlite3.Connection, lead_id: int) -> bool:
    """Whether a sale by mail's parcel of the deal of now (the latest acceptance, or one that
    replaced it later: a new return address confirmed) is opened on record and received."""
    return (
        db.execute(
            "SELECT 1 FROM shipments WHERE lead_id = :lead AND leg = 'inbound' "
            "AND state = 'received' AND deal_event_id >= (SELECT max(id) FROM lead_events "
            "WHERE lead_id = :lead AND kind = 'state_changed' "
            "AND json_extract(data, '$.to') = 'accepted')",
            {"lead": lead_id},
        ).fetchone()
        is not None
    )


def authenticating(db: sqlite3.Connection, lead: dict) -> bool:
    """Whether the watch is with us to be authenticated: from the appointment until it is
    bought, or, sold by mail, from its parcel received (its final offer follows the accepted
    quote, and needs the findings first)."""
    if lead["erased_at"]:
        return False
    if lead["state"] in AT_AUTHENTICATION:
        return True
    by_mail = lead["state"] == State.ACCEPTED and lead.get("handover") == "mail"
    return by_mail and parcel_received(db, lead["id"])


def refuse_unless_authenticating(db: sqlite3.Connection, lead: dict) -> None:
    """Findings and register checks belong to a lead between its appointment (or its parcel
    by mail received) and payment."""
    if not authenticating(db, lead):
        raise Refused(
            "Findings and register checks are recorded from the appointment (or a parcel by "
            "mail received) until the watch is bought; this lead is past that point or closed. "
            "Nothing was changed."
        )


def record_findings(lead_id: int, actor: str, findings: dict) -> int:
    """Put the authentication's findings on the record (a correction replaces them, as a new
    event); the event's id. Once the seller signed a declaration naming the serial number, the
    serial number stays as signed (retyped in other spacing or case, it is the same one): the
    bill of sale proves that declaration by its hash."""
    with immediate_transaction() as db:
        lead, purchase = lead_and_record(db, lead_id)
        refuse_unless_authenticating(db, lead)
        serial = findings["serial_number"]
        if purchase.get("signed_at"):
            if not serials.same(serial, purchase["serial_number"]):
                raise Refused(
                    "The seller signed a declaration naming the serial number ending "
                    f"{purchase['serial_number'][-4:]}: it can no longer be changed. Nothing "
                    "was changed."
                )
            serial = purchase["serial_number"]
            findings = findings | {"serial_number": serial}
        values = {column: findings.get(column) or None for column in FINDINGS}
        record.update(db, lead_id, values | {"authenticated_by": actor, "authenticated_at": now()})
        return append_event(
            db, lead_id, actor, "authentication_recorded", {"serial_last4": serial[-4:]}
        )


def verify_id(lead_id: int, actor: str) -> int:
    """Record that `actor` compared the seller's ID photos and details with the seller; the
    event's id. Only once, for a lead whose accepted offer waits for payment and whose
    paperwork (with the ID) is signed."""
    with immediate_transaction() as db:
        lead, purchase = lead_and_record(db, lead_id)
        if lead["erased_at"] or lead["state"] != State.AGREED:
            raise Refused(
                "The ID is verified after the seller accepts the final offer and before the "
                "watch is bought; this lead is not at that point. Nothing was changed."
            )
        if not purchase.get("signed_at"):
            raise Refused(
                "The seller has not signed the paperwork yet, so there is no ID to compare. "
                "Nothing was changed."
            )
        if purchase.get("id_verified_at"):
            raise Refused("The ID was already verified. Nothing was changed.")
        record.update(db, lead_id, {"id_verified_by": actor, "id_verified_at": now()})
        return append_event(db, lead_id, actor, "id_verified", {})


def unsealed(purchase: dict, bank_numbers: bool = True) -> dict:
    """The paperwork's identity and bank numbers decrypted, for the staff page behind
    re-authentication only (a value already erased stays None); without `bank_numbers` (the
    payout sent through the bank's API), the routing and account numbers stay sealed."""
    bank = ("routing_number_enc", "account_number_enc")
    return {
        name: record.opened(purchase, column)
        for column, name in record.SEALED_COLUMNS.items()
        if bank_numbers or column not in bank
    }
