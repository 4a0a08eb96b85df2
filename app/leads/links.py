"""Sellers' status links: each e-mail to a seller carries a link of its own, and the lost-link
form asks for new ones.

A link's token (192 random bits) is only ever in the e-mail: leads.db keeps its digest
(app/security/tokens.py), which is what a visit is looked up by. Each link expires
TOKEN_LIFETIME after it was issued, whatever the lead does meanwhile: it is a bearer key sitting
in an inbox, so its life is bounded and known, and every e-mail we send brings a fresh one. A
link sent by the lost-link form revokes the lead's earlier links once it has gone out (never
before, so a stranger typing a seller's address cannot lock them out); staff can revoke them all
from the lead's page; erasure deletes them. A revoked link is deleted, so it fails exactly as an
unknown one does. Lost-link requests wait in their own table so their job is queued by id, never
by address.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from flask import current_app

from app.leads.db import get_db, now, transaction
from app.leads.history import append_event
from app.leads.reference import new_status_token
from app.leads.state import State
from app.leads.store import PHOTO_COUNT
from app.security.tokens import digest, new_token

TOKEN_LIFETIME = timedelta(days=180)  # after the link was issued; activity does not extend it
TOKEN_LENGTH = 32  # new_status_token(): secrets.token_urlsafe(24)
WORKING_LINKS = "SELECT count(*) FROM status_links WHERE lead_id = ? AND expires_at > ?"


def seller_status_url(token: str) -> str:
    """The seller's private status link for a token just issued."""
    return f"{current_app.config['SITE_URL'].rstrip('/')}/status/{token}"


class IssuedLink(NamedTuple):
    """A link just issued: its URL for the e-mail, and its row (None for an erased lead)."""

    url: str
    link_id: int | None


def add_status_link(lead_id: int, token_hash: str) -> int | None:
    """One more link that opens the lead's status page for TOKEN_LIFETIME, stored as its hash;
    its row id. Nothing (None) for an erased lead."""
    issued = datetime.now(UTC)
    expires = (issued + TOKEN_LIFETIME).isoformat(timespec="seconds")
    with transaction() as db:
        cursor = db.execute(
            "INSERT INTO status_links (token_hash, lead_id, issued_at, expires_at) "
            "SELECT ?, id, ?, ? FROM leads WHERE id = ? AND erased_at IS NULL",
            (token_hash, issued.isoformat(timespec="seconds"), expires, lead_id),
        )
        return cursor.lastrowid if cursor.rowcount else None


def issue_link(lead_id: int) -> IssuedLink:
    """A new link for an e-mail about to be sent, the token in it stored as a hash."""
    token = new_status_token()
    return IssuedLink(seller_status_url(token), add_status_link(lead_id, digest(token)))


def issue_status_link(lead_id: int) -> str:
    """A new link for an e-mail about to be sent: its URL (earlier links keep working)."""
    return issue_link(lead_id).url


def issue_one_time_link(table: str, row_id: int, path: str, valid_for: timedelta) -> str:
    """A new one-time link for an e-mail about to be sent (the erasure and payout
    confirmations): its URL under `path`; the token in it kept on row `row_id` of `table` only
    as a digest, with its expiry. A retry issues another, and the one before stops working."""
    token = new_token()
    expires_at = (datetime.now(UTC) + valid_for).isoformat(timespec="seconds")
    with transaction() as db:
        db.execute(
            f"UPDATE {table} SET token_hash = ?, expires_at = ? WHERE id = ?",
            (digest(token), expires_at, row_id),
        )
    return f"{current_app.config['SITE_URL'].rstrip('/')}{path}/{token}"


def revoke_links_before(lead_id: int, link_id: int | None) -> int:
    """Once the lost-link form's e-mail has gone out: the lead's links issued before that one
    stop working (a link issued since, by another e-mail, keeps working). On the timeline; how
    many were revoked."""
    if link_id is None:
        return 0
    with transaction() as db:
        revoked = db.execute(
            "DELETE FROM status_links WHERE lead_id = ? AND id < ?", (lead_id, link_id)
        ).rowcount
        append_event(db, lead_id, "system", "link_resent", {"revoked": revoked})
    return revoked


def revoke_all_links(lead_id: int, actor: str) -> int:
    """Staff's word: every link of the lead stops working at once. On the timeline as
    `actor`'s; how many were still working."""
    with transaction() as db:
        working = db.execute(WORKING_LINKS, (lead_id, now())).fetchone()[0]
        db.execute("DELETE FROM status_links WHERE lead_id = ?", (lead_id,))
        append_event(db, lead_id, actor, "links_revoked", {"links": working})
    return working


def working_link_count(lead_id: int) -> int:
    """How many of the lead's links would open its page now (for staff, before revoking)."""
    return get_db().execute(WORKING_LINKS, (lead_id, now())).fetchone()[0]


def lead_by_token_hash(token_hash: str, at: str) -> dict | None:
    """The lead whose status link hashes to `token_hash`, if that link has not expired at `at`
    (an ISO time) and the lead is not erased; None otherwise, whatever the reason."""
    row = (
        get_db()
        .execute(
            f"SELECT leads.*, {PHOTO_COUNT} FROM status_links "
            "JOIN leads ON leads.id = status_links.lead_id "
            "WHERE status_links.token_hash = ? AND leads.erased_at IS NULL "
            "AND status_links.expires_at > ?",
            (token_hash, at),
        )
        .fetchone()
    )
    return dict(row) if row else None


def lead_by_status_token(token: str) -> dict | None:
    """The lead a status link's token opens, with its photo count; None for every failure
    alike (malformed, unknown, altered, expired, revoked, erased)."""
    if len(token) != TOKEN_LENGTH:
        return None
    return lead_by_token_hash(digest(token), now())


def open_leads_of(email: str) -> list[dict]:
    """Leads of this e-mail address (any case) still under way: not bought, closed or erased."""
    rows = get_db().execute(
        "SELECT * FROM leads WHERE lower(email) = lower(?) AND erased_at IS NULL "
        f"AND state NOT IN ('{State.BOUGHT}', '{State.CLOSED}') ORDER BY id",
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
