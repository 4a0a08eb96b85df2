"""Erasure: a lead's personal data and files removed, keeping a non-personal record (a closed
lead's outcome; a bought lead's purchase record until its retain_until), by staff, by the daily
retention run, or at the seller's own request confirmed from their mailbox.

A status link is all it takes to ask, and status links get forwarded and leaked, so asking erases
nothing: it adds a request (`ask_seller_to_confirm`) whose job e-mails the address on file a
one-time link, `/status/erasure/<token>`, good for CONFIRM_WITHIN. Following it (a page, then a
POST with the form's CSRF token) confirms the request, once, and queues the erasure job, which
e-mails the seller one last time while the address is still there and then erases the lead
(worker/jobs.py). A request is made when withdrawing (the lead closed) or, after a sale, from
the status page of the bought lead, which keeps the purchase record the law requires until its
retain_until (erase_sale). As with status links, the token is only in the e-mail:
leads.db keeps its SHA-256 (app/security/tokens.py), and the jobs are queued by id.
"""

from __future__ import annotations

import functools
import sqlite3
from datetime import timedelta

from flask import current_app

from app import queue
from app.leads import erasure_record, links, storage, store
from app.leads.db import get_db, now, transaction
from app.leads.email_kinds import ERASURE_LINK, unclaimed
from app.leads.state import State
from app.rendering.dates import display_date
from app.replica import copies
from app.sale import keeping
from app.sale.lifecycle import IllegalMove, LeadNotFound, StaleState, check_move
from app.sale.purchase import drafts, files, record
from app.security.tokens import TOKEN_LENGTH, digest

# What an erasure took, as the record of erasures names it (app/leads/erasure_record.py): a
# closed lead's personal data and purchase; a bought lead's, keeping the purchase record; the
# purchase record too, once past its retain_until.
CLOSED_LEAD, SALE, WHOLE_RECORD = "closed_lead", "sale", "whole_record"
# The actor of an erasure applied again after a restore: its entry is already on record.
RESTORE = "restore"

# Event data that may hold personal details, removed on erasure: people's own words, and the
# ZIP code a confirmed return address's event carried before step 40 of the schema.
ERASED_EVENT_KEYS = ("note", "message", "place", "zip")
# Blanked on erasure (the click and browser ids too: each points to one person's browser).
# Kept: reference, brand, model, condition, dates, campaign and landing page, outcome.
ERASED_VALUES = {
    "full_name": "",
    "email": "",
    "phone": "",
    "additional_details": "",
    "postal_code": None,  # where the seller lives, narrowed to a ZIP code
    "sellers_serial": None,  # the serial number the seller typed on the status page
    "client_ip": None,
    "user_agent": None,
    "ga_client_id": None,
    **dict.fromkeys(("fbc", "fbp", "gclid", "gbraid", "wbraid"), None),
}


def drop_purchase(db: sqlite3.Connection, lead_id: int) -> list[str]:
    """A closed lead's purchase record, its exceptions (whose reasons are staff's free text),
    its payout account's checks and its files, dropped inside its erasure (a final offer
    accepted, then withdrawn: its paperwork); the file names to delete once committed. The
    register checks stay: they describe the watch, not the seller."""
    db.execute("DELETE FROM purchases WHERE lead_id = ?", (lead_id,))
    db.execute("DELETE FROM approvals WHERE lead_id = ?", (lead_id,))
    record.drop_payout_checks(db, lead_id)
    return files.remove(db, lead_id, files.KINDS) + drafts.remove(db, lead_id)


def erase(lead_id: int, actor: str) -> int:
    """Remove a closed lead's personal data and photo files, keeping a non-personal record;
    returns how many photos were removed. Raises TransitionError unless the lead is closed and
    nothing keeps it."""
    check_erasable(lead_id, State.CLOSED, actor)
    return remove_personal_data(lead_id, actor, State.CLOSED, drop_purchase, CLOSED_LEAD)


def erase_sale(lead_id: int, actor: str, whole_record: bool = False) -> int:
    """Remove a bought lead's personal data as erase() does, but keep the purchase record and
    its documents the law requires until its retain_until (the seller's request: their bank
    details and ID photos go); or, once past it (`whole_record`, the daily retention), blank
    that record too. Returns how many photos were removed; TransitionError unless the lead is
    bought and not erased, or while something keeps it."""
    check_erasable(lead_id, State.BOUGHT, actor)
    if whole_record:
        return remove_personal_data(lead_id, actor, State.BOUGHT, record.erase_record, WHOLE_RECORD)
    keep_record = functools.partial(record.forget_after_sale, actor=actor)
    return remove_personal_data(lead_id, actor, State.BOUGHT, keep_record, SALE)


def erase_inactive(lead_id: int, state: str) -> int:
    """A lead that never became a purchase, past LEAD_RETENTION_MONTHS without activity (the
    daily retention): closed by the system (`no_response`) if still open, then erased."""
    return close_and_erase(lead_id, state, "no_response", "system")


def close_and_erase(lead_id: int, state: str, reason: str, actor: str) -> int:
    """Close a lead with `reason` if it is not closed yet, then erase it. No e-mail announces
    the closing: the address goes with it, and a send racing the erasure could still reach
    someone whose details we no longer keep. Neither happens while something keeps the lead."""
    check_erasable(lead_id, state, actor)
    if state != State.CLOSED:
        check_move(state, State.CLOSED, {"reason": reason})
        moved, _ = store.change_state(lead_id, state, State.CLOSED, actor, {"reason": reason})
        if moved is None:
            raise StaleState("This lead changed before it was closed; nothing was erased.", "")
    return erase(lead_id, actor)


def check_erasable(lead_id: int, state: str, actor: str) -> None:
    """LeadNotFound, or IllegalMove unless the lead is in `state`, not yet erased, and nothing
    keeps it (app/sale/keeping.py; never a restore's erasure applied again: it was done)."""
    lead = store.get_lead(lead_id)
    if lead is None:
        raise LeadNotFound(f"Lead {lead_id} does not exist.")
    if lead["state"] != state or lead["erased_at"]:
        raise IllegalMove(f"Only a {state} lead that is not yet erased can be erased.")
    if why := actor != RESTORE and keeping.kept_because(get_db(), lead_id):
        raise IllegalMove(f"This lead's details are kept while {why}, as the law requires.")


def remove_personal_data(lead_id: int, actor: str, state: str, purchase, kind: str) -> int:
    """Blank the lead, dealing with its purchase by `purchase` (store.erase_lead), put the
    erasure (`kind`) on the record of erasures, then delete its photo and purchase files; how
    many photos were removed."""
    blank = ERASED_VALUES | {"meta_event_id": f"erased-{lead_id}"}
    try:
        photos, purchase_files = store.erase_lead(
            lead_id, actor, blank, ERASED_EVENT_KEYS, state, purchase
        )
    except LookupError as error:
        raise StaleState(
            "This lead changed while it was being erased; nothing was erased.", ""
        ) from error
    if actor != RESTORE:
        erasure_record.log(lead_id, kind, actor)
    storage.remove_photo_files(photos)
    files.remove_files(purchase_files)
    copies.sync_later(lead_id)
    current_app.logger.info("Lead %s erased by %s (%s photos).", lead_id, actor, len(photos))
    return len(photos)


# The seller's own request, confirmed from their mailbox

CONFIRM_WITHIN = timedelta(hours=24)
CONFIRM_WITHIN_WORDS = "24 hours"  # as the e-mail and the pages say it
# A request that still stands: its lead not erased, and still in the state change the request
# was made in: the closure (reopened, or closed again since, voids it) or the sale, which is
# final (closed_event_id holds whichever it was).
STANDING = (
    f"leads.state IN ('{State.CLOSED}', '{State.BOUGHT}') AND leads.erased_at IS NULL "
    "AND erasure_requests.closed_event_id = "
    "(SELECT max(id) FROM lead_events WHERE lead_id = leads.id AND kind = 'state_changed')"
)
# After a sale, erasure takes what the law lets go and keeps the purchase record until its
# retain_until (app/sale/retention.py): the status page, the confirmation page and both
# e-mails say so in these words.
SALE_GOES = (
    "your e-mail address and phone number, your messages, the photos of your watch and of your "
    "ID, your bank details and your status page"
)
SALE_KEPT = (
    "Second-hand dealer laws and tax rules require us to keep the record of the purchase (your "
    "name, address and date of birth, your ID's type, number, issuer and expiry date, the "
    "watch, the price and the payment, the stolen-watch register check and your electronic "
    "signature), with the bill of sale and the receipt, until {until}; then we delete them too."
)


def record_kept_until(lead: dict) -> str | None:
    """The day until which an erased bought lead's purchase record and documents are kept,
    as people read it; None for a lead that is not bought (it keeps no purchase record)."""
    if lead["state"] != State.BOUGHT:
        return None
    return display_date(record.get(lead["id"])["retain_until"])


def after_sale(lead: dict) -> tuple[str, str] | None:
    """What an erasure deletes of a bought lead, and what it keeps and until when; None for a
    lead that is not bought."""
    until = record_kept_until(lead)
    return None if until is None else (SALE_GOES, SALE_KEPT.format(until=until))


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


def ask_after_sale(lead_id: int) -> int:
    """Record a seller's wish, from the status page of a bought lead, to have deleted what the
    law lets us delete, against the sale (its last state change), and queue the e-mail with
    the link that confirms it; the request's id."""
    (sale_event_id,) = (
        get_db()
        .execute(
            "SELECT max(id) FROM lead_events WHERE lead_id = ? AND kind = 'state_changed'",
            (lead_id,),
        )
        .fetchone()
    )
    return ask_seller_to_confirm(lead_id, sale_event_id)


# No link is sent for a request once the seller confirmed another of the same lead's closure or
# sale (a request asked again, its link still waiting for the mail server): the erasure is
# under way, and a new link would ask them to confirm it again.
NONE_CONFIRMED = (
    "NOT EXISTS (SELECT 1 FROM erasure_requests AS confirmed WHERE confirmed.lead_id = leads.id "
    "AND confirmed.confirmed_at IS NOT NULL "
    "AND confirmed.closed_event_id = erasure_requests.closed_event_id)"
)


def lead_awaiting_link(request_id: int) -> dict | None:
    """The lead of a standing request whose link is not sent yet; None once the link is sent,
    the lead was erased or reopened meanwhile, or its erasure is confirmed already."""
    row = (
        get_db()
        .execute(
            "SELECT leads.* FROM erasure_requests JOIN leads ON leads.id = lead_id "
            f"WHERE erasure_requests.id = ? AND sent_at IS NULL AND {STANDING} "
            f"AND {NONE_CONFIRMED}",
            (request_id,),
        )
        .fetchone()
    )
    return dict(row) if row else None


def issue_link(request_id: int) -> str:
    """A new confirmation link for the e-mail about to be sent (links.issue_one_time_link)."""
    return links.issue_one_time_link(
        "erasure_requests", request_id, "/status/erasure", CONFIRM_WITHIN
    )


def mark_link_sent(request_id: int) -> None:
    """Record that the confirmation link has gone, so a retry or requeue sends no other."""
    with transaction() as db:
        db.execute("UPDATE erasure_requests SET sent_at = ? WHERE id = ?", (now(), request_id))


# What makes a link good: not used, not expired, and its lead still erasable (not whether its
# e-mail is noted as sent: see payout.LIVE_LINK).
LIVE_LINK = (
    "FROM erasure_requests JOIN leads ON leads.id = lead_id WHERE token_hash = :hash "
    f"AND confirmed_at IS NULL AND expires_at > :now AND {STANDING}"
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
    """Standing requests whose link has not gone yet nor is claimed, and whose erasure is not
    confirmed already: what `flask leads requeue` sends."""
    rows = get_db().execute(
        "SELECT erasure_requests.id FROM erasure_requests JOIN leads ON leads.id = lead_id "
        f"WHERE sent_at IS NULL AND {STANDING} AND {NONE_CONFIRMED} "
        f"AND {unclaimed(ERASURE_LINK, 'lead_id', 'erasure_requests.id')} "
        "ORDER BY erasure_requests.id"
    )
    return [row[0] for row in rows]


def confirmed_erasures() -> list[int]:
    """Leads whose seller's confirmed erasure stands but is not done yet (a job that failed,
    or waited for SMTP, or for nothing to keep the lead any more): what `flask leads requeue`
    erases."""
    rows = get_db().execute(
        "SELECT DISTINCT lead_id FROM erasure_requests JOIN leads ON leads.id = lead_id "
        f"WHERE confirmed_at IS NOT NULL AND {STANDING} ORDER BY lead_id"
    )
    return [row[0] for row in rows if not keeping.kept_because(get_db(), row[0])]
