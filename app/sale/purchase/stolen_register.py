"""The stolen-watch register checks of a lead's watch (docs/sale.md, "Exceptions need a second
person"): each check is a new row of `register_checks`, none is changed or removed, and the
one that counts stands on the purchase row (purchases.register_*), which the checklist before
`bought`, the transaction register and the documents read.

The latest check counts, with one exception: once a check came back flagged, a later clear
check counts only when a second staff member approves clearing the flag (approvals.py), so one
staff account cannot clear a flagged watch and buy it. A check is dated between the watch's
authentication (the register is searched for the serial number it read) and today, and is of
that serial number only: once staff correct the serial in the findings, `bought` needs a new
clear check (checklist.py compares the two). Before the findings, a watch received by mail has
its serial seen at its arrival: a check of that one is recorded from the arrival on, its sale
closed included, since the watch goes back only after a clear check of it.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from app import queue
from app.leads.db import get_db, immediate_transaction, now
from app.leads.display import business_day, business_today
from app.leads.history import append_event
from app.leads.state import State
from app.photos import decoding
from app.rendering.dates import display_date
from app.replica import copies
from app.sale.purchase import files, record, serials
from app.sale.purchase.authentication import Refused, authenticating, lead_and_record
from app.sale.purchase.paperwork import ID_PHOTO_ERRORS

RESULTS = {"clear": "Clear", "flagged": "Flagged"}
CERTIFICATE_MAX_BYTES = 10 * 1024 * 1024
PDF = "application/pdf"
CERTIFICATE_IMAGES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
CERTIFICATE_CHECK_SIDE = 512  # proving it an image needs every byte read, not every pixel kept


def certificate_type(data: bytes) -> str | None:
    """A register certificate's media type, known by its bytes: a PDF by its signature, or an
    image Pillow decodes whole within a memory bound (PNG, JPEG or WebP, at most
    PHOTO_MAX_PIXELS: app/photos/decoding.py); None for anything else."""
    if data.startswith(b"%PDF-"):
        return PDF
    try:
        with decoding.open_within(data, CERTIFICATE_CHECK_SIDE) as image:
            found = image.format
    except ID_PHOTO_ERRORS:
        return None
    return CERTIFICATE_IMAGES.get(found)


def serial_seen(db: sqlite3.Connection, lead_id: int) -> tuple[str | None, str | None]:
    """The serial staff read on the watch, and when: the findings' serial and their time, or,
    before them, the one typed when its parcel by mail was opened on record and that time
    (app/shipping/arrival.py); (None, None) while nobody has seen the watch."""
    purchase = db.execute(
        "SELECT serial_number, authenticated_at FROM purchases WHERE lead_id = ?", (lead_id,)
    ).fetchone()
    if purchase and purchase["serial_number"]:
        return purchase["serial_number"], purchase["authenticated_at"]
    arrived = db.execute(
        "SELECT arrivals.serial, arrivals.recorded_at FROM arrivals "
        "JOIN shipments ON shipments.id = arrivals.shipment_id "
        "WHERE shipments.lead_id = ? ORDER BY arrivals.id DESC LIMIT 1",
        (lead_id,),
    ).fetchone()
    return (arrived["serial"], arrived["recorded_at"]) if arrived else (None, None)


def checkable(db: sqlite3.Connection, lead: dict) -> bool:
    """Whether a check of the serial seen on the watch may be recorded: while it is with us to
    be authenticated, or from its arrival by mail on, closed included (its return waits for a
    clear check), until it is bought."""
    if authenticating(db, lead):
        return True
    if lead["erased_at"] or lead["state"] == State.BOUGHT:
        return False
    return serial_seen(db, lead["id"])[0] is not None


def clear_of_serial_seen(db: sqlite3.Connection, lead_id: int) -> bool:
    """Whether the check that counts is clear and of the serial seen on the watch (however it
    was typed): what a watch received by mail needs before it goes back."""
    purchase = db.execute(
        "SELECT register_result, register_serial FROM purchases WHERE lead_id = ?", (lead_id,)
    ).fetchone()
    clear = purchase is not None and purchase["register_result"] == "clear"
    return clear and serials.same(purchase["register_serial"], serial_seen(db, lead_id)[0])


def refuse_unless_dated_well(seen_at: str | None, checked_on: date) -> None:
    """A check is made of the serial number staff read on the watch (at the authentication, or
    at its arrival by mail), and not in the future."""
    if not seen_at:
        raise Refused(
            "Record the authentication's findings first: the register is searched for the "
            "serial number they give. Nothing was changed."
        )
    seen = business_day(seen_at)
    if checked_on < seen:
        raise Refused(
            f"A check dated {display_date(checked_on.isoformat())} is older than the watch's "
            f"authentication on {display_date(seen.isoformat())}: search the register again "
            "for this serial number. Nothing was changed."
        )
    if checked_on > business_today():
        raise Refused("A register check cannot be dated in the future. Nothing was changed.")


def standing_columns(check: dict) -> dict:
    """The purchase row's columns that say which check counts."""
    return {
        "register_provider": check["provider"],
        "register_checked_on": check["checked_on"],
        "register_result": check["result"],
        "register_certificate": check["certificate"],
        "register_recorded_by": check["recorded_by"],
        "register_serial": check["serial_number"],
        "register_reference": check.get("provider_reference"),
    }


def record_check(lead_id: int, actor: str, check: dict, certificate: bytes, media_type: str,
                 of_serial: str | None = None) -> int:  # fmt: skip
    """Add a register check with its certificate (the next version of the lead's certificate
    file); the event's id. It counts at once, unless it is clear while a flagged check stands:
    then it waits for a second staff member's approval, and the flag keeps the lead from being
    bought (checklist.BEFORE_PURCHASE). A check `of_serial`, another serial than the findings'
    (the one the seller gave, asked of the register before anyone authenticated the watch, or
    one staff corrected since it was asked), is recorded from the quote on, so a flag on it
    holds the sale before anyone travels; and a flag always holds: it is recorded whatever the
    lead's state, unless the lead is erased. A check of a closed sale by mail decides its
    watch's return (app/shipping/returns.py), by a job."""
    event_id = store_check(lead_id, actor, check, (certificate, media_type), of_serial)
    copies.sync_later(lead_id)
    lead = lead_and_record(get_db(), lead_id)[0]
    if lead["state"] == State.CLOSED and lead["handover"] == "mail":
        queue.enqueue(queue.OPEN_RETURN_PARCEL, lead_id)  # it goes back, or is held, or waits
    return event_id


def refuse_unless_checkable(db, lead: dict, check: dict, of_serial: str | None) -> None:
    """A check of the serial seen on the watch belongs from its authentication (or its arrival
    by mail) until payment, dated since; one of another serial, to any lead still open; a flag
    of another serial, to any lead not erased (a flag always holds)."""
    if of_serial is None:
        if not checkable(db, lead):
            raise Refused(
                "Register checks are recorded from the appointment, or from a parcel's arrival "
                "by mail, until the watch is bought; this lead is not at that point. Nothing was "
                "changed."
            )
        refuse_unless_dated_well(
            serial_seen(db, lead["id"])[1], date.fromisoformat(check["checked_on"])
        )
    elif lead["erased_at"]:
        raise Refused("This lead is erased: no check is recorded. Nothing was changed.")
    elif check["result"] != "flagged" and lead["state"] in (State.BOUGHT, State.CLOSED):
        raise Refused("This lead is bought or closed: no check is recorded. Nothing was changed.")


def store_check(lead_id: int, actor: str, check: dict, certificate: tuple[bytes, str],
                of_serial: str | None) -> int:  # fmt: skip
    """record_check's one transaction: the certificate's file, the check's row and event."""
    written: list[str] = []
    try:
        with immediate_transaction() as db:
            lead, purchase = lead_and_record(db, lead_id)
            refuse_unless_checkable(db, lead, check, of_serial)
            row = files.add_file(db, lead_id, "register_certificate", *certificate)
            written.append(row["file_name"])
            kept = check | {
                "certificate": row["public_id"],
                "recorded_by": actor,
                "serial_number": of_serial or serial_seen(db, lead_id)[0],
            }
            check_id = add_row(db, lead_id, kept)
            waits = purchase.get("register_result") == "flagged" and check["result"] == "clear"
            if not waits:
                record.update(db, lead_id, standing_columns(kept))
            event = check | {"check": check_id, "awaits_approval": waits}
            return append_event(db, lead_id, actor, "register_checked", event)
    except BaseException:
        files.remove_files(written)
        raise


def add_row(db: sqlite3.Connection, lead_id: int, check: dict) -> int:
    """Append one check to the lead's history; its id."""
    cursor = db.execute(
        "INSERT INTO register_checks (lead_id, provider, checked_on, result, certificate, "
        "recorded_by, serial_number, provider_reference, recorded_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            lead_id,
            check["provider"],
            check["checked_on"],
            check["result"],
            check["certificate"],
            check["recorded_by"],
            check["serial_number"],
            check.get("provider_reference"),
            now(),
        ),
    )
    return cursor.lastrowid


def history(lead_id: int) -> list[dict]:
    """Every check of the lead's watch, newest first."""
    rows = get_db().execute(
        "SELECT * FROM register_checks WHERE lead_id = ? ORDER BY id DESC", (lead_id,)
    )
    return [dict(row) for row in rows]


def awaiting_approval(db: sqlite3.Connection, lead_id: int) -> dict | None:
    """The latest check, when it is a clear one that does not count yet because a flagged check
    stands; else None."""
    latest = db.execute(
        "SELECT * FROM register_checks WHERE lead_id = ? ORDER BY id DESC LIMIT 1", (lead_id,)
    ).fetchone()
    standing = db.execute(
        "SELECT register_result FROM purchases WHERE lead_id = ?", (lead_id,)
    ).fetchone()
    if latest and latest["result"] == "clear" and standing and standing[0] == "flagged":
        return dict(latest)
    return None


def clear_flag(db: sqlite3.Connection, lead_id: int, check_id: int) -> None:
    """Inside the transaction that approves it: the clear check `check_id` counts from now on.
    Refused unless it is still the latest check and still waiting."""
    waiting = awaiting_approval(db, lead_id)
    if waiting is None or waiting["id"] != check_id:
        raise Refused(
            "That register check is no longer the latest one waiting to clear the flag. "
            "Nothing was changed."
        )
    record.update(db, lead_id, standing_columns(waiting))
