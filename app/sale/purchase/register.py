"""The transaction register: one row per purchase paid in a period, with what police reporting
of second-hand purchases asks for (the seller's identity and ID, the watch and its marks, the
price, the staff member and the stolen-watch register's result), as CSV. The same rows for
/staff/register and `flask purchases register`; both are audited by their callers.

Cells go through export.cell, so a seller's text never becomes a spreadsheet formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from flask import current_app

from app import queue
from app.leads.db import get_db
from app.leads.display import business_zone, stored_time
from app.leads.export import cell
from app.sale.purchase import crypto, record
from app.sale.purchase.paperwork import ID_TYPES
from app.sale.purchase.record import PAYMENT_METHODS

COLUMNS = (
    ("purchased_at", "Purchased at"),
    ("reference", "Reference"),
    ("legal_name", "Seller's legal name"),
    ("street_address", "Street address"),
    ("city", "City"),
    ("region", "State"),
    ("postal_code", "ZIP code"),
    ("birth_date", "Date of birth"),
    ("id_type", "ID type"),
    ("id_number", "ID number"),
    ("id_issuer", "ID issuer"),
    ("id_expires_on", "ID expiry"),
    ("watch_brand", "Brand"),
    ("watch_model", "Model"),
    ("model_reference", "Model reference"),
    ("serial_number", "Serial number"),
    ("case_marks", "Case marks"),
    ("movement_marks", "Movement marks"),
    ("paid_amount", "Price paid (USD)"),
    ("payment_method", "Payment method"),
    ("paid_on", "Paid on"),
    ("staff_member", "Staff member"),
    ("register_provider", "Register checked"),
    ("register_checked_on", "Register checked on"),
    ("register_result", "Register result"),
    ("register_reference", "Register reference"),
    ("hold_ends_on", "Hold ends on"),
)
# Purchases paid in the period whose record is still kept, in the order they were made; the
# time is the `bought` event's, the staff member the one who recorded the payment, and the
# brand the one staff read on the watch (the seller's choice on /sell only for older records).
PAID_IN_PERIOD = """
    SELECT purchases.*, leads.reference, leads.watch_model,
        coalesce(nullif(purchases.brand, ''), leads.watch_brand) AS watch_brand,
        lead_progress.bought_at, staff.name AS staff_member
    FROM purchases
    JOIN leads ON leads.id = purchases.lead_id
    LEFT JOIN lead_progress ON lead_progress.lead_id = purchases.lead_id
    LEFT JOIN staff ON 'staff:' || staff.id = purchases.paid_recorded_by
    WHERE purchases.paid_on BETWEEN :first AND :last AND purchases.record_erased_at IS NULL
    ORDER BY purchases.paid_on, lead_progress.bought_at, purchases.lead_id
"""


def local_moment(iso: str | None) -> str:
    """A stored UTC time as '2026-11-24 14:05 EST' in the business's time zone."""
    if not iso:
        return ""
    return f"{stored_time(iso).astimezone(business_zone()):%Y-%m-%d %H:%M %Z}"


def register_row(row: dict) -> dict:
    """One purchase as the register reads it: numbers decrypted, codes as words."""
    return row | {
        "purchased_at": local_moment(row["bought_at"]),
        "birth_date": record.opened(row, "birth_date_enc") or "",
        "id_number": record.opened(row, "id_number_enc") or "",
        "id_type": ID_TYPES.get(row["id_type"], row["id_type"]),
        "payment_method": PAYMENT_METHODS.get(row["payment_method"], row["payment_method"]),
        "staff_member": row["staff_member"] or row["paid_recorded_by"],
    }


@dataclass(frozen=True)
class Register:
    """A period's register: its rows, and the references of the purchases left out because a
    value of theirs opens with no configured key (named to staff; one bad row stops nothing)."""

    rows: list[dict]
    unreadable: list[str]


def register_of(first: date, last: date) -> Register:
    """The purchases paid from `first` to `last` (both days included) as the register reads
    them; each one no key opens is left out, named, logged as an error, and staff are e-mailed
    about it (once a day, worker.jobs.alert_unreadable_purchase)."""
    found = get_db().execute(PAID_IN_PERIOD, {"first": first.isoformat(), "last": last.isoformat()})
    rows, unreadable = [], []
    for row in found:
        try:
            rows.append(register_row(dict(row)))
        except crypto.InvalidToken:
            unreadable.append(row["reference"])
            current_app.logger.error(
                "Purchase %s: a value opens with no key in PURCHASE_DATA_KEY; it is left out of "
                "the transaction register.",
                row["reference"],
            )
            queue.enqueue(queue.ALERT_UNREADABLE_PURCHASE, row["lead_id"])
    return Register(rows, unreadable)


def purchases_paid(first: date, last: date) -> list[dict]:
    """The register's rows: purchases paid from `first` to `last` (both days included)."""
    return register_of(first, last).rows


def unreadable_warning(references: list[str]) -> str:
    """What staff are told of the purchases left out of a register."""
    return (
        f"Left out, because a value of theirs opens with none of the configured keys: "
        f"{', '.join(references)}. Restore PURCHASE_DATA_KEY's old key, then export again: "
        "these purchases must be in the register."
    )


def period_facts(first: date, last: date, shown: Register) -> dict:
    """What the audit log keeps of a register shown or exported: the period, its rows, and any
    purchase left out."""
    facts = {"from": first.isoformat(), "to": last.isoformat(), "rows": len(shown.rows)}
    return facts | ({"unreadable": shown.unreadable} if shown.unreadable else {})


def csv_text(rows: Iterable[dict]) -> str:
    """The register as CSV, its header first."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([label for _, label in COLUMNS])
    for row in rows:
        writer.writerow([cell(row[key]) for key, _ in COLUMNS])
    return buffer.getvalue()
