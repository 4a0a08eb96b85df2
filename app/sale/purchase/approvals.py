"""Exceptions to a purchase's rules, and the second staff member each one needs (docs/sale.md,
"Exceptions need a second person"). One mechanism for all of them: a payment other than the
accepted offer, a payout account whose holder is not the seller's legal name, and clearing a
flagged stolen-watch register check.

One staff member asks, with a reason; another approves. The database refuses an approval by the
one who asked (a CHECK on `approvals`), and an approval once given is never changed or deleted
while its purchase is kept. An approval covers exactly its `subject` (an amount, a pair of
names, one register check) in one deal (the seller's acceptance of the final offer it was given
in) and, for a holder's name, one signing of the paperwork, so it cannot be stretched to
something else: not to a later deal after the lead is closed and reopened, nor to paperwork
signed again. Asking and approving
are events on the lead's timeline; the staff views audit both.
"""

from __future__ import annotations

import sqlite3

from app.leads import history
from app.leads.db import get_db, immediate_transaction, now
from app.leads.display import usd
from app.leads.history import append_event
from app.leads.state import State
from app.sale.purchase import payout, record, stolen_register
from app.sale.purchase.authentication import Refused, lead_and_record
from app.sale.purchase.paperwork import agreed_price

PAYMENT_AMOUNT = "payment_amount"
HOLDER_NAME = "holder_name"
REGISTER_FLAG = "register_flag"
KINDS = {
    PAYMENT_AMOUNT: "A payment other than the accepted offer",
    HOLDER_NAME: "A payout account in another name than the seller's",
    REGISTER_FLAG: "Clearing a flagged register check",
}


# The approvals of one exception in the deal (and signing) it would be given for now.
SAME_EXCEPTION = (
    "FROM approvals WHERE lead_id = :lead_id AND kind = :kind AND subject = :subject "
    "AND deal IS :deal AND signing IS :signing"
)


def given_for(db: sqlite3.Connection, lead_id: int, kind: str) -> dict:
    """What an exception asked for now is bound to: the deal (the event of the seller's latest
    acceptance of a final offer) and, for a holder's name, the signing (the paperwork_signed
    event of the paperwork on record). A closed and reopened lead is accepted again, and
    paperwork signed again is a new signing: an approval given before counts for neither."""
    deal = history.latest_change_id(history.lead_events(lead_id), State.AGREED)
    signing = payout.signing_on_record(db, lead_id) if kind == HOLDER_NAME else None
    return {"deal": deal, "signing": signing}


def exception(db: sqlite3.Connection, lead_id: int, kind: str, subject: str) -> dict:
    """The query parameters naming one exception in the deal (and signing) of now."""
    return {"lead_id": lead_id, "kind": kind, "subject": subject} | given_for(db, lead_id, kind)


def approved(db: sqlite3.Connection, lead_id: int, kind: str, subject: str) -> bool:
    """Whether a second staff member approved exactly this exception for this lead, in its
    deal of now (and, for a holder's name, for the paperwork signed now)."""
    row = db.execute(
        f"SELECT 1 {SAME_EXCEPTION} AND approved_by IS NOT NULL",
        exception(db, lead_id, kind, subject),
    ).fetchone()
    return row is not None


def current(db: sqlite3.Connection, approval: dict) -> bool:
    """Whether an exception was asked for the lead's deal (and signing) of now."""
    bound = given_for(db, approval["lead_id"], approval["kind"])
    return all(approval[key] == value for key, value in bound.items())


def of_lead(lead_id: int) -> list[dict]:
    """Every exception asked for on the lead, newest first, each saying whether it was asked
    for the deal (and signing) of now (`current`): one from before counts for nothing."""
    db = get_db()
    rows = db.execute("SELECT * FROM approvals WHERE lead_id = ? ORDER BY id DESC", (lead_id,))
    return [dict(row) | {"current": current(db, dict(row))} for row in rows]


def refuse_unless_before_payment(lead: dict) -> None:
    """Exceptions are asked for and approved while an accepted offer waits for payment."""
    if lead["erased_at"] or lead["state"] != State.AGREED:
        raise Refused(
            "Exceptions are asked for and approved after the seller accepts the final offer "
            "and before the watch is bought; this lead is not at that point. Nothing was changed."
        )


def refuse_unless_needed(db: sqlite3.Connection, lead_id: int, kind: str, subject: str) -> None:
    """Only an exception that is one: another amount than the accepted offer, an account holder
    who is not the seller as signed, a register check waiting to clear a flag."""
    if kind == PAYMENT_AMOUNT and int(subject) == agreed_price(lead_id):
        raise Refused(
            f"{usd(int(subject))} is the accepted offer: paying it needs no approval. "
            "Nothing was changed."
        )
    if kind == HOLDER_NAME:
        purchase = record.get(lead_id) or {}
        signed = purchase.get("signed_at") and subject == payout.holder_subject(purchase)
        if not signed or payout.names_match(purchase["account_holder"], purchase["legal_name"]):
            raise Refused(
                "The signed paperwork does not name an account holder other than the seller: "
                "there is nothing to approve. Nothing was changed."
            )
    if kind == REGISTER_FLAG:
        waiting = stolen_register.awaiting_approval(db, lead_id)
        if waiting is None or str(waiting["id"]) != subject:
            raise Refused(
                "There is no clear register check waiting to clear a flag: record a new check "
                "first. Nothing was changed."
            )


def ask(lead_id: int, kind: str, subject: str, reason: str, actor: str) -> int:
    """Ask for an exception, with its reason; the event's id. Refused when it is not needed,
    not possible at the lead's step, or already asked for."""
    with immediate_transaction() as db:
        lead, _ = lead_and_record(db, lead_id)
        refuse_unless_before_payment(lead)
        refuse_unless_needed(db, lead_id, kind, subject)
        named = exception(db, lead_id, kind, subject)
        asked = db.execute(f"SELECT approved_by {SAME_EXCEPTION}", named).fetchone()
        if asked is not None:
            done = "was already approved" if asked[0] else "is already waiting for approval"
            raise Refused(f"This exception {done}. Nothing was changed.")
        cursor = db.execute(
            "INSERT INTO approvals (lead_id, kind, subject, reason, requested_by, requested_at, "
            "deal, signing) VALUES (:lead_id, :kind, :subject, :reason, :actor, :now, :deal, "
            ":signing)",
            named | {"reason": reason, "actor": actor, "now": now()},
        )
        event = {"approval": cursor.lastrowid, "kind": kind, "subject": subject}
        return append_event(db, lead_id, actor, "exception_requested", event)


def approve(lead_id: int, approval_id: int, actor: str) -> int:
    """Approve an exception someone else asked for; the event's id. Clearing a flag makes the
    waiting clear check count, in the same transaction."""
    with immediate_transaction() as db:
        lead, _ = lead_and_record(db, lead_id)
        refuse_unless_before_payment(lead)
        row = db.execute(
            "SELECT * FROM approvals WHERE id = ? AND lead_id = ?", (approval_id, lead_id)
        ).fetchone()
        if row is None:
            raise Refused("There is no such exception on this lead. Nothing was changed.")
        if row["requested_by"] == actor:
            raise Refused(
                "You asked for this exception, so another staff member must approve it. "
                "Nothing was changed."
            )
        if row["approved_by"]:
            raise Refused("This exception was already approved. Nothing was changed.")
        if not current(db, dict(row)):
            raise Refused(
                "This exception was asked for an earlier accepted offer or an earlier signing of "
                "the paperwork, so it cannot count for this one: ask again if it is still "
                "needed. Nothing was changed."
            )
        if row["kind"] == REGISTER_FLAG:
            stolen_register.clear_flag(db, lead_id, int(row["subject"]))
        db.execute(
            "UPDATE approvals SET approved_by = ?, approved_at = ? WHERE id = ?",
            (actor, now(), approval_id),
        )
        event = {"approval": approval_id, "kind": row["kind"], "subject": row["subject"]}
        return append_event(db, lead_id, actor, "exception_approved", event)
