"""What each ad platform was told about each lead: the `conversions` table (one row per lead,
platform and event, made by app/leads/schema/conversion_tables.py) and the lead's timeline.

A row is the last outcome of reporting one event (the form's Lead, the Purchase) to one
platform. Every outcome is written with its timeline event in one transaction, and a settled
row (anything but `failed`) is never written again: the jobs read it before they send, so a
retry, a requeue or a second job sends nothing twice.
"""

from __future__ import annotations

from flask import current_app

from app.leads.db import get_db, now, transaction
from app.leads.history import append_event
from app.leads.state import State

PLATFORMS = ("meta", "ga4")
EVENTS = ("lead", "purchase")
SETTLED = ("sent", "too_late", "opted_out", "skipped")  # never tried again; `failed` is
ATTEMPTED = ("sent", "failed")  # the outcomes of a send that was tried


def configured_platforms() -> tuple[str, ...]:
    """The platforms this site reports to server-side: Meta with a pixel id and a Conversions
    API token, GA4 with a measurement id and a Measurement Protocol secret."""
    config = current_app.config
    ready = {
        "meta": config["META_PIXEL_ID"] and config["META_CAPI_TOKEN"],
        "ga4": config["GA4_MEASUREMENT_ID"] and config["GA4_API_SECRET"],
    }
    return tuple(platform for platform in PLATFORMS if ready[platform])


def outcome(lead_id: int, platform: str, event: str) -> dict | None:
    """The row of one lead's event on one platform, or None if it was never reported."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM conversions WHERE lead_id = ? AND platform = ? AND event = ?",
            (lead_id, platform, event),
        )
        .fetchone()
    )
    return dict(row) if row else None


def settled(lead_id: int, platform: str, event: str) -> bool:
    """Whether this event's outcome on this platform is final (sent, or never to be sent)."""
    row = outcome(lead_id, platform, event)
    return row is not None and row["status"] in SETTLED


def lead_outcomes(lead_id: int) -> list[dict]:
    """Every row of one lead, by event and platform."""
    rows = get_db().execute(
        "SELECT * FROM conversions WHERE lead_id = ? ORDER BY event, platform", (lead_id,)
    )
    return [dict(row) for row in rows]


def record(lead_id: int, platform: str, event: str, status: str, reason: str = "") -> bool:
    """Write one outcome and its timeline event together; False (nothing written) if the row
    was settled meanwhile. A send tried, sent or failed, counts as an attempt."""
    attempt = 1 if status in ATTEMPTED else 0
    with transaction() as db:
        cursor = db.execute(
            "INSERT INTO conversions (lead_id, platform, event, status, attempts, at, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (lead_id, platform, event) DO UPDATE SET status = excluded.status, "
            "attempts = attempts + excluded.attempts, at = excluded.at, "
            "reason = excluded.reason WHERE conversions.status = 'failed'",
            (lead_id, platform, event, status, attempt, now(), reason or None),
        )
        if cursor.rowcount == 0:
            return False
        attempts = db.execute(
            "SELECT attempts FROM conversions WHERE lead_id = ? AND platform = ? AND event = ?",
            (lead_id, platform, event),
        ).fetchone()[0]
        data = {"platform": platform, "event": event, "status": status, "attempts": attempts}
        if reason:
            data["reason"] = reason
        append_event(db, lead_id, "system", "conversion", data)
    return True


def unreported_purchases(bought_before: str | None = None) -> list[int]:
    """Bought leads (marked bought before a time, if given) whose purchase is not settled on
    every configured platform, oldest first: what `flask leads requeue` and the sweep
    queue again. A platform configured later is reported to as well, or recorded too late."""
    platforms = configured_platforms()
    if not platforms:
        return []
    unsettled = " OR ".join(
        "NOT EXISTS (SELECT 1 FROM conversions WHERE conversions.lead_id = leads.id "
        "AND conversions.event = 'purchase' AND conversions.platform = ? "
        "AND conversions.status != 'failed')"
        for _ in platforms
    )
    rows = get_db().execute(
        f"SELECT leads.id FROM leads WHERE leads.state = '{State.BOUGHT}' "
        "AND leads.erased_at IS NULL "
        f"AND ({unsettled}) AND EXISTS (SELECT 1 FROM lead_events WHERE "
        "lead_events.lead_id = leads.id AND lead_events.kind = 'state_changed' "
        f"AND json_extract(lead_events.data, '$.to') = '{State.BOUGHT}' AND lead_events.at < ?) "
        "ORDER BY leads.id",
        (*platforms, bought_before or "9999"),
    )
    return [row[0] for row in rows]
