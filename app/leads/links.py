"""Sellers' status links: each e-mail to a seller carries a link of its own, and the lost-link
form asks for new ones.

A link's token (192 random bits) is only ever in the e-mail: leads.db keeps its digest
(app/security/tokens.py), which is what a visit is looked up by. A link opens its lead until
TOKEN_LIFETIME after the lead's last activity, and never once the lead is erased. Lost-link
requests wait in their own table so their job is queued by id, never by address.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import current_app

from app.leads.db import get_db, now, transaction
from app.leads.reference import new_status_token
from app.leads.store import PHOTO_COUNT
from app.security.tokens import digest

TOKEN_LIFETIME = timedelta(days=180)  # after the lead's last activity
TOKEN_LENGTH = 32  # new_status_token(): secrets.token_urlsafe(24)


def seller_status_url(token: str) -> str:
    """The seller's private status link for a token just issued."""
    return f"{current_app.config['SITE_URL'].rstrip('/')}/status/{token}"


def add_status_link(lead_id: int, token_hash: str) -> None:
    """One more link that opens the lead's status page, stored as its hash. Nothing for an
    erased lead."""
    with transaction() as db:
        db.execute(
            "INSERT INTO status_links (token_hash, lead_id, issued_at) "
            "SELECT ?, id, ? FROM leads WHERE id = ? AND erased_at IS NULL",
            (token_hash, now(), lead_id),
        )


def issue_status_link(lead_id: int) -> str:
    """A new link for an e-mail about to be sent: its URL, the token in it stored as a hash."""
    token = new_status_token()
    add_status_link(lead_id, digest(token))
    return seller_status_url(token)


def lead_by_token_hash(token_hash: str, active_since: str) -> dict | None:
    """The lead whose status link hashes to `token_hash`, if it was active since `active_since`
    (an ISO time) and is not erased; None otherwise, whatever the reason."""
    row = (
        get_db()
        .execute(
            f"SELECT leads.*, {PHOTO_COUNT} FROM status_links "
            "JOIN leads ON leads.id = status_links.lead_id "
            "WHERE status_links.token_hash = ? AND leads.erased_at IS NULL "
            "AND leads.last_activity_at >= ?",
            (token_hash, active_since),
        )
        .fetchone()
    )
    return dict(row) if row else None


def lead_by_status_token(token: str) -> dict | None:
    """The lead a status link's token opens, with its photo count; None for every failure
    alike (malformed, unknown, altered, expired, erased)."""
    if len(token) != TOKEN_LENGTH:
        return None
    active_since = (datetime.now(UTC) - TOKEN_LIFETIME).isoformat(timespec="seconds")
    return lead_by_token_hash(digest(token), active_since)


def open_leads_of(email: str) -> list[dict]:
    """Leads of this e-mail address (any case) still under way: not bought, closed or erased."""
    rows = get_db().execute(
        "SELECT * FROM leads WHERE lower(email) = lower(?) AND erased_at IS NULL "
        "AND state NOT IN ('bought', 'closed') ORDER BY id",
        (email.strip(),),
    )
    return [dict(row) for row in rows]


def add_link_request(email: str) -> int:
    """Keep a lost-link request until its job has sent the links; its id."""
    with transaction() as db:
        return db.execute(
            "INSERT INTO status_link_requests (email, requested_at) VALUES (?, ?)",
            (email.strip(), now()),
        ).lastrowid


def link_request(request_id: int) -> str | None:
    """The address a waiting request asked for, or None once it has been answered."""
    row = (
        get_db()
        .execute("SELECT email FROM status_link_requests WHERE id = ?", (request_id,))
        .fetchone()
    )
    return row["email"] if row else None


def drop_link_request(request_id: int) -> None:
    """Forget a request (and the address in it) once its links have gone."""
    with transaction() as db:
        db.execute("DELETE FROM status_link_requests WHERE id = ?", (request_id,))


def waiting_link_requests() -> list[int]:
    """Requests whose links have not gone yet, oldest first: what `flask leads requeue` sends."""
    rows = get_db().execute("SELECT id FROM status_link_requests ORDER BY id")
    return [row["id"] for row in rows]
