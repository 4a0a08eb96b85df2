"""The append-only audit log in leads.db (made by app/leads/schema/): who did what, when,
from where.

SQLite triggers refuse every UPDATE and DELETE on the table, so not even the application can
rewrite history; and each entry is chained to the one before by its hash (app/leads/audit_chain.py),
so whoever drops the triggers to edit or remove an entry is found by `verify()`
(`flask staff audit --verify`). Callers pass ids and small facts only: never a password, code,
secret, token or photo content (`data` is for things like a new state or a count).
"""

from __future__ import annotations

import json

from app.leads.audit_chain import Verdict, chain_unchained, check
from app.leads.db import get_db, immediate_transaction, now


def record(
    action: str,
    actor_id: int | None,
    lead_id: int | None = None,
    address: str | None = None,
    data: dict | None = None,
) -> int:
    """Append one entry. `actor_id` is the staff account acting (or acted upon, for sign-in
    failures and CLI commands); None when no account is known. Returns the entry's id.

    Chained under SQLite's write lock, so two processes appending at once cannot both chain to
    the same entry."""
    with immediate_transaction() as db:
        entry_id = db.execute(
            "INSERT INTO audit (at, action, staff_id, lead_id, address, data) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (now(), action, actor_id, lead_id, address, json.dumps(data) if data else None),
        ).lastrowid
        chain_unchained(db)
    return entry_id


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


def entry(entry_id: int) -> dict | None:
    """One entry by id (a job is queued with the id of the entry it acts on), or None."""
    row = get_db().execute("SELECT * FROM audit WHERE id = ?", (entry_id,)).fetchone()
    return dict(row) | {"data": json.loads(row["data"]) if row["data"] else {}} if row else None


def followed_up(action: str, entry_id: int) -> bool:
    """Whether an entry `action` was recorded about the entry `entry_id` (data `entry`): a job
    that records one when done finds it on a retry and does not repeat itself."""
    row = (
        get_db()
        .execute(
            "SELECT 1 FROM audit WHERE action = ? AND json_extract(data, '$.entry') = ?",
            (action, entry_id),
        )
        .fetchone()
    )
    return row is not None


def verify() -> Verdict:
    """Check the whole chain, oldest first: how many entries hold, and the first that does not.
    Entries a process of the release before wrote unchained are chained first, as the next
    entry would chain them."""
    with immediate_transaction() as db:
        chain_unchained(db)
    return check(get_db().execute("SELECT * FROM audit ORDER BY id"))
