"""What staff put on a lead's purchase record at and after the authentication (docs/sale.md,
"The purchase on record"): the watch's findings, the stolen-watch register check with its
certificate, and the check of the seller's ID against the signed paperwork.

Each step reads the lead and its record under SQLite's write lock (immediate_transaction), then
writes the record and its timeline event in the same transaction: a lead that moved on since the
page was shown, or a second click, gets a clear refusal (Refused) and changes nothing.
"""

from __future__ import annotations

import io
import sqlite3

from PIL import Image

from app.leads.db import immediate_transaction, now
from app.leads.history import append_event
from app.leads.state import State
from app.sale.purchase import crypto, files, record
from app.sale.purchase.paperwork import ID_PHOTO_ERRORS

# From the appointment until the watch is bought (an accepted offer still takes corrections).
AT_AUTHENTICATION = (State.APPOINTMENT, State.OFFERED, State.AGREED)
FINDINGS = (
    "model_reference",
    "serial_number",
    "case_marks",
    "movement_marks",
    "condition_findings",
)
REGISTER_RESULTS = {"clear": "Clear", "flagged": "Flagged"}
CERTIFICATE_MAX_BYTES = 10 * 1024 * 1024
PDF = "application/pdf"
CERTIFICATE_IMAGES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
# The paperwork's encrypted columns, and the names the staff page shows them under.
SEALED = {
    "birth_date_enc": "birth_date",
    "id_number_enc": "id_number",
    "routing_number_enc": "routing_number",
    "account_number_enc": "account_number",
}


class Refused(ValueError):
    """A step the lead's state or record does not allow now; str() says why, fit to show."""


def lead_and_record(db: sqlite3.Connection, lead_id: int) -> tuple[dict, dict]:
    """The lead's state and erasure, and its purchase record ({} before there is one)."""
    lead = db.execute("SELECT state, erased_at FROM leads WHERE id = ?", (lead_id,)).fetchone()
    if lead is None:
        raise Refused("This lead does not exist.")
    purchase = db.execute("SELECT * FROM purchases WHERE lead_id = ?", (lead_id,)).fetchone()
    return dict(lead), dict(purchase) if purchase else {}


def refuse_unless_authenticating(lead: dict) -> None:
    """Findings and register checks belong to a lead between its appointment and payment."""
    if lead["erased_at"] or lead["state"] not in AT_AUTHENTICATION:
        raise Refused(
            "Findings and register checks are recorded from the appointment until the watch is "
            "bought; this lead is past that point or closed. Nothing was changed."
        )


def record_findings(lead_id: int, actor: str, findings: dict) -> int:
    """Put the authentication's findings on the record (a correction replaces them, as a new
    event); the event's id. Once the seller signed a declaration naming the serial number, the
    serial number stays: the bill of sale proves that declaration by its hash."""
    with immediate_transaction() as db:
        lead, purchase = lead_and_record(db, lead_id)
        refuse_unless_authenticating(lead)
        serial = findings["serial_number"]
        if purchase.get("signed_at") and serial != purchase["serial_number"]:
            raise Refused(
                "The seller signed a declaration naming the serial number ending "
                f"{purchase['serial_number'][-4:]}: it can no longer be changed. Nothing was "
                "changed."
            )
        values = {column: findings.get(column) or None for column in FINDINGS}
        record.update(db, lead_id, values | {"authenticated_by": actor, "authenticated_at": now()})
        return append_event(
            db, lead_id, actor, "authentication_recorded", {"serial_last4": serial[-4:]}
        )


def certificate_type(data: bytes) -> str | None:
    """A register certificate's media type, known by its bytes: a PDF by its signature, or an
    image Pillow decodes whole (PNG, JPEG or WebP); None for anything else."""
    if data.startswith(b"%PDF-"):
        return PDF
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            found = image.format
    except ID_PHOTO_ERRORS:
        return None
    return CERTIFICATE_IMAGES.get(found)


def record_register_check(
    lead_id: int, actor: str, check: dict, certificate: bytes, media_type: str
) -> int:
    """Put a stolen-watch register check on the record with its certificate (kept as the next
    version of the lead's certificate file); the event's id. A flagged result stays on the
    record and keeps the lead from being bought (checklist.BEFORE_PURCHASE)."""
    written: list[str] = []
    try:
        with immediate_transaction() as db:
            lead, _ = lead_and_record(db, lead_id)
            refuse_unless_authenticating(lead)
            row = files.add_file(db, lead_id, "register_certificate", certificate, media_type)
            written.append(row["file_name"])
            values = {
                "register_provider": check["provider"],
                "register_checked_on": check["checked_on"],
                "register_result": check["result"],
                "register_certificate": row["public_id"],
                "register_recorded_by": actor,
            }
            record.update(db, lead_id, values)
            return append_event(db, lead_id, actor, "register_checked", check)
    except BaseException:
        files.remove_files(written)
        raise


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


def unsealed(purchase: dict) -> dict:
    """The paperwork's identity and bank numbers decrypted, for the staff page behind
    re-authentication only (a value already erased stays None)."""
    return {
        name: crypto.decrypt(purchase[column]) if purchase.get(column) else None
        for column, name in SEALED.items()
    }
