"""A payout's transfer at the bank: created once, needing approval, and released only once a
second staff member approved it, however often it is asked for.

The payout's row comes first (two_people.py), the transfer is created under an idempotency key
made of the deal and the try (the bank answers a second request with the same key with the same
transfer), and its id is stored as soon as the bank answers, before anything is released. Every
later try reads the transfer back before acting: one released already is taken as it is. So
three presses, a job retried after a 500 or a time-out, or two workers at once create one
transfer and release it once. Before releasing, the payout must still be for the lead's deal and
signing on record and the bank's transfer for exactly its amount; otherwise it is cancelled and
staff are told. The seller's bank numbers are opened only here, for the bank's call.
"""

from __future__ import annotations

from flask import current_app

from app import queue
from app.leads import store
from app.leads.db import get_db, immediate_transaction, now
from app.leads.history import append_event
from app.leads.state import State
from app.payouts import increase_api, ledger, readiness, settlement
from app.payouts.increase_api import BankError, Order
from app.payouts.ledger import PayoutState
from app.sale.purchase import bank_payouts, payout, record

# The bank's answers to a creation that no retry mends: the transfer is refused, in its words.
REFUSALS = (400, 403, 404, 422)


def carry_on(payout_id: int) -> str:
    """Do what the payout is owed at the bank now, in order: its transfer created if it has
    none, called off if the payout was cancelled meanwhile, released once approved, then read
    back (one still waiting for its second person too: the bank may say it was released or
    refused there); what it did. BankError as the bank said it, for the job to retry. Nothing
    at all once payouts are recorded by hand again (PAYOUT_PROVIDER unset): staff may be paying
    it themselves."""
    if not bank_payouts.sent_by_api():
        return "payouts are not sent from the site: nothing sent"
    row = ledger.get(payout_id)
    if row["state"] in (PayoutState.ASKED, PayoutState.APPROVED) and not row["transfer_id"]:
        create_once(row)
        row = ledger.get(payout_id)
    if not row["transfer_id"]:
        return f"{row['state']}: nothing to do"
    if row["state"] == PayoutState.CANCELED and row["transfer_id"]:
        return call_off(row)
    if row["state"] == PayoutState.APPROVED:
        return release(row)
    if row["state"] in (PayoutState.ASKED, PayoutState.RELEASED, PayoutState.PAID):
        transfer = increase_api.retrieve_transfer(row["rail"], row["transfer_id"])
        return settlement.apply(row, transfer)
    return f"{row['state']}: nothing to do"


def order_of(row: dict) -> Order | None:
    """What the transfer pays, the seller's numbers opened from the signing on record (None if
    they do not open, or were erased)."""
    purchase = record.get(row["lead_id"]) or {}
    routing_number, account_number = readiness.account(purchase)
    if not routing_number or not account_number:
        return None
    config = current_app.config
    lead = store.get_lead(row["lead_id"])
    return Order(
        amount_cents=row["amount_cents"],
        routing_number=routing_number,
        account_number=account_number,
        creditor_name=purchase["account_holder"],
        debtor_name=config["BUSINESS_LEGAL_NAME"] or config["SITE_NAME"],
        note=f"{config['SITE_NAME']} {lead['reference']}"[:80],
    )


def create_once(row: dict) -> None:
    """The bank's transfer for this payout, created needing approval and its id stored before
    anything is released; a refusal no retry mends ends the payout as rejected, in the bank's
    words."""
    order = order_of(row)
    if order is None:
        end(row, PayoutState.CANCELED, "the seller's bank details no longer open or were erased")
        return
    try:
        made = increase_api.create_transfer(row["rail"], order, row["idempotency_key"])
    except BankError as error:
        if error.status in REFUSALS:
            end(row, PayoutState.REJECTED, str(error))
            return
        raise
    with immediate_transaction() as db:
        db.execute(
            "UPDATE payouts SET transfer_id = ?, bank_status = ?, updated_at = ? "
            "WHERE id = ? AND transfer_id IS NULL",
            (made.id, made.status, now(), row["id"]),
        )


def release(row: dict) -> str:
    """Have the bank send an approved payout, once: only while it is still for the deal and the
    signing on record and the bank's transfer is for its amount (otherwise it is cancelled and
    staff told); a transfer a timed-out try released already is taken as it is."""
    why_not = still_owed(row)
    transfer = increase_api.retrieve_transfer(row["rail"], row["transfer_id"])
    if why_not is None and transfer.amount_cents != row["amount_cents"]:
        why_not = "the bank's transfer is not for the amount approved"
    if why_not and transfer.stage == "waiting":
        increase_api.cancel_transfer(row["rail"], row["transfer_id"])
        end(row, PayoutState.CANCELED, why_not)
        return f"cancelled: {why_not}"
    if transfer.stage == "waiting":
        try:
            transfer = increase_api.approve_transfer(row["rail"], row["transfer_id"])
        except BankError:
            transfer = increase_api.retrieve_transfer(row["rail"], row["transfer_id"])
            if transfer.stage == "waiting":
                raise
    return settlement.apply(row, transfer)


def still_owed(row: dict) -> str | None:
    """Why an approved payout must not be sent after all, or None: its lead moved on or was
    erased, or its paperwork is not the signing it was asked for any more."""
    db = get_db()
    lead = db.execute("SELECT state, erased_at FROM leads WHERE id = ?", (row["lead_id"],))
    lead = lead.fetchone()
    if lead["erased_at"] or lead["state"] != State.AGREED:
        return "the lead is no longer waiting for payment"
    if payout.signing_on_record(db, row["lead_id"]) != row["signing"]:
        return "the seller's paperwork is no longer the one this payout was asked for"
    return None


def call_off(row: dict) -> str:
    """A cancelled payout's transfer, cancelled at the bank too while it still waits there."""
    transfer = increase_api.retrieve_transfer(row["rail"], row["transfer_id"])
    if transfer.stage == "waiting":
        increase_api.cancel_transfer(row["rail"], row["transfer_id"])
        return "called off at the bank"
    return f"the bank's transfer is {transfer.status}"


def end(row: dict, state: PayoutState, reason: str) -> None:
    """The payout ended before any money left (cancelled, or refused by the bank), with the
    event that says so; staff e-mailed once."""
    with immediate_transaction() as db:
        moved = db.execute(
            "UPDATE payouts SET state = ?, reason = ?, updated_at = ? WHERE id = ? "
            "AND state IN (?, ?)",
            (state, reason[:300], now(), row["id"], PayoutState.ASKED, PayoutState.APPROVED),
        ).rowcount
        event_id = None
        if moved:
            details = {"payout": row["id"], "rail": row["rail"], "reason": reason[:300]}
            event_id = append_event(db, row["lead_id"], "system", f"payout_{state}", details)
    if event_id:
        queue.enqueue(queue.ALERT_PAYOUT, row["lead_id"], event_id)
