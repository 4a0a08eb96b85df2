"""A payout asked for by one staff member and approved by another, each having given both
factors recently (the views say so; app/staff/views/payouts.py). Nothing is typed: the amount,
the account and the rail are the ones the page showed, checked again here, and a page shown
before something changed is refused. Asking records the payout and queues the transfer's
creation at the bank, needing approval; approving lets the job release it. The database refuses
an approval by the one who asked (a CHECK on `payouts`); this module also refuses the one who
confirmed the account by a call-back, so a single careless or compromised account can neither
pay nor confirm-and-pay. Both steps, and every refusal, are on the timeline or in the audit log.
"""

from __future__ import annotations

import sqlite3

from app import queue
from app.leads.db import immediate_transaction, now
from app.leads.display import usd_cents
from app.leads.history import append_event
from app.payouts import ledger, rails, readiness
from app.payouts.ledger import PayoutState
from app.sale.purchase import checklist, payout, register_asks
from app.sale.purchase.authentication import Refused, lead_and_record

NOTHING_ASKED = "Nothing was asked for."
NOTHING_SENT = "Nothing was sent."


def idempotency_key(reference: str, deal: int, attempt: int) -> str:
    """The key the bank creates one transfer under: this deal's payment, try `attempt`, named
    by the lead's reference (random and unique, so no other database's lead ever shares it)."""
    return f"payout-{reference}-deal-{deal}-try-{attempt}"


def ask(lead_id: int, actor: str, shown: dict) -> int:
    """Ask for the payout the page showed (`shown`: amount_cents, rail, last4); the payout's id.
    Refused, nothing recorded, when anything must come first, when the page is out of date, or
    while another payout of the lead is asked for or on its way. A clear register check too old
    to pay on is asked again of the register, when it is asked by API (the ask waits for it)."""
    if register_asks.refresh_before_payment(lead_id) is not None:  # waits, however soon answered
        raise Refused(f"Missing first: {checklist.named('register_recent')}. {NOTHING_ASKED}")
    with immediate_transaction() as db:
        lead, purchase = lead_and_record(db, lead_id)
        amount = readiness.amount_to_pay(db, lead_id)
        refused = readiness.problems(db, lead, purchase, amount)
        if ledger.live(db, lead_id):
            refused.append("A payout is already asked for or on its way.")
        if refused:
            raise Refused(" ".join(refused) + " " + NOTHING_ASKED)
    rail, _, problem = readiness.choose_rail(purchase, amount)  # the bank asked outside the lock
    if problem:
        raise Refused(f"{problem} {NOTHING_ASKED}")
    now_shown = {"amount_cents": amount, "rail": rail, "last4": purchase["account_number_last4"]}
    if {key: shown.get(key) for key in now_shown} != now_shown:
        raise Refused(
            "The amount, the account or the rail changed since this page was opened: look at "
            f"the lead again. {NOTHING_ASKED}"
        )
    with immediate_transaction() as db:
        payout_id = record_ask(db, lead_id, actor, now_shown)
    queue.enqueue(queue.SEND_PAYOUT, payout_id)
    return payout_id


def record_ask(db: sqlite3.Connection, lead_id: int, actor: str, shown: dict) -> int:
    """Inside the transaction that records it: the payout asked for, its rules checked again
    under the write lock (the deal, the signing, the limits); its id."""
    lead, purchase = lead_and_record(db, lead_id)
    lead["reference"] = db.execute(
        "SELECT reference FROM leads WHERE id = ?", (lead_id,)
    ).fetchone()[0]
    refused = readiness.problems(db, lead, purchase, shown["amount_cents"])
    deal, signing = readiness.deal_of(lead_id), payout.signing_on_record(db, lead_id)
    if ledger.live(db, lead_id) or deal is None or signing is None:
        refused.append("A payout is already asked for or on its way.")
    elif (readiness.amount_to_pay(db, lead_id), purchase["account_number_last4"]) != (
        shown["amount_cents"],
        shown["last4"],
    ):
        refused.append("The amount or the account changed since this page was opened.")
    if refused:
        raise Refused(" ".join(refused) + " " + NOTHING_ASKED)
    attempt = ledger.next_attempt(db, lead_id, deal)
    at = now()
    payout_id = db.execute(
        "INSERT INTO payouts (lead_id, deal, signing, attempt, amount_cents, rail, "
        "idempotency_key, asked_by, asked_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (lead_id, deal, signing, attempt, shown["amount_cents"], shown["rail"],
         idempotency_key(lead["reference"], deal, attempt), actor, at, at),
    ).lastrowid  # fmt: skip
    details = {"payout": payout_id, "amount_cents": shown["amount_cents"], "rail": shown["rail"],
               "account_last4": shown["last4"]}  # fmt: skip
    append_event(db, lead_id, actor, "payout_asked", details)
    return payout_id


def approve(lead_id: int, payout_id: int, actor: str) -> int:
    """Approve a payout someone else asked for: the job then has the bank send it. Refused,
    nothing changed, for the one who asked or who confirmed the account by a call-back, for a
    payout no longer waiting, for a deal or signing that is no longer the one on record, and
    when any rule or limit no longer holds (the day's limit counted under the write lock, so two
    approvals at once cannot pass it together). The timeline event's id."""
    with immediate_transaction() as db:
        row = db.execute(
            "SELECT * FROM payouts WHERE id = ? AND lead_id = ?", (payout_id, lead_id)
        ).fetchone()
        if row is None:
            raise Refused(f"There is no such payout on this lead. {NOTHING_SENT}")
        lead, purchase = lead_and_record(db, lead_id)
        refuse_unless_approvable(db, dict(row), purchase, actor)
        refused = readiness.problems(db, lead, purchase, row["amount_cents"])
        if refused:
            raise Refused(" ".join(refused) + " " + NOTHING_SENT)
        at = now()
        db.execute(
            "UPDATE payouts SET state = ?, approved_by = ?, approved_at = ?, updated_at = ? "
            "WHERE id = ? AND state = ?",
            (PayoutState.APPROVED, actor, at, at, payout_id, PayoutState.ASKED),
        )
        details = {"payout": payout_id, "amount_cents": row["amount_cents"], "rail": row["rail"]}
        event_id = append_event(db, lead_id, actor, "payout_approved", details)
    queue.enqueue(queue.SEND_PAYOUT, payout_id)
    return event_id


def refuse_unless_approvable(db: sqlite3.Connection, row: dict, purchase: dict, actor: str):
    """Refused unless `actor` may approve this payout now: not the one who asked, not the one
    who confirmed its account by a call-back, the payout still waiting for approval and still
    for the deal and the signing on record."""
    if row["asked_by"] == actor:
        raise Refused(
            "You asked for this payout, so another staff member must approve it. " + NOTHING_SENT
        )
    if purchase.get("payout_confirmed_by") == actor:
        raise Refused(
            "You confirmed this account by a call-back, so another staff member must approve "
            f"paying into it. {NOTHING_SENT}"
        )
    if row["state"] != PayoutState.ASKED:
        raise Refused(f"This payout is no longer waiting for approval. {NOTHING_SENT}")
    if row["deal"] != readiness.deal_of(row["lead_id"]) or row["signing"] != (
        payout.signing_on_record(db, row["lead_id"])
    ):
        raise Refused(
            "This payout was asked for an earlier accepted offer or an earlier signing of the "
            f"paperwork: ask again if it is still owed. {NOTHING_SENT}"
        )


def words(row: dict, last4: str) -> str:
    """'Pay $9,500.00 to the account ending 6789 by instant transfer (RTP)': what is asked."""
    return (
        f"Pay {usd_cents(row['amount_cents'])} to the account ending {last4} by "
        f"{rails.staff_words(row['rail'])}"
    )
