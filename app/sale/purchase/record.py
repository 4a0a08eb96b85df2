"""The `purchases` row of a lead: all of its SQL but the daily retention's (retention.py) and
the register's (register.py). One row per lead, made the first time anything is recorded for
its purchase; every change is also an event on the lead's timeline, in the same transaction.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

from flask import current_app

from app.leads import store
from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.history import append_event
from app.sale.purchase import crypto, drafts, files

PAYMENT_METHODS = {
    "ach": "ACH bank transfer",
    "ach_same_day": "Same-day ACH bank transfer",
    "wire": "Wire transfer",
    "rtp": "Instant bank transfer (RTP)",
    "fednow": "Instant bank transfer (FedNow)",
}
RECORDED_BY_HAND = ("ach", "wire")  # what staff pay from the bank's own site and record
# What the seller's paperwork put on the record, and the ID check made of it. A sale that does
# not happen keeps none of it; the findings and the register check describe the watch and stay.
PAPERWORK_COLUMNS = (
    "legal_name",
    "street_address",
    "city",
    "region",
    "postal_code",
    "birth_date_enc",
    "id_type",
    "id_number_enc",
    "id_number_last4",
    "id_issuer",
    "id_expires_on",
    "account_holder",
    "routing_number_enc",
    "account_number_enc",
    "account_number_last4",
    "declaration_sha256",
    "signed_name",
    "signed_at",
    "signed_ip",
    "signed_user_agent",
    "id_verified_by",
    "id_verified_at",
    "payout_confirmed_at",
    "payout_confirmed_by",
    "payout_callback_phone",
)

# The columns held sealed to their lead and column (app/sale/purchase/crypto.py), and the names
# of what they hold.
SEALED_COLUMNS = {
    "birth_date_enc": "birth_date",
    "id_number_enc": "id_number",
    "routing_number_enc": "routing_number",
    "account_number_enc": "account_number",
}


def sealed(lead_id: int, column: str, text: str) -> str:
    """`text` sealed for one encrypted column of this lead's record."""
    return crypto.encrypt(text, crypto.column_place(lead_id, column))


def sealed_values(lead_id: int, values: dict) -> dict:
    """Every encrypted column's value sealed, from `values` by the names they hold."""
    return {
        column: sealed(lead_id, column, values[name]) for column, name in SEALED_COLUMNS.items()
    }


def opened(purchase: dict, column: str) -> str | None:
    """One encrypted column of a record opened (None once erased); InvalidToken if no key
    opens it where it is."""
    if not (token := purchase.get(column)):
        return None
    return crypto.decrypt(token, crypto.column_place(purchase["lead_id"], column))


def get(lead_id: int) -> dict | None:
    """The lead's purchase record, or None before anything was recorded for it."""
    row = get_db().execute("SELECT * FROM purchases WHERE lead_id = ?", (lead_id,)).fetchone()
    return dict(row) if row else None


def update(db: sqlite3.Connection, lead_id: int, values: dict, condition: str = "1") -> bool:
    """Set `values` on the lead's row (made first if missing) inside the caller's transaction,
    only where `condition` (SQL on the row) holds; whether it did."""
    db.execute("INSERT OR IGNORE INTO purchases (lead_id) VALUES (?)", (lead_id,))
    assignments = ", ".join(f"{column} = :{column}" for column in values)
    cursor = db.execute(
        f"UPDATE purchases SET {assignments} WHERE lead_id = :lead_id AND ({condition})",
        values | {"lead_id": lead_id},
    )
    return cursor.rowcount == 1


def record(lead_id: int, actor: str, kind: str, values: dict, event: dict) -> int:
    """Set `values` on the lead's row and add the event `kind` with `event` (never a secret:
    the timeline is shown to staff and, in part, to the seller); the event's id."""
    with transaction() as db:
        update(db, lead_id, values)
        return append_event(db, lead_id, actor, kind, event)


def years_later(day: date, years: int) -> date:
    """The same day `years` later (28 February for a 29 February that year lacks)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def hold_ends_on(paid_on: date) -> date:
    """The first day the bought watch may be resold: PURCHASE_HOLD_DAYS after payment."""
    return paid_on + timedelta(days=current_app.config["PURCHASE_HOLD_DAYS"])


def record_payment(db: sqlite3.Connection, lead_id: int, actor: str, data: dict) -> None:
    """The payment of a lead being bought, inside the transaction that moves it: amount,
    method, date and the bank's confirmation, with the hold's end and how long it is kept."""
    paid_on = date.fromisoformat(data["paid_on"])
    retain = years_later(paid_on, current_app.config["PURCHASE_RETENTION_YEARS"])
    update(
        db,
        lead_id,
        {
            "paid_amount": int(data["amount"]),
            "payment_method": data["method"],
            "paid_on": paid_on.isoformat(),
            "bank_confirmation": data["confirmation"],
            "paid_at": data.get("paid_at"),  # the bank's time, for a payout it sent
            "paid_recorded_by": actor,
            "hold_ends_on": hold_ends_on(paid_on).isoformat(),
            "retain_until": retain.isoformat(),
        },
    )


def discard_paperwork(db: sqlite3.Connection, lead_id: int, actor: str) -> list[str]:
    """Inside the transaction that closes a lead from `agreed` (the sale will not happen): drop
    its signed paperwork, its ID photos' rows and its ID check, with the event that says so;
    nothing of it is needed any more, and a later final offer is signed afresh. The names of
    the photo files (and of any unsigned draft) to delete once committed."""
    draft = drafts.remove(db, lead_id)
    if not update(db, lead_id, dict.fromkeys(PAPERWORK_COLUMNS), "signed_at IS NOT NULL"):
        return draft
    names = files.remove(db, lead_id, files.ID_PHOTOS)
    append_event(db, lead_id, actor, "paperwork_discarded", {"photos": len(names)})
    return names + draft


# Kept no longer than the law needs: bank details after payment, the whole record past its
# retain_until (app/sale/retention.py decides when)

# The purchase record's personal fields, blanked once it is past retain_until: the paperwork's
# (the seller's identity, ID, bank details and signature record) and the register certificate.
# The outcome stays (reference, watch, dates, price, payment, register result, when it was
# signed and checked and the declaration's hash), so the dashboard's figures do not change.
OUTCOME_COLUMNS = ("declaration_sha256", "signed_at", "id_verified_by", "id_verified_at")
PERSONAL_FIELDS = (
    *(column for column in PAPERWORK_COLUMNS if column not in OUTCOME_COLUMNS),
    "register_certificate",
)
# Timeline data that named the seller's ID or account, even by its last 4: dropped with the record.
PERSONAL_EVENT_KEYS = ("id_last4", "account_last4")


def erase_payout_details(db: sqlite3.Connection, lead_id: int, actor: str) -> bool:
    """Inside the caller's transaction: the routing and account numbers gone (the holder's name
    and the account's last 4 stay, for the record of the payment), with the event that says
    so; False if they were already erased."""
    erased = update(
        db,
        lead_id,
        {"routing_number_enc": None, "account_number_enc": None, "payout_erased_at": now()},
        condition="payout_erased_at IS NULL",
    )
    if erased:
        append_event(db, lead_id, actor, "payout_details_erased")
    return erased


def forget_after_sale(db: sqlite3.Connection, lead_id: int, actor: str) -> list[str]:
    """A bought lead's purchase, inside the transaction erasing the lead at its seller's
    request: the bank details and the ID's photos go (the register needs the ID's details,
    not its images); the record and its documents stay until retain_until. The names of the
    files to delete once committed."""
    erase_payout_details(db, lead_id, actor)
    return files.remove(db, lead_id, files.ID_PHOTOS)


def drop_payout_checks(db: sqlite3.Connection, lead_id: int) -> None:
    """Inside the caller's transaction: the e-mailed checks of the payout account, each naming
    it by its last 4 digits, gone with the record they were made for."""
    db.execute("DELETE FROM payout_checks WHERE lead_id = ?", (lead_id,))


def erase_record(db: sqlite3.Connection, lead_id: int) -> list[str]:
    """Inside the caller's transaction, once its lead is marked erased: every personal field of
    the purchase record blanked, its exceptions' reasons and names' digests too, and every
    purchase file's row and payout account's check dropped, with the event that says so; the
    names of the files to delete once committed (none if it was already erased)."""
    values = dict.fromkeys(PERSONAL_FIELDS) | {"record_erased_at": now()}
    if not update(db, lead_id, values, condition="record_erased_at IS NULL"):
        return []
    db.execute(  # who asked, who approved and when stay: the approval's outcome
        "UPDATE approvals SET reason = '', subject = CASE kind WHEN 'holder_name' THEN '' "
        "ELSE subject END WHERE lead_id = ?",
        (lead_id,),
    )
    drop_payout_checks(db, lead_id)
    store.forget_event_keys(db, lead_id, PERSONAL_EVENT_KEYS)
    append_event(db, lead_id, "system", "purchase_record_erased")
    return files.remove(db, lead_id, files.KINDS)


def erase_kept_record(lead_id: int) -> bool:
    """The purchase record of a lead already erased at its seller's request, once past its
    retain_until: erase_record in a transaction of its own, then its files; False if another
    run erased it first."""
    with immediate_transaction() as db:
        if get(lead_id)["record_erased_at"]:
            return False
        names = erase_record(db, lead_id)
    files.remove_files(names)
    return True
