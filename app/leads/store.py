"""Lead records and their state changes in leads.db: saving a submission, photos, status links,
the work done on a lead, moving it between states and erasing it.

A lead is committed here before any background work is queued, so nothing a seller sent is
lost when Redis, SMTP or an outside endpoint is down. meta_event_id is unique: the same submit
sent twice is one lead. The timeline's SQL is in history.py, the inbox's in search.py.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from app.leads import email_kinds, storage
from app.leads.db import get_db, now, transaction, truncate_wal
from app.leads.history import append_event
from app.leads.reference import new_photo_id, new_reference

WORK_COLUMNS = (
    "photos_processed_at",
    "staff_notified_at",
    "conversions_sent_at",
    "seller_confirmed_at",
)
# The work columns that record an e-mail sent, by its kind: once claimed it is not owed, even
# while the column stays empty (its send unsure, before staff).
WORK_EMAILS = {
    "staff_notified_at": email_kinds.NEW_LEAD,
    "seller_confirmed_at": email_kinds.CONFIRMATION,
}
LEAD_FIELDS = (
    "full_name",
    "email",
    "phone",
    "watch_brand",
    "watch_model",
    "watch_year",
    "watch_condition",
    "has_box",
    "has_papers",
    "additional_details",
    "source",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "meta_event_id",
    "client_ip",
    "user_agent",
    "ga_client_id",
    "ad_opt_out",
    "fbc",
    "fbp",
    "gclid",
    "gbraid",
    "wbraid",
    "google_click_at",
    "landing_page",
    "referrer_host",
    "instant_range",
    "handover",
    "postal_code",
)
PHOTO_COUNT = "(SELECT count(*) FROM lead_photos WHERE lead_id = leads.id) AS photo_count"


def save_lead(lead: dict, photos: list[dict]) -> tuple[int, bool]:
    """Insert a lead (state `new`, a fresh reference, a `submitted` event) and its photos in one
    transaction; (id, False) if its event id exists."""
    created_at = now()
    row = {field: lead.get(field) for field in LEAD_FIELDS} | {
        "created_at": created_at,
        "last_activity_at": created_at,
    }
    with transaction() as db:
        cursor = insert_with_reference(db, row)
        if cursor.rowcount == 0:
            existing = db.execute(
                "SELECT id FROM leads WHERE meta_event_id = ?", (row["meta_event_id"],)
            ).fetchone()
            return existing["id"], False
        lead_id = cursor.lastrowid
        insert_photos(db, lead_id, photos, first_position=1)
        append_event(db, lead_id, "seller", "submitted", {"photos": len(photos)}, created_at)
        return lead_id, True


def insert_with_reference(db: sqlite3.Connection, row: dict) -> sqlite3.Cursor:
    """INSERT the lead with a new random reference, drawing again if one is already taken."""
    while True:
        values = row | {"reference": new_reference()}
        columns = ", ".join(values)
        marks = ", ".join(f":{name}" for name in values)
        try:
            return db.execute(
                f"INSERT INTO leads ({columns}) VALUES ({marks}) "
                "ON CONFLICT(meta_event_id) DO NOTHING",
                values,
            )
        except sqlite3.IntegrityError as error:
            if "leads.reference" not in str(error):
                raise


def insert_photos(
    db: sqlite3.Connection, lead_id: int, photos: list[dict], first_position: int
) -> None:
    """Rows for stored uploads, numbered from `first_position`, each with an unguessable id."""
    db.executemany(
        "INSERT INTO lead_photos (lead_id, position, original_name, upload_name, public_id) "
        "VALUES (?, ?, ?, ?, ?)",
        [
            (lead_id, position, photo["original_name"], photo["upload_name"], new_photo_id())
            for position, photo in enumerate(photos, start=first_position)
        ],
    )


class NoRoom(Exception):
    """The photos would take the lead past its limit; nothing was added."""


def add_photos(lead_id: int, photos: list[dict], max_count: int) -> int:
    """Add a seller's later photos to their lead, all of them or none, and record it; returns
    the event's id. Raises NoRoom past `max_count` photos in all, LookupError for a lead that
    is gone or erased.

    The UPDATE comes first so this transaction holds the write lock before it counts: two
    uploads at once cannot both fit in the last free places. It also marks the photos as
    unprocessed, so the photo job (and the sweep after a crash) takes the new ones.
    """
    with transaction() as db:
        cursor = db.execute(
            "UPDATE leads SET photos_processed_at = NULL WHERE id = ? AND erased_at IS NULL",
            (lead_id,),
        )
        if cursor.rowcount == 0:
            raise LookupError(f"Lead {lead_id} cannot take photos.")
        count, last = db.execute(
            "SELECT count(*), coalesce(max(position), 0) FROM lead_photos WHERE lead_id = ?",
            (lead_id,),
        ).fetchone()
        if count + len(photos) > max_count:
            db.rollback()
            raise NoRoom(f"Lead {lead_id} has {count} photos.")
        insert_photos(db, lead_id, photos, first_position=last + 1)
        return append_event(db, lead_id, "seller", "photos_added", {"photos": len(photos)})


def get_lead(lead_id: int) -> dict | None:
    """One lead's row, erased or not; None if there is no such lead."""
    row = get_db().execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
    return dict(row) if row else None


def lead_photos(lead_id: int) -> list[dict]:
    """A lead's photos in the order the seller sent them."""
    rows = get_db().execute(
        "SELECT * FROM lead_photos WHERE lead_id = ? ORDER BY position", (lead_id,)
    )
    return [dict(row) for row in rows]


def named_uploads(names: list[str]) -> set[str]:
    """Which of these raw upload file names a photo row names."""
    found = set()
    for start in range(0, len(names), 500):  # under SQLite's limit on bound values
        chunk = names[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        rows = get_db().execute(
            f"SELECT upload_name FROM lead_photos WHERE upload_name IN ({marks})", chunk
        )
        found.update(row["upload_name"] for row in rows)
    return found


def lead_photo(lead_id: int, public_id: str) -> dict | None:
    """One photo by its public id, only if it belongs to `lead_id`."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM lead_photos WHERE lead_id = ? AND public_id = ?", (lead_id, public_id)
        )
        .fetchone()
    )
    return dict(row) if row else None


def record_photo(photo_id: int, **result) -> bool:
    """Store what processing made of one photo (image, thumbnail, size, or why it was refused);
    False if the photo is gone, its lead erased while the job worked: then the files processing
    made are deleted instead, so none of an erased lead's survive whichever went first. (The
    UPDATE and the erasure's DELETE each hold the write lock: one of them sees the other's.)"""
    allowed = {"image_name", "thumb_name", "width", "height", "error"}
    assignments = ", ".join(f"{name} = :{name}" for name in result if name in allowed)
    with transaction() as db:
        cursor = db.execute(
            f"UPDATE lead_photos SET {assignments} WHERE id = :id", result | {"id": photo_id}
        )
    if cursor.rowcount == 0:
        storage.remove_processed_files(result)
    return cursor.rowcount == 1


def mark_done(lead_id: int, column: str, details: dict | None = None) -> None:
    """Record that one piece of a lead's background work has finished (never repeated), with
    any details the timeline should show (why nothing was sent, say)."""
    if column not in WORK_COLUMNS:
        raise ValueError(f"{column} is not a work column")
    data = {"work": column.removesuffix("_at"), **(details or {})}
    with transaction() as db:
        db.execute(f"UPDATE leads SET {column} = ? WHERE id = ?", (now(), lead_id))
        append_event(db, lead_id, "system", "work_done", data)


def pending_work(lead: dict) -> list[str]:
    """The work columns of a lead that are not done yet."""
    return [column for column in WORK_COLUMNS if not lead.get(column)]


def work_status(lead: dict) -> str:
    """A lead's work for the listings: 'done', or 'pending: ' and the steps not done yet."""
    pending = pending_work(lead)
    return "pending: " + ", ".join(c.removesuffix("_at") for c in pending) if pending else "done"


def leads_with_pending_work(created_before: str | None = None) -> list[dict]:
    """Leads with work not done yet, oldest first, created before a time if given; an erased
    lead has none left (nothing to process or send), nor has one whose e-mail is claimed."""
    conditions = " OR ".join(
        f"({column} IS NULL AND {email_kinds.unclaimed(WORK_EMAILS[column], 'leads.id')})"
        if column in WORK_EMAILS
        else f"{column} IS NULL"
        for column in WORK_COLUMNS
    )
    rows = get_db().execute(
        f"SELECT * FROM leads WHERE ({conditions}) AND erased_at IS NULL AND created_at < ? "
        "ORDER BY id",
        (created_before or "9999",),
    )
    return [dict(row) for row in rows]


def mark_ad_opt_out(lead_id: int, how: str, actor: str) -> bool:
    """The seller's "do not sell or share" choice, however and whenever it is expressed after
    the sell form (GPC or the choices cookie on their status page, or told to staff): kept on
    the lead, which every send and the Google Ads file read at the time they run, with its
    event. Never taken back here; whether it is new."""
    with transaction() as db:
        changed = db.execute(
            "UPDATE leads SET ad_opt_out = ? WHERE id = ? AND ad_opt_out IS NULL",
            (how, lead_id),
        ).rowcount
        if changed:
            append_event(db, lead_id, actor, "ad_opt_out", {"how": how})
    return bool(changed)


def change_state(
    lead_id: int,
    expected: str,
    to: str,
    actor: str,
    data: dict,
    within: Callable[[], None] = lambda: None,
) -> tuple[int | None, str | None]:
    """Move a lead from `expected` to `to` and record it, atomically, with whatever `within`
    does (it runs once the UPDATE holds the write lock; if it raises, nothing is changed).

    The UPDATE only matches while the lead is still in `expected` (and not erased), so of two
    people acting on the same lead at once exactly one succeeds. Returns (event id, state) on
    success, or (None, the state the lead is really in; None if there is no such lead).
    """
    with transaction() as db:
        cursor = db.execute(
            "UPDATE leads SET state = ? WHERE id = ? AND state = ? AND erased_at IS NULL",
            (to, lead_id, expected),
        )
        if cursor.rowcount == 0:
            row = db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()
            return None, row["state"] if row else None
        within()
        event = {"from": expected, "to": to} | data
        return append_event(db, lead_id, actor, "state_changed", event), to


def erase_lead(
    lead_id: int,
    actor: str,
    blank: dict,
    event_keys: tuple[str, ...],
    state: str,
    purchase: Callable[[sqlite3.Connection, int], list[str]],
) -> tuple[list[dict], list[str]]:
    """Blank the personal fields of a lead in `state`, drop its photo rows, links and erasure
    requests, and the `event_keys` of its events' data (personal details), deal with its
    purchase (`purchase`: dropped for a closed lead; for a bought one, what the law does not
    require), and record the erasure; then empty the WAL, so with secure_delete (db.open_db)
    no copy of what was blanked is left on disk. Returns the photo rows and the purchase file
    names, whose files the caller deletes.

    Refused (LookupError) unless the lead is in `state` and not yet erased, checked in the same
    UPDATE that marks it erased.
    """
    assignments = ", ".join(f"{column} = :{column}" for column in blank)
    with transaction() as db:
        cursor = db.execute(
            f"UPDATE leads SET {assignments}, erased_at = :erased_at "
            "WHERE id = :id AND state = :state AND erased_at IS NULL",
            blank | {"erased_at": now(), "id": lead_id, "state": state},
        )
        if cursor.rowcount == 0:
            raise LookupError(f"Lead {lead_id} is not a {state} lead that can be erased.")
        photos = db.execute(
            "SELECT upload_name, image_name, thumb_name FROM lead_photos WHERE lead_id = ?",
            (lead_id,),
        ).fetchall()
        db.execute("DELETE FROM lead_photos WHERE lead_id = ?", (lead_id,))
        db.execute("DELETE FROM status_links WHERE lead_id = ?", (lead_id,))
        db.execute("DELETE FROM erasure_requests WHERE lead_id = ?", (lead_id,))
        for table in ("mail_preparations", "address_changes"):  # a sale by mail's addresses
            db.execute(f"DELETE FROM {table} WHERE lead_id = ?", (lead_id,))
        db.execute(  # staff's words about a parcel's claim: the claim itself is kept for ever
            "UPDATE shipment_claims SET note = '' WHERE note <> '' "
            "AND shipment_id IN (SELECT id FROM shipments WHERE lead_id = ?)",
            (lead_id,),
        )
        purchase_files = purchase(db, lead_id)
        forget_event_keys(db, lead_id, event_keys)
        append_event(db, lead_id, actor, "erased", {"photos": len(photos)})
    truncate_wal()  # the WAL's older frames still hold what was just blanked
    return [dict(photo) for photo in photos], purchase_files


def forget_event_keys(db: sqlite3.Connection, lead_id: int, keys: tuple[str, ...]) -> None:
    """Remove these keys from the data of an erased lead's events, inside the transaction
    that erases (the only rewrite of the timeline its triggers allow)."""
    events = db.execute("SELECT id, data FROM lead_events WHERE lead_id = ?", (lead_id,))
    for row in events.fetchall():
        data = json.loads(row["data"])
        kept = {key: value for key, value in data.items() if key not in keys}
        if kept != data:
            db.execute(
                "UPDATE lead_events SET data = ? WHERE id = ?",
                (json.dumps(kept, sort_keys=True), row["id"]),
            )
