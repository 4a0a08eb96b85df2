"""Every read and write of the leads database (SQLite, WAL, one short connection per call).

A lead is committed here before any background work is queued, so nothing a seller sent is
lost when Redis, SMTP or an outside endpoint is down. meta_event_id is unique: the same submit
sent twice is one lead.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from flask import current_app

from app.leads import schema
from app.leads.reference import new_photo_id, new_reference

BUSY_TIMEOUT_MS = 5000
WORK_COLUMNS = (
    "photos_processed_at",
    "staff_notified_at",
    "conversions_sent_at",
    "seller_confirmed_at",
)
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
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@contextmanager
def connect(path: str | None = None) -> Iterator[sqlite3.Connection]:
    """A connection in WAL mode with a busy timeout, committed on success and always closed."""
    path = path or current_app.config["LEADS_DB"]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
    db.row_factory = sqlite3.Row
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA journal_mode = WAL")
        schema.migrate(db)
        with db:
            yield db
    finally:
        db.close()


def save_lead(lead: dict, photos: list[dict]) -> tuple[int, bool]:
    """Insert a lead (state `new`, a fresh reference, a `submitted` event) and its photos in one
    transaction; (id, False) if its event id exists."""
    created_at = now()
    row = {field: lead.get(field) for field in LEAD_FIELDS} | {
        "created_at": created_at,
        "last_activity_at": created_at,
    }
    with connect() as db:
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


def insert_photos(
    db: sqlite3.Connection, lead_id: int, photos: list[dict], first_position: int
) -> None:
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
    unprocessed, so the photo job (and a start-up sweep after a crash) takes the new ones.
    """
    with connect() as db:
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


def get_lead(lead_id: int) -> dict | None:
    with connect() as db:
        row = db.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
    return dict(row) if row else None


def add_status_link(lead_id: int, token_hash: str) -> None:
    """One more link that opens the lead's status page (each e-mail carries its own token;
    only its hash is stored). Nothing for an erased lead."""
    with connect() as db:
        db.execute(
            "INSERT INTO status_links (token_hash, lead_id, issued_at) "
            "SELECT ?, id, ? FROM leads WHERE id = ? AND erased_at IS NULL",
            (token_hash, now(), lead_id),
        )


def lead_by_token_hash(token_hash: str, active_since: str) -> dict | None:
    """The lead whose status link hashes to `token_hash`, if it was active since `active_since`
    (an ISO time) and is not erased; None otherwise, whatever the reason."""
    with connect() as db:
        row = db.execute(
            "SELECT leads.*, (SELECT count(*) FROM lead_photos WHERE lead_id = leads.id) "
            "AS photo_count FROM status_links JOIN leads ON leads.id = status_links.lead_id "
            "WHERE status_links.token_hash = ? AND leads.erased_at IS NULL "
            "AND leads.last_activity_at >= ?",
            (token_hash, active_since),
        ).fetchone()
    return dict(row) if row else None


def open_leads_of(email: str) -> list[dict]:
    """Leads of this e-mail address (any case) still under way: not bought, closed or erased."""
    with connect() as db:
        rows = db.execute(
            "SELECT * FROM leads WHERE lower(email) = lower(?) AND erased_at IS NULL "
            "AND state NOT IN ('bought', 'closed') ORDER BY id",
            (email.strip(),),
        ).fetchall()
    return [dict(row) for row in rows]


def list_leads() -> list[dict]:
    """Every lead, newest first, with its photo count."""
    with connect() as db:
        rows = db.execute(
            "SELECT leads.*, (SELECT count(*) FROM lead_photos WHERE lead_id = leads.id) "
            "AS photo_count FROM leads ORDER BY id DESC"
        ).fetchall()
    return [dict(row) for row in rows]


# The staff inbox: one filter shape for the list, the tab counts and the CSV export.

PHONE_DIGITS = (
    "replace(replace(replace(replace(replace(replace(phone, ' ', ''), '(', ''), ')', ''), "
    "'-', ''), '.', ''), '+', '')"
)


def like_pattern(text: str) -> str:
    """`text` as a LIKE pattern matching it anywhere, its own % and _ taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def filter_clause(filters: dict) -> tuple[str, dict]:
    """WHERE conditions for the inbox filters that are set: `text` (name, e-mail, model),
    `digits` (phone), `reference`, `brand`, `source` ('' = none), `state`, `created_from` and
    `created_to` (ISO dates, inclusive)."""
    conditions, params = [], {}
    searches = []
    if filters.get("text"):
        params["text"] = like_pattern(filters["text"])
        searches += [
            f"{column} LIKE :text ESCAPE '\\'" for column in ("full_name", "email", "watch_model")
        ]
    if filters.get("digits"):
        params["digits"] = like_pattern(filters["digits"])
        searches.append(f"{PHONE_DIGITS} LIKE :digits ESCAPE '\\'")
    if filters.get("reference"):
        params["reference"] = filters["reference"]
        searches.append("reference = :reference")
    if searches:
        conditions.append("(" + " OR ".join(searches) + ")")
    for key, condition in (
        ("state", "state = :state"),
        ("brand", "watch_brand = :brand"),
        ("created_from", "substr(created_at, 1, 10) >= :created_from"),
        ("created_to", "substr(created_at, 1, 10) <= :created_to"),
    ):
        if filters.get(key):
            conditions.append(condition)
            params[key] = filters[key]
    if filters.get("source") is not None:
        conditions.append("coalesce(utm_source, '') = :source")
        params["source"] = filters["source"]
    return (" WHERE " + " AND ".join(conditions)) if conditions else "", params


# Whether the seller's last action after submitting (a question, photos, an answer to a quote,
# a withdrawal) is newer than anything staff did on the lead: 1, 0, or NULL if there is none.
SELLER_WAITING = (
    "(SELECT max(id) FROM lead_events WHERE lead_id = leads.id AND actor = 'seller' "
    "AND kind != 'submitted') > coalesce((SELECT max(id) FROM lead_events "
    "WHERE lead_id = leads.id AND actor NOT IN ('seller', 'system')), 0)"
)


def find_leads(filters: dict, limit: int | None = None, offset: int = 0) -> list[dict]:
    """Leads matching `filters`, newest first, with their photo count and whether the seller
    is waiting for staff."""
    where, params = filter_clause(filters)
    page = " LIMIT :limit OFFSET :offset" if limit is not None else ""
    with connect() as db:
        rows = db.execute(
            "SELECT leads.*, (SELECT count(*) FROM lead_photos WHERE lead_id = leads.id) "
            f"AS photo_count, {SELLER_WAITING} AS seller_waiting "
            f"FROM leads{where} ORDER BY id DESC{page}",
            params | {"limit": limit, "offset": offset},
        ).fetchall()
    return [dict(row) for row in rows]


def count_by_state(filters: dict) -> dict[str, int]:
    """How many leads match `filters` (whatever their state) in each state."""
    where, params = filter_clause({key: value for key, value in filters.items() if key != "state"})
    with connect() as db:
        rows = db.execute(
            f"SELECT state, count(*) AS n FROM leads{where} GROUP BY state", params
        ).fetchall()
    return {row["state"]: row["n"] for row in rows}


def filter_choices() -> dict[str, list[str]]:
    """The brands and campaign sources that occur among leads, for the filter bar."""
    with connect() as db:
        brands = db.execute("SELECT DISTINCT watch_brand FROM leads ORDER BY 1").fetchall()
        sources = db.execute(
            "SELECT DISTINCT utm_source FROM leads WHERE utm_source IS NOT NULL ORDER BY 1"
        ).fetchall()
    return {"brands": [row[0] for row in brands], "sources": [row[0] for row in sources]}


def lead_photos(lead_id: int) -> list[dict]:
    with connect() as db:
        rows = db.execute(
            "SELECT * FROM lead_photos WHERE lead_id = ? ORDER BY position", (lead_id,)
        ).fetchall()
    return [dict(row) for row in rows]


def lead_photo(lead_id: int, public_id: str) -> dict | None:
    """One photo by its public id, only if it belongs to `lead_id`."""
    with connect() as db:
        row = db.execute(
            "SELECT * FROM lead_photos WHERE lead_id = ? AND public_id = ?", (lead_id, public_id)
        ).fetchone()
    return dict(row) if row else None


def record_photo(photo_id: int, **result) -> None:
    """Store what processing made of one photo (image, thumbnail, size, or why it was refused)."""
    allowed = {"image_name", "thumb_name", "width", "height", "error"}
    assignments = ", ".join(f"{name} = :{name}" for name in result if name in allowed)
    with connect() as db:
        db.execute(
            f"UPDATE lead_photos SET {assignments} WHERE id = :id", result | {"id": photo_id}
        )


def mark_done(lead_id: int, column: str) -> None:
    """Record that one piece of a lead's background work has finished (never repeated)."""
    if column not in WORK_COLUMNS:
        raise ValueError(f"{column} is not a work column")
    with connect() as db:
        db.execute(f"UPDATE leads SET {column} = ? WHERE id = ?", (now(), lead_id))
        append_event(db, lead_id, "system", "work_done", {"work": column.removesuffix("_at")})


def pending_work(lead: dict) -> list[str]:
    """The work columns of a lead that are not done yet."""
    return [column for column in WORK_COLUMNS if not lead.get(column)]


def leads_with_pending_work(created_before: str | None = None) -> list[dict]:
    """Leads with work not done yet, oldest first, created before a time if given; an erased
    lead has none left (nothing to process or send)."""
    conditions = " OR ".join(f"{column} IS NULL" for column in WORK_COLUMNS)
    query = (
        f"SELECT * FROM leads WHERE ({conditions}) AND erased_at IS NULL AND created_at < ? "
        "ORDER BY id"
    )
    with connect() as db:
        rows = db.execute(query, (created_before or "9999",)).fetchall()
    return [dict(row) for row in rows]


# The timeline (lead_events): append-only, one row per thing that happened to a lead.


def append_event(
    db: sqlite3.Connection,
    lead_id: int,
    actor: str,
    kind: str,
    data: dict | None = None,
    at: str | None = None,
) -> int:
    """Add one event inside the caller's transaction; people's actions also mark the lead active."""
    at = at or now()
    cursor = db.execute(
        "INSERT INTO lead_events (lead_id, at, actor, kind, data) VALUES (?, ?, ?, ?, ?)",
        (lead_id, at, str(actor), kind, json.dumps(data or {}, sort_keys=True)),
    )
    if actor != "system":
        db.execute("UPDATE leads SET last_activity_at = ? WHERE id = ?", (at, lead_id))
    return cursor.lastrowid


def add_event(lead_id: int, actor: str, kind: str, data: dict | None = None) -> int:
    with connect() as db:
        return append_event(db, lead_id, actor, kind, data)


def event_row(row: sqlite3.Row) -> dict:
    return dict(row) | {"data": json.loads(row["data"])}


def lead_events(lead_id: int) -> list[dict]:
    """A lead's timeline, oldest first."""
    with connect() as db:
        rows = db.execute(
            "SELECT * FROM lead_events WHERE lead_id = ? ORDER BY id", (lead_id,)
        ).fetchall()
    return [event_row(row) for row in rows]


def get_event(event_id: int) -> dict | None:
    with connect() as db:
        row = db.execute("SELECT * FROM lead_events WHERE id = ?", (event_id,)).fetchone()
    return event_row(row) if row else None


def change_state(
    lead_id: int, expected: str, to: str, actor: str, data: dict
) -> tuple[int | None, str | None]:
    """Move a lead from `expected` to `to` and record it, atomically.

    The UPDATE only matches while the lead is still in `expected` (and not erased), so of two
    people acting on the same lead at once exactly one succeeds. Returns (event id, state) on
    success, or (None, the state the lead is really in; None if there is no such lead).
    """
    with connect() as db:
        cursor = db.execute(
            "UPDATE leads SET state = ? WHERE id = ? AND state = ? AND erased_at IS NULL",
            (to, lead_id, expected),
        )
        if cursor.rowcount == 0:
            row = db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()
            return None, row["state"] if row else None
        event = {"from": expected, "to": to} | data
        return append_event(db, lead_id, actor, "state_changed", event), to


# The e-mails that announce an event, each recorded once per event it announces (a unique
# index per kind): `email_sent` to the seller, `staff_alerted` to staff about a seller's action.
EMAIL_KINDS = ("email_sent", "staff_alerted")


def record_email(lead_id: int, event_id: int, template: str, kind: str = "email_sent") -> bool:
    """Record that the e-mail announcing `event_id` went out; False if it already had."""
    if kind not in EMAIL_KINDS:
        raise ValueError(f"{kind} is not a kind of e-mail record")
    try:
        with connect() as db:
            append_event(db, lead_id, "system", kind, {"event_id": event_id, "template": template})
    except sqlite3.IntegrityError:
        return False
    return True


def email_sent(event_id: int, kind: str = "email_sent") -> bool:
    with connect() as db:
        row = db.execute(
            "SELECT 1 FROM lead_events WHERE kind = ? AND json_extract(data, '$.event_id') = ?",
            (kind, event_id),
        ).fetchone()
    return row is not None


def unalerted_seller_events() -> list[tuple[int, int]]:
    """(lead, event) of each seller action after submitting whose staff e-mail is not recorded
    as sent, for leads not erased: what `flask leads requeue` sends."""
    with connect() as db:
        rows = db.execute(
            "SELECT action.lead_id, action.id FROM lead_events AS action "
            "JOIN leads ON leads.id = action.lead_id AND leads.erased_at IS NULL "
            "WHERE action.actor = 'seller' AND action.kind != 'submitted' "
            "AND NOT EXISTS (SELECT 1 FROM lead_events AS sent WHERE sent.kind = 'staff_alerted' "
            "AND json_extract(sent.data, '$.event_id') = action.id) ORDER BY action.id"
        ).fetchall()
    return [(row[0], row[1]) for row in rows]


def unsent_seller_emails(states: tuple[str, ...]) -> list[tuple[int, int]]:
    """(lead, event) of each change into one of `states` whose seller e-mail is not recorded
    as sent, for leads not erased: what `flask leads requeue` sends."""
    marks = ", ".join("?" for _ in states)
    with connect() as db:
        rows = db.execute(
            "SELECT change.lead_id, change.id FROM lead_events AS change "
            "JOIN leads ON leads.id = change.lead_id AND leads.erased_at IS NULL "
            "WHERE change.kind = 'state_changed' "
            f"AND json_extract(change.data, '$.to') IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM lead_events AS sent WHERE sent.kind = 'email_sent' "
            "AND json_extract(sent.data, '$.event_id') = change.id) ORDER BY change.id",
            states,
        ).fetchall()
    return [(row[0], row[1]) for row in rows]


def erase_lead(
    lead_id: int, actor: str, blank: dict, free_text_keys: tuple[str, ...]
) -> list[dict]:
    """Blank a closed lead's personal fields, drop its photo rows and the free text of its
    events, and record the erasure; returns the photo rows, whose files the caller deletes.

    Refused (LookupError) unless the lead is closed and not yet erased, checked in the same
    UPDATE that marks it erased.
    """
    assignments = ", ".join(f"{column} = :{column}" for column in blank)
    with connect() as db:
        cursor = db.execute(
            f"UPDATE leads SET {assignments}, erased_at = :erased_at "
            "WHERE id = :id AND state = 'closed' AND erased_at IS NULL",
            blank | {"erased_at": now(), "id": lead_id},
        )
        if cursor.rowcount == 0:
            raise LookupError(f"Lead {lead_id} is not a closed lead that can be erased.")
        photos = db.execute(
            "SELECT upload_name, image_name, thumb_name FROM lead_photos WHERE lead_id = ?",
            (lead_id,),
        ).fetchall()
        db.execute("DELETE FROM lead_photos WHERE lead_id = ?", (lead_id,))
        db.execute("DELETE FROM status_links WHERE lead_id = ?", (lead_id,))
        events = db.execute("SELECT id, data FROM lead_events WHERE lead_id = ?", (lead_id,))
        for row in events.fetchall():
            data = json.loads(row["data"])
            kept = {key: value for key, value in data.items() if key not in free_text_keys}
            if kept != data:
                db.execute(
                    "UPDATE lead_events SET data = ? WHERE id = ?",
                    (json.dumps(kept, sort_keys=True), row["id"]),
                )
        append_event(db, lead_id, actor, "erased", {"photos": len(photos)})
    return [dict(photo) for photo in photos]


def backup(target: Path) -> int:
    """Copy leads.db to `target` with SQLite's online backup API (consistent while the site
    writes), checked and moved into place atomically; returns the number of leads copied."""
    target = Path(target)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    with connect() as source:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("the backup failed its integrity check")
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            count = copy.execute("SELECT count(*) FROM leads").fetchone()[0]
        finally:
            copy.close()
    partial.replace(target)
    return count


def storage_dir() -> Path:
    """Private photo storage: PHOTO_STORAGE_DIR, or storage/ beside the leads database."""
    configured = current_app.config.get("PHOTO_STORAGE_DIR")
    return (
        Path(configured) if configured else Path(current_app.config["LEADS_DB"]).parent / "storage"
    )


def incoming_dir() -> Path:
    """Raw uploads as received; each is deleted once the photo job has processed it."""
    return storage_dir() / "incoming"


def photos_dir() -> Path:
    """Processed, metadata-free photos and thumbnails (never served publicly)."""
    return storage_dir() / "watch-photos"
