"""Erasure at the seller's own request, confirmed from their mailbox.

A status link is all it takes to ask, and status links get forwarded and leaked, so asking erases
nothing: it adds a request (`ask_seller_to_confirm`) whose job e-mails the address on file a
one-time link, `/status/erasure/<token>`, good for CONFIRM_WITHIN. Following it (a page, then a
POST with the form's CSRF token) confirms the request, once, and queues the erasure job, which
e-mails the seller one last time while the address is still there and then erases the lead
(worker/jobs.py). As with status links, the token is only in the e-mail: leads.db keeps its
SHA-256 (app/security/tokens.py), and the jobs are queued by id.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import current_app

from app import queue
from app.leads.db import get_db, now, transaction
from app.security.tokens import digest, new_token

CONFIRM_WITHIN = timedelta(hours=24)
CONFIRM_WITHIN_WORDS = "24 hours"  # as the e-mail and the pages say it
TOKEN_LENGTH = 43  # new_token(): secrets.token_urlsafe(32)
# A request that still stands: its lead not erased, and still in the closure the request was
# made in (reopened, or closed again since, voids it).
STANDING = (
    "leads.state = 'closed' AND leads.erased_at IS NULL AND erasure_requests.closed_event_id = "
    "(SELECT max(id) FROM lead_events WHERE lead_id = leads.id AND kind = 'state_changed')"
)


def ask_seller_to_confirm(lead_id: int, closed_event_id: int) -> int:
    """Record the seller's wish to have their lead erased, made when `closed_event_id` closed
    it, and queue the e-mail that carries the link confirming it; the request's id."""
    with transaction() as db:
        request_id = db.execute(
            "INSERT INTO erasure_requests (lead_id, closed_event_id, requested_at) "
            "VALUES (?, ?, ?)",
            (lead_id, closed_event_id, now()),
        ).lastrowid
    queue.enqueue(queue.SEND_ERASURE_LINK, request_id)
    return request_id


def lead_awaiting_link(request_id: int) -> dict | None:
    """The lead of a standing request whose link is not sent yet; None once the link is sent,
    or the lead was erased or reopened meanwhile."""
    row = (
        get_db()
        .execute(
            "SELECT leads.* FROM erasure_requests JOIN leads ON leads.id = lead_id "
            f"WHERE erasure_requests.id = ? AND sent_at IS NULL AND {STANDING}",
            (request_id,),
        )
        .fetchone()
    )
    return dict(row) if row else None


def issue_link(request_id: int) -> str:
    """A new confirmation link for the e-mail about to be sent: its URL, the token in it stored
    as a digest with its expiry. A retry issues another, and the one before stops working."""
    token = new_token()
    expires_at = (datetime.now(UTC) + CONFIRM_WITHIN).isoformat(timespec="seconds")
    with transaction() as db:
        db.execute(
            "UPDATE erasure_requests SET token_hash = ?, expires_at = ? WHERE id = ?",
            (digest(token), expires_at, request_id),
        )
    return f"{current_app.config['SITE_URL'].rstrip('/')}/status/erasure/{token}"


def mark_link_sent(request_id: int) -> None:
    """Record that the confirmation link has gone, so a retry or requeue sends no other."""
    with transaction() as db:
        db.execute("UPDATE erasure_requests SET sent_at = ? WHERE id = ?", (now(), request_id))


# What makes a link good: sent, not used, not expired, and its lead still erasable.
LIVE_LINK = (
    "FROM erasure_requests JOIN leads ON leads.id = lead_id WHERE token_hash = :hash "
    f"AND sent_at IS NOT NULL AND confirmed_at IS NULL AND expires_at > :now AND {STANDING}"
)


def lead_for_link(token: str) -> dict | None:
    """The lead a live confirmation link would erase; None for every failure alike (malformed,
    unknown, altered, used, expired, or the lead reopened or erased since)."""
    if len(token) != TOKEN_LENGTH:
        return None
    live = {"hash": digest(token), "now": now()}
    row = get_db().execute(f"SELECT leads.* {LIVE_LINK}", live).fetchone()
    return dict(row) if row else None


def confirm(token: str) -> int | None:
    """Use a live link, once: mark its request confirmed and return its lead's id (the caller
    queues the erasure); None, changing nothing, for a link that is not live. The UPDATE checks
    and uses it in one step, so two clicks at once confirm it once."""
    if len(token) != TOKEN_LENGTH:
        return None
    with transaction() as db:
        row = db.execute(
            "UPDATE erasure_requests SET confirmed_at = :now "
            f"WHERE id = (SELECT erasure_requests.id {LIVE_LINK}) RETURNING lead_id",
            {"hash": digest(token), "now": now()},
        ).fetchall()  # all of it, so the UPDATE is finished before the commit
    return row[0]["lead_id"] if row else None


def confirmed(lead_id: int) -> bool:
    """Whether an erasure of this lead that its seller confirmed from their e-mail stands."""
    row = (
        get_db()
        .execute(
            "SELECT 1 FROM erasure_requests JOIN leads ON leads.id = lead_id "
            f"WHERE lead_id = ? AND confirmed_at IS NOT NULL AND {STANDING}",
            (lead_id,),
        )
        .fetchone()
    )
    return row is not None


def links_to_send() -> list[int]:
    """Standing requests whose link has not gone yet: what `flask leads requeue` sends."""
    rows = get_db().execute(
        "SELECT erasure_requests.id FROM erasure_requests JOIN leads ON leads.id = lead_id "
        f"WHERE sent_at IS NULL AND {STANDING} ORDER BY erasure_requests.id"
    )
    return [row[0] for row in rows]


def confirmed_erasures() -> list[int]:
    """Leads whose seller's confirmed erasure stands but is not done yet (a job that failed,
    or waited for SMTP): what `flask leads requeue` erases."""
    rows = get_db().execute(
        "SELECT DISTINCT lead_id FROM erasure_requests JOIN leads ON leads.id = lead_id "
        f"WHERE confirmed_at IS NOT NULL AND {STANDING} ORDER BY lead_id"
    )
    return [row[0] for row in rows]
