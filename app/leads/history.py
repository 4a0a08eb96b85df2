"""The timeline in leads.db (lead_events): append-only, one row per thing that happened to a
lead. The staff timeline and the seller's are both views of it (app/sale/timeline.py); the
e-mails that announce an event are recorded here too, once each."""

from __future__ import annotations

import json
import sqlite3
from datetime import date

from app.leads.db import get_db, now, transaction
from app.leads.email_kinds import SELLER_EMAIL, STAFF_ALERT, unclaimed

# The e-mails that announce an event, each recorded once per event it announces (a unique
# index per kind): `email_sent` to the seller, `staff_alerted` to staff about a seller's action.
EMAIL_KINDS = ("email_sent", "staff_alerted")


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
    """Add one event in a transaction of its own; its id."""
    with transaction() as db:
        return append_event(db, lead_id, actor, kind, data)


def event_row(row: sqlite3.Row) -> dict:
    """An event as a dict, its JSON data decoded."""
    return dict(row) | {"data": json.loads(row["data"])}


def lead_events(lead_id: int) -> list[dict]:
    """A lead's timeline, oldest first."""
    rows = get_db().execute("SELECT * FROM lead_events WHERE lead_id = ? ORDER BY id", (lead_id,))
    return [event_row(row) for row in rows]


def get_event(event_id: int) -> dict | None:
    """One event by its id, or None."""
    row = get_db().execute("SELECT * FROM lead_events WHERE id = ?", (event_id,)).fetchone()
    return event_row(row) if row else None


def record_email(lead_id: int, event_id: int, template: str, kind: str = "email_sent") -> bool:
    """Record that the e-mail announcing `event_id` went out; False if it already had."""
    if kind not in EMAIL_KINDS:
        raise ValueError(f"{kind} is not a kind of e-mail record")
    try:
        with transaction() as db:
            append_event(db, lead_id, "system", kind, {"event_id": event_id, "template": template})
    except sqlite3.IntegrityError:
        return False
    return True


def email_sent(event_id: int, kind: str = "email_sent") -> bool:
    """Whether the e-mail of this kind announcing `event_id` is recorded as sent."""
    row = (
        get_db()
        .execute(
            "SELECT 1 FROM lead_events WHERE kind = ? AND json_extract(data, '$.event_id') = ?",
            (kind, event_id),
        )
        .fetchone()
    )
    return row is not None


def unalerted_seller_events() -> list[tuple[int, int]]:
    """(lead, event) of each seller action after submitting whose staff e-mail is not recorded
    as sent nor claimed, for leads not erased: what `flask leads requeue` sends."""
    rows = get_db().execute(
        "SELECT action.lead_id, action.id FROM lead_events AS action "
        "JOIN leads ON leads.id = action.lead_id AND leads.erased_at IS NULL "
        "WHERE action.actor = 'seller' AND action.kind != 'submitted' "
        "AND NOT EXISTS (SELECT 1 FROM lead_events AS sent WHERE sent.kind = 'staff_alerted' "
        "AND json_extract(sent.data, '$.event_id') = action.id) "
        f"AND {unclaimed(STAFF_ALERT, 'action.id')} ORDER BY action.id"
    )
    return [(row[0], row[1]) for row in rows]


def unsent_seller_emails(states: tuple[str, ...]) -> list[tuple[int, int]]:
    """(lead, event) of each change into one of `states` whose seller e-mail is not recorded
    as sent nor claimed, for leads not erased: what `flask leads requeue` sends."""
    marks = ", ".join("?" for _ in states)
    rows = get_db().execute(
        "SELECT change.lead_id, change.id FROM lead_events AS change "
        "JOIN leads ON leads.id = change.lead_id AND leads.erased_at IS NULL "
        "WHERE change.kind = 'state_changed' "
        f"AND json_extract(change.data, '$.to') IN ({marks}) "
        "AND NOT EXISTS (SELECT 1 FROM lead_events AS sent WHERE sent.kind = 'email_sent' "
        "AND json_extract(sent.data, '$.event_id') = change.id) "
        f"AND {unclaimed(SELLER_EMAIL, 'change.id')} ORDER BY change.id",
        states,
    )
    return [(row[0], row[1]) for row in rows]


def alerted_on(lead_id: int, kind: str, day: date) -> bool:
    """Whether a daily staff alert of this kind (an event whose data names the business day)
    was recorded for the lead on `day`."""
    row = get_db().execute(
        "SELECT 1 FROM lead_events WHERE lead_id = ? AND kind = ? "
        "AND json_extract(data, '$.day') = ?",
        (lead_id, kind, day.isoformat()),
    )
    return row.fetchone() is not None


def record_alert_on(lead_id: int, kind: str, day: date) -> bool:
    """Record on the lead's timeline that staff were alerted on `day`; False if another run
    already had, where the database takes one per lead and day (a unique index)."""
    try:
        with transaction() as db:
            append_event(db, lead_id, "system", kind, {"day": day.isoformat()})
    except sqlite3.IntegrityError:
        return False
    return True


def latest_change_id(events: list[dict], state: str) -> int | None:
    """The id of the newest change into `state`: what a seller's answer names as the quote or
    offer it answers."""
    ids = [e["id"] for e in events if e["kind"] == "state_changed" and e["data"]["to"] == state]
    return ids[-1] if ids else None


def latest_change(events: list[dict], state: str) -> dict | None:
    """The data of the newest change into `state` (a revised quote replaces the first)."""
    changes = [
        e["data"] for e in events if e["kind"] == "state_changed" and e["data"]["to"] == state
    ]
    return changes[-1] if changes else None
