"""The append-only audit log in leads.db (made by app/leads/schema.py): who did what, when,
from where.

SQLite triggers refuse every UPDATE and DELETE on the table, so not even the application can
rewrite history. Callers pass ids and small facts only: never a password, code, secret, token
or photo content (`data` is for things like a new state or a count).
"""

from __future__ import annotations

import json

from app.leads.db import get_db, now, transaction


def record(
    action: str,
    actor_id: int | None,
    lead_id: int | None = None,
    address: str | None = None,
    data: dict | None = None,
) -> None:
    """Append one entry. `actor_id` is the staff account acting (or acted upon, for sign-in
    failures and CLI commands); None when no account is known."""
    with transaction() as db:
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
    rows = get_db().execute(f"SELECT * FROM audit {where} ORDER BY id", params)
    return [dict(row) | {"data": json.loads(row["data"]) if row["data"] else {}} for row in rows]
