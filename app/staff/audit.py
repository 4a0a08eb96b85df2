"""The append-only audit log in leads.db: who did what, when, from where.

SQLite triggers refuse every UPDATE and DELETE on the table, so not even the application can
rewrite history. Callers pass ids and small facts only: never a password, code, secret, token
or photo content (`data` is for things like a new state or a count).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from app.leads import store
from app.leads.store import now

SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    staff_id INTEGER,
    lead_id INTEGER,
    address TEXT,
    data TEXT
);
CREATE INDEX IF NOT EXISTS audit_lead ON audit(lead_id);
CREATE INDEX IF NOT EXISTS audit_staff ON audit(staff_id);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""


@contextmanager
def connect() -> Iterator[sqlite3.Connection]:
    with store.connect() as db:
        db.executescript(SCHEMA)
        yield db


def record(
    action: str,
    actor_id: int | None,
    lead_id: int | None = None,
    address: str | None = None,
    data: dict | None = None,
) -> None:
    """Append one entry. `actor_id` is the staff account acting (or acted upon, for sign-in
    failures and CLI commands); None when no account is known."""
    with connect() as db:
        db.execute(
            "INSERT INTO audit (at, action, staff_id, lead_id, address, data) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (now(), action, actor_id, lead_id, address, json.dumps(data) if data else None),
        )


def entries(lead_id: int | None = None, staff_id: int | None = None) -> list[dict]:
    """Entries oldest first, optionally only those about one lead and/or one staff account."""
    conditions, params = [], []
    if lead_id is not None:
        conditions.append("lead_id = ?")
        params.append(lead_id)
    if staff_id is not None:
        conditions.append("staff_id = ?")
        params.append(staff_id)
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    with connect() as db:
        rows = db.execute(f"SELECT * FROM audit {where} ORDER BY id", params).fetchall()
    return [dict(row) | {"data": json.loads(row["data"]) if row["data"] else {}} for row in rows]
