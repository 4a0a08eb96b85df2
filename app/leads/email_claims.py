"""The claims of the e-mails promised once (the `email_claims` table): each is claimed before it
is sent by an INSERT that one runner wins, however many workers run the job at once, so the
e-mail goes at most once (worker/mail.py's `send_once` takes, releases and closes the claims).

A claim without `sent_at` is either in flight or a send that may or may not have happened (the
worker died, the disk filled or the relay went quiet after the whole message): never sent again
automatically, and, once older than UNSURE_AFTER, put before staff once on the lead's timeline
and by e-mail, so a person checks the relay's log and sends it by hand. The finders of owed
work (app/sale/pending.py, app/shipping/notices.py) pass over every claimed e-mail.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.email_kinds import UNSURE, unclaimed
from app.leads.history import append_event

# Longer than any send takes (connecting, TLS, the login and the message each wait at most the
# SMTP time-out): a claim this old without `sent_at` is no runner's any more.
UNSURE_AFTER = timedelta(minutes=5)


def claim(about: str, lead_id: int | None) -> int | None:
    """Claim the e-mail `about`: the claim's id for the one caller, in any process, whose INSERT
    makes the row; None if it was claimed already (sent, in flight, or unsure)."""
    with transaction() as db:
        cursor = db.execute(
            "INSERT INTO email_claims (about, lead_id, claimed_at) VALUES (?, ?, ?) "
            "ON CONFLICT (about) DO NOTHING",
            (about, lead_id, now()),
        )
    return cursor.lastrowid if cursor.rowcount == 1 else None


def note_message_id(claim_id: int, message_id: str) -> None:
    """Keep the Message-ID of the message about to go, for a person to look up in the relay's
    log if its send turns out unsure."""
    with transaction() as db:
        db.execute("UPDATE email_claims SET message_id = ? WHERE id = ?", (message_id, claim_id))


def release(claim_id: int) -> None:
    """Give the claim back: the relay never took the message, so the job's retry sends it."""
    with transaction() as db:
        db.execute("DELETE FROM email_claims WHERE id = ? AND sent_at IS NULL", (claim_id,))


def mark_sent(claim_id: int) -> None:
    """Record that the relay took the message."""
    with transaction() as db:
        db.execute("UPDATE email_claims SET sent_at = ? WHERE id = ?", (now(), claim_id))


def get(claim_id: int) -> dict | None:
    """One claim by its id, or None."""
    row = get_db().execute("SELECT * FROM email_claims WHERE id = ?", (claim_id,)).fetchone()
    return dict(row) if row else None


def in_flight(about: str) -> bool:
    """Whether the e-mail `about` is claimed by a runner that may still be sending it: neither
    recorded sent nor judged unsure yet."""
    row = (
        get_db()
        .execute(
            "SELECT 1 FROM email_claims WHERE about = ? AND sent_at IS NULL AND unsure_at IS NULL",
            (about,),
        )
        .fetchone()
    )
    return row is not None


def mark_unsure(claim_id: int) -> bool:
    """Judge the claim's send unsure, once: on its lead's timeline (an `email_unsure` event) in
    the same transaction. False if it was sent or judged before."""
    with immediate_transaction() as db:
        rows = db.execute(
            "UPDATE email_claims SET unsure_at = ? "
            "WHERE id = ? AND sent_at IS NULL AND unsure_at IS NULL "
            "RETURNING lead_id, about, message_id",
            (now(), claim_id),
        ).fetchall()  # all of it, so the UPDATE is finished before the event is added
        if rows and rows[0]["lead_id"] is not None:
            claimed = {"claim": claim_id, "about": rows[0]["about"], "message_id": rows[0][2]}
            append_event(db, rows[0]["lead_id"], "system", "email_unsure", claimed)
    return bool(rows)


def claimed(about: str) -> bool:
    """Whether the e-mail `about` is claimed (sent, in flight or unsure): not owed any more."""
    row = get_db().execute("SELECT 1 FROM email_claims WHERE about = ?", (about,)).fetchone()
    return row is not None


def unsure_to_report(claimed_before: str | None = None) -> list[int]:
    """Claims older than UNSURE_AFTER (and than `claimed_before`, if given) never recorded sent,
    whose staff e-mail about it is not claimed yet: what the requeue and the sweep report. A
    claim on the staff e-mail about an unsure one is not reported in turn (it is logged)."""
    cutoff = (datetime.now(UTC) - UNSURE_AFTER).isoformat(timespec="seconds")
    rows = get_db().execute(
        "SELECT unsent.id FROM email_claims AS unsent "
        "WHERE unsent.sent_at IS NULL AND unsent.claimed_at < ? "
        f"AND unsent.about NOT LIKE '{UNSURE.name}:%' AND {unclaimed(UNSURE, 'unsent.id')} "
        "ORDER BY unsent.id",
        (min(cutoff, claimed_before or cutoff),),
    )
    return [row[0] for row in rows]
