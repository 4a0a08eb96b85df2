"""What the purchase's moves ask of a payout sent through the bank's API (app/payouts/ sends it;
docs/payouts.md), inside the transaction that moves the lead. While PAYOUT_PROVIDER is set, a
lead is bought only from its payout, once the bank has paid it: staff record no payment by hand
(they never see the seller's full account number, so they could not have sent it). Closing an
accepted offer calls off a payout still waiting for its second person, and is refused once one
is approved or on its way: the money may already have left.
"""

from __future__ import annotations

import sqlite3

from flask import current_app

from app.leads.db import get_db, now
from app.leads.display import usd_cents
from app.leads.email_kinds import PAYOUT_ALERT, unclaimed
from app.leads.history import append_event
from app.sale.purchase.record import PAYMENT_METHODS

ASKED, PAID, CANCELED = "asked", "paid", "canceled"
IN_FLIGHT = ("approved", "released")


def sent_by_api() -> bool:
    """Whether payouts are sent through the bank's API (PAYOUT_PROVIDER is set)."""
    return bool(current_app.config["PAYOUT_PROVIDER"])


def purchase_problem(db: sqlite3.Connection, lead_id: int, data: dict) -> str | None:
    """Why the bought move in `data` cannot be recorded in this mode, or None: it must carry
    the lead's payout (`payout`), paid by the bank, for exactly the amount recorded."""
    if not sent_by_api():
        return None
    row = db.execute(
        "SELECT state, amount_cents FROM payouts WHERE id = ? AND lead_id = ?",
        (data.get("payout"), lead_id),
    ).fetchone()
    if row is None or row["state"] != PAID or row["amount_cents"] != int(data["amount"]) * 100:
        return (
            "The payment is sent from the lead's page, through the bank: the watch is marked "
            "bought when the bank confirms the transfer, not by hand."
        )
    return None


def stop_before_close(db: sqlite3.Connection, lead_id: int, actor: str) -> str | None:
    """Inside the transaction closing an accepted offer: a payout still waiting for its second
    person is cancelled (the job then calls its transfer off at the bank); why the close is
    refused if one is approved or on its way, else None."""
    row = db.execute(
        "SELECT id, state, rail FROM payouts WHERE lead_id = ? AND state IN (?, ?, ?)",
        (lead_id, ASKED, *IN_FLIGHT),
    ).fetchone()
    if row is None:
        return None
    if row["state"] in IN_FLIGHT:
        return (
            "A payout to the seller is approved and on its way to their bank, so this sale can "
            "no longer be closed: the money may already have left. The lead is marked bought "
            "when the bank pays it, and stays open if the bank refuses it."
        )
    db.execute(
        "UPDATE payouts SET state = ?, reason = ?, updated_at = ? WHERE id = ? AND state = ?",
        (CANCELED, "the lead was closed", now(), row["id"], ASKED),
    )
    details = {"payout": row["id"], "rail": row["rail"], "reason": "the lead was closed"}
    append_event(db, lead_id, actor, "payout_canceled", details)
    return None


def to_call_off(db: sqlite3.Connection, lead_id: int) -> list[int]:
    """The lead's cancelled payouts whose transfer may still wait at the bank."""
    rows = db.execute(
        "SELECT id FROM payouts WHERE lead_id = ? AND state = ? AND transfer_id IS NOT NULL "
        "AND coalesce(bank_status, 'pending_approval') = 'pending_approval'",
        (lead_id, CANCELED),
    )
    return [row[0] for row in rows]


def events_to_apply() -> list[int]:
    """The bank's events stored but not applied yet (their job lost, or failed after its
    retries): the requeue's and the payouts' reconciler's to apply; none while payouts are
    recorded by hand."""
    if not sent_by_api():
        return []
    rows = get_db().execute("SELECT id FROM payout_events WHERE processed_at IS NULL ORDER BY id")
    return [row[0] for row in rows]


def payouts_owed() -> list[int]:
    """Payouts that owe a call to the bank no person waits for, their job lost: a transfer to
    create for one asked or approved, an approved one to release, a cancelled one's transfer to
    call off, and a paid one whose lead is not yet bought. (One released is the bank's to move,
    one asked a second person's: the reconciler reads both.) None while payouts are recorded
    by hand: staff may be paying from the bank's own site, and nothing is sent twice."""
    if not sent_by_api():
        return []
    rows = get_db().execute(
        "SELECT payouts.id FROM payouts JOIN leads ON leads.id = payouts.lead_id "
        "WHERE (payouts.state IN ('asked', 'approved') AND payouts.transfer_id IS NULL) "
        "OR payouts.state = 'approved' "
        "OR (payouts.state = ? AND payouts.transfer_id IS NOT NULL "
        "    AND coalesce(payouts.bank_status, 'pending_approval') = 'pending_approval') "
        "OR (payouts.state = ? AND leads.state <> 'bought') ORDER BY payouts.id",
        (CANCELED, PAID),
    )
    return [row[0] for row in rows]


def alerts_owed() -> list[tuple[int, int]]:
    """(lead, event) of each payout event staff are e-mailed about (ALERTS; a failure only
    once the job's retries are used up) whose e-mail is neither recorded as sent nor claimed,
    for leads not erased."""
    kinds = ", ".join(f"'{kind}'" for kind in ALERTS)  # fixed words of this module
    rows = get_db().execute(
        "SELECT told.lead_id, told.id FROM lead_events AS told "
        "JOIN leads ON leads.id = told.lead_id AND leads.erased_at IS NULL "
        f"WHERE told.kind IN ({kinds}) "
        "AND (told.kind <> 'payout_failed' OR json_extract(told.data, '$.alert')) "
        "AND NOT EXISTS (SELECT 1 FROM lead_events AS sent WHERE sent.kind = 'staff_alerted' "
        "AND json_extract(sent.data, '$.event_id') = told.id) "
        f"AND {unclaimed(PAYOUT_ALERT, 'told.id')} ORDER BY told.id"
    )
    return [(row[0], row[1]) for row in rows]


# The payout's events as the staff timeline names them (app/sale/timeline.py), and the staff
# e-mails about them as its "E-mail to staff" entries do.
TIMELINE = {
    "payout_asked": "Payout asked for: a second staff member must approve it",
    "payout_approved": "Payout approved by a second staff member",
    "payout_released": "Payout released: the bank is sending it",
    "payout_paid": "Payout paid by the bank",
    "payout_rejected": "Payout refused by the seller's bank",
    "payout_canceled": "Payout cancelled before it was sent",
    "payout_returned": "Payout returned after payment (the watch stays bought)",
    "payout_failed": "Payout: the bank API failed; to be tried again",
    "payout_not_recorded": "Payout paid, but the lead could not be marked bought",
    "payout_waiting": "Payout still waiting for its second person",
    "payout_released_elsewhere": "Payout sent from the bank's own site before its approval here",
}
ALERTS = {
    "payout_rejected": "a payout the seller's bank refused",
    "payout_canceled": "a payout cancelled before it was sent",
    "payout_returned": "a payout returned after payment",
    "payout_failed": "a payout the bank API failed",
    "payout_not_recorded": "a payout paid but not recorded as bought",
    "payout_waiting": "a payout waiting for its second person",
    "payout_released_elsewhere": "a payout sent before its approval here",
}


def timeline_words(kind: str, data: dict) -> tuple[str, list[tuple[str, str]]]:
    """(title, details) of a payout's event: the amount, the rail, the account by its last 4
    digits, and the bank's words for a refusal, a return or a failure."""
    shown = (
        ("Amount", data.get("amount_cents") and usd_cents(data["amount_cents"])),
        ("By", PAYMENT_METHODS.get(data.get("rail"), "")),
        ("Account number ends", data.get("account_last4")),
        ("Bank's words", data.get("reason") or data.get("error")),
    )
    return TIMELINE[kind], [(label, value) for label, value in shown if value]
