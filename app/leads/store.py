"""Every read and write of the leads database (SQLite, WAL, one short connection per call).

A lead is committed here before any background work is queued, so nothing a seller sent is
lost when Redis, SMTP or an outside endpoint is down. meta_event_id is unique: the same submit
sent twice is one lead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from flask import current_app

BUSY_TIMEOUT_MS = 5000
WORK_COLUMNS = ("photos_processed_at", "staff_notified_at", "conversions_sent_at")
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

SCHEMA = """
CREATE TABLE IF NOT EXISTS leads (
    id INTEGER PRIMARY KEY,
    full_name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    watch_brand TEXT NOT NULL,
    watch_model TEXT,
    watch_year INTEGER,
    watch_condition TEXT NOT NULL,
    has_box INTEGER NOT NULL,
    has_papers INTEGER NOT NULL,
    additional_details TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL,
    utm_source TEXT,
    utm_medium TEXT,
    utm_campaign TEXT,
    utm_content TEXT,
    utm_term TEXT,
    meta_event_id TEXT NOT NULL UNIQUE,
    client_ip TEXT,
    user_agent TEXT,
    ga_client_id TEXT,
    created_at TEXT NOT NULL,
    photos_processed_at TEXT,
    staff_notified_at TEXT,
    conversions_sent_at TEXT
);
CREATE TABLE IF NOT EXISTS lead_photos (
    id INTEGER PRIMARY KEY,
    lead_id INTEGER NOT NULL REFERENCES leads(id),
    position INTEGER NOT NULL,
    original_name TEXT NOT NULL,
    upload_name TEXT NOT NULL,
    image_name TEXT,
    thumb_name TEXT,
    width INTEGER,
    height INTEGER,
    error TEXT
);
CREATE INDEX IF NOT EXISTS lead_photos_lead ON lead_photos(lead_id, position);
"""


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
        db.executescript(SCHEMA)
        with db:
            yield db
    finally:
        db.close()


def save_lead(lead: dict, photos: list[dict]) -> tuple[int, bool]:
    """Insert a lead and its photos in one transaction; (id, False) if its event id exists."""
    row = {field: lead.get(field) for field in LEAD_FIELDS} | {"created_at": now()}
    columns = ", ".join(row)
    marks = ", ".join(f":{name}" for name in row)
    with connect() as db:
        cursor = db.execute(
            f"INSERT INTO leads ({columns}) VALUES ({marks}) ON CONFLICT(meta_event_id) DO NOTHING",
            row,
        )
        if cursor.rowcount == 0:
            existing = db.execute(
                "SELECT id FROM leads WHERE meta_event_id = ?", (row["meta_event_id"],)
            ).fetchone()
            return existing["id"], False
        lead_id = cursor.lastrowid
        db.executemany(
            "INSERT INTO lead_photos (lead_id, position, original_name, upload_name) "
            "VALUES (?, ?, ?, ?)",
            [
                (lead_id, position, photo["original_name"], photo["upload_name"])
                for position, photo in enumerate(photos, start=1)
            ],
        )
        return lead_id, True


def get_lead(lead_id: int) -> dict | None:
    with connect() as db:
        row = db.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
    return dict(row) if row else None


def list_leads() -> list[dict]:
    """Every lead, newest first, with its photo count."""
    with connect() as db:
        rows = db.execute(
            "SELECT leads.*, (SELECT count(*) FROM lead_photos WHERE lead_id = leads.id) "
            "AS photo_count FROM leads ORDER BY id DESC"
        ).fetchall()
    return [dict(row) for row in rows]


def lead_photos(lead_id: int) -> list[dict]:
    with connect() as db:
        rows = db.execute(
            "SELECT * FROM lead_photos WHERE lead_id = ? ORDER BY position", (lead_id,)
        ).fetchall()
    return [dict(row) for row in rows]


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


def pending_work(lead: dict) -> list[str]:
    """The work columns of a lead that are not done yet."""
    return [column for column in WORK_COLUMNS if not lead.get(column)]


def leads_with_pending_work(created_before: str | None = None) -> list[dict]:
    """Leads with work not done yet, oldest first; only those created before a time if given."""
    conditions = " OR ".join(f"{column} IS NULL" for column in WORK_COLUMNS)
    query = f"SELECT * FROM leads WHERE ({conditions}) AND created_at < ? ORDER BY id"
    with connect() as db:
        rows = db.execute(query, (created_before or "9999",)).fetchall()
    return [dict(row) for row in rows]


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
