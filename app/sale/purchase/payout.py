"""The seller's payout account, confirmed from the seller's own mailbox (docs/sale.md, "The
payout account"). A status link can be forwarded or seen on a shared screen, and while a lead
is `agreed` whoever holds it can sign the paperwork with their own bank account. So signing
e-mails the address on file at once: the account by its last 4 digits, a one-time link (256
bits, kept only as a digest, as the erasure link) to confirm it, and "this wasn't me". The
account counts (checklist item "payout confirmed") only once the seller confirms it, or staff
record a call-back to the phone on file. "This wasn't me" voids the paperwork (kept as
evidence while the register keeps the lead: app/sale/keeping.py), switches every status link
off, sends the lead back to the paperwork step and alerts staff.

The account holder's name is compared with the legal name (`names_match`), allowing for case,
accents, middle names and initials; a mismatch is an exception (approvals.py).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import unicodedata
from datetime import timedelta

from app import queue
from app.leads import links
from app.leads.db import get_db, immediate_transaction, now, transaction, truncate_wal
from app.leads.email_kinds import PAYOUT_CHECK, unclaimed
from app.leads.history import append_event
from app.leads.state import State
from app.sale import keeping
from app.sale.purchase import files, record
from app.sale.purchase.authentication import Refused, lead_and_record
from app.security.tokens import TOKEN_LENGTH, digest

CONFIRM_WITHIN = timedelta(days=7)
CONFIRM_WITHIN_WORDS = "7 days"
# The paperwork_signed event of a purchase row's latest signing: while the row's signed_at is
# set, the signing whose paperwork is on record.
LATEST_SIGNING = (
    "(SELECT max(id) FROM lead_events WHERE lead_events.lead_id = purchases.lead_id "
    "AND kind = 'paperwork_signed')"
)
# A check that still stands: not answered, its lead waiting for payment and its paperwork still
# the signing it was asked for (not voided, not signed again, even with an account of the same
# last 4 digits).
STANDING = (
    "FROM payout_checks JOIN leads ON leads.id = payout_checks.lead_id "
    "JOIN purchases ON purchases.lead_id = payout_checks.lead_id "
    f"WHERE answered_at IS NULL AND leads.state = '{State.AGREED}' AND leads.erased_at IS NULL "
    f"AND purchases.signed_at IS NOT NULL AND payout_checks.signing = {LATEST_SIGNING}"
)
# What makes a link good: a standing check's, not expired, the account not yet confirmed. Not
# whether its e-mail is noted as sent: the token exists only in that e-mail, which the seller
# can open before the worker notes it (or if noting it fails), and a retry replaces the token.
LIVE_LINK = (
    f"{STANDING} AND token_hash = :hash AND expires_at > :now "
    "AND purchases.payout_confirmed_at IS NULL"
)


# The holder's name and the legal name


def name_parts(name: str | None) -> list[str]:
    """A name's words as compared: accents and case dropped, apostrophes joined, hyphens and
    periods as spaces ("José O'Neil-Díaz" is jose, oneil, diaz)."""
    # Upper case first, so every spelling of a letter meets the same one (a dotless ı is an I).
    plain = unicodedata.normalize("NFKD", (name or "").upper())
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    plain = re.sub(r"['’`]", "", plain)
    return re.sub(r"[^\w]+|_", " ", plain).split()


def same_or_initial(one: str, other: str) -> bool:
    """Two words of a name that agree: the same, or one the other's initial."""
    return (
        one == other
        or (len(one) == 1 and other.startswith(one))
        or (len(other) == 1 and one.startswith(other))
    )


def names_match(holder: str | None, legal: str | None) -> bool:
    """Whether the account holder is the person of the legal name: the same last name, first
    names that agree (an initial agrees with its name), and middle names that agree where both
    give them ("J. A. Avery", "Jordan Avery" and "JORDAN ANNE AVERY" all match "Jordan A.
    Avery"; "Jordan B. Avery" and "Morgan Avery" do not)."""
    one, other = name_parts(holder), name_parts(legal)
    if len(one) < 2 or len(other) < 2 or one[-1] != other[-1]:
        return False
    middles = zip(one[1:-1], other[1:-1], strict=False)
    return same_or_initial(one[0], other[0]) and all(same_or_initial(a, b) for a, b in middles)


def holder_subject(purchase: dict) -> str:
    """What an approval of a holder other than the seller names: a digest of the two names as
    signed (so a new signature with other names needs a new approval)."""
    names = f"{purchase.get('account_holder')}\n{purchase.get('legal_name')}"
    return hashlib.sha256(names.encode()).hexdigest()[:32]


# The e-mail that asks the seller


def ask_seller(db: sqlite3.Connection, lead_id: int, last4: str, signing: int) -> int:
    """Inside the transaction that signs the paperwork: the check its e-mail will carry, for
    that signing (its paperwork_signed event) only; its id (the caller queues SEND_PAYOUT_CHECK
    once committed)."""
    return db.execute(
        "INSERT INTO payout_checks (lead_id, account_last4, signing, asked_at) VALUES (?, ?, ?, ?)",
        (lead_id, last4, signing, now()),
    ).lastrowid


def signing_on_record(db: sqlite3.Connection, lead_id: int) -> int | None:
    """The paperwork_signed event of the paperwork on the lead's record; None while none is
    (never signed, or voided)."""
    row = db.execute(
        f"SELECT {LATEST_SIGNING} FROM purchases WHERE lead_id = ? AND signed_at IS NOT NULL",
        (lead_id,),
    ).fetchone()
    return row[0] if row else None


def lead_awaiting_link(check_id: int) -> dict | None:
    """The lead of a check whose e-mail is not sent yet and whose paperwork still waits for it;
    None once sent, answered, or the paperwork was voided or the lead moved on."""
    row = (
        get_db()
        .execute(
            f"SELECT leads.*, payout_checks.account_last4 {STANDING} "
            "AND payout_checks.id = ? AND sent_at IS NULL",
            (check_id,),
        )
        .fetchone()
    )
    return dict(row) if row else None


def issue_link(check_id: int) -> str:
    """A new link for the e-mail about to be sent (links.issue_one_time_link)."""
    return links.issue_one_time_link("payout_checks", check_id, "/status/payout", CONFIRM_WITHIN)


def mark_link_sent(check_id: int) -> None:
    """Record that the e-mail has gone, so a retry or requeue sends no other."""
    with transaction() as db:
        db.execute("UPDATE payout_checks SET sent_at = ? WHERE id = ?", (now(), check_id))


def checks_to_send() -> list[int]:
    """Checks whose e-mail has not gone yet nor is claimed: what `flask leads requeue` sends."""
    rows = get_db().execute(
        "SELECT id FROM payout_checks "
        f"WHERE sent_at IS NULL AND {unclaimed(PAYOUT_CHECK, 'payout_checks.id')} ORDER BY id"
    )
    return [row[0] for row in rows if lead_awaiting_link(row[0])]


def lead_for_link(token: str) -> dict | None:
    """The lead a live link would confirm, with the account's last 4; None for every failure
    alike (malformed, unknown, used, expired, or the paperwork voided or signed again)."""
    if len(token) != TOKEN_LENGTH:
        return None
    live = {"hash": digest(token), "now": now()}
    row = get_db().execute(f"SELECT leads.*, account_last4 {LIVE_LINK}", live).fetchone()
    return dict(row) if row else None


def answer(db: sqlite3.Connection, token: str, said: str) -> dict | None:
    """Use a live link, once, inside the caller's transaction: its check marked answered;
    (lead id, account's last 4), or None, changing nothing, for a link that is not live."""
    if len(token) != TOKEN_LENGTH:
        return None
    rows = db.execute(
        "UPDATE payout_checks SET answered_at = :now, answer = :said "
        f"WHERE id = (SELECT payout_checks.id {LIVE_LINK}) RETURNING lead_id, account_last4",
        {"hash": digest(token), "now": now(), "said": said},
    ).fetchall()
    return dict(rows[0]) if rows else None


def confirm(token: str) -> int | None:
    """The seller confirms the account from their e-mail: it counts from now on; the lead's id,
    or None for a link that is not live."""
    with immediate_transaction() as db:
        used = answer(db, token, "confirmed")
        if used is None:
            return None
        lead_id = used["lead_id"]
        confirmed = {"payout_confirmed_at": now(), "payout_confirmed_by": "seller"}
        record.update(db, lead_id, confirmed)
        append_event(db, lead_id, "seller", "payout_confirmed", {"how": "email"})
    return lead_id


def deny(token: str) -> int | None:
    """ "This wasn't me": the paperwork voided, every status link switched off, the lead back at
    the paperwork step, staff alerted; the lead's id, or None for a link that is not live."""
    with immediate_transaction() as db:
        used = answer(db, token, "denied")
        if used is None:
            return None
        lead_id = used["lead_id"]
        # While the register keeps the lead (a flag, or a question open), the paperwork, its ID
        # photos and the account it named are evidence, kept for the law as a closing keeps them.
        kept = keeping.register_keeps(db, lead_id)
        names = [] if kept else record.discard_paperwork(db, lead_id, "seller")
        db.execute("DELETE FROM status_links WHERE lead_id = ?", (lead_id,))
        event_id = append_event(db, lead_id, "seller", "payout_denied", {})
    files.remove_files(names)
    truncate_wal()
    queue.enqueue(queue.ALERT_STAFF, lead_id, event_id)
    return lead_id


# A call-back by staff, where the seller cannot use the e-mail


def digits(phone: str | None) -> str:
    """A phone number's digits, without a leading US country code."""
    only = re.sub(r"\D", "", phone or "")
    return only[1:] if len(only) == 11 and only.startswith("1") else only


def record_callback(lead_id: int, actor: str, phone_called: str) -> int:
    """Staff called the seller back on the phone on file and the seller confirmed the account
    by its last 4 digits: it counts from now on; the event's id. Refused for another number."""
    with immediate_transaction() as db:
        lead, purchase = lead_and_record(db, lead_id)
        phone = db.execute("SELECT phone FROM leads WHERE id = ?", (lead_id,)).fetchone()[0]
        if lead["erased_at"] or lead["state"] != State.AGREED or not purchase.get("signed_at"):
            raise Refused(
                "A call-back confirms the account of signed paperwork waiting for payment; this "
                "lead has none. Nothing was changed."
            )
        if purchase.get("payout_confirmed_at"):
            raise Refused("The payout account is already confirmed. Nothing was changed.")
        if not digits(phone_called) or digits(phone_called) != digits(phone):
            raise Refused(
                "A call-back counts only on the phone number on file, which the seller gave "
                "with their enquiry. Nothing was changed."
            )
        confirmed = {
            "payout_confirmed_at": now(),
            "payout_confirmed_by": actor,
            "payout_callback_phone": phone,
        }
        record.update(db, lead_id, confirmed)
        return append_event(db, lead_id, actor, "payout_confirmed", {"how": "call-back"})
