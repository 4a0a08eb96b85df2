"""What the bank's webhooks may have missed, and what waits on a person: `flask payouts
reconcile`, every 5 minutes (deploy/watchbuyers-payouts.timer). It applies every stored event
not applied yet (a job lost), then reads every payout not yet final from the bank and does what
it is owed (transfers.carry_on: a transfer created, released or read back and applied, a lead
of a paid payout moved to `bought` if that was refused before), reads a paid payout again for
RETURNS_WATCHED days in case the seller's bank returns it, and calls off at the bank any
transfer of a cancelled payout still waiting there. A payout waiting for its second person for
more than PAYOUT_APPROVAL_ALERT_MINUTES is put before staff once: the promise is minutes. One
payout's failure is recorded and the run goes on."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from flask import current_app

from app import queue
from app.leads.db import get_db, immediate_transaction, now
from app.leads.display import stored_time
from app.leads.history import append_event
from app.leads.state import State
from app.payouts import bank_events, ledger, transfers
from app.payouts.increase_api import BankError
from app.payouts.ledger import PayoutState
from app.sale.purchase import bank_payouts

RETURNS_WATCHED = timedelta(days=7)  # an ACH return comes within days of the payment


@dataclass
class Reconciled:
    """What one run did, payout by payout."""

    events: int = 0
    outcomes: dict[int, str] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)
    waiting: list[int] = field(default_factory=list)  # put before staff this run

    def summary(self) -> str:
        """The run as the command prints it: each payout read and what it did, then failures."""
        done = "; ".join(f"#{number}: {what}" for number, what in self.outcomes.items())
        failed = "; ".join(f"#{number}: {why}" for number, why in self.failed.items())
        waiting = ", ".join(f"#{number}" for number in self.waiting)
        return (f"{self.events} events applied; {len(self.outcomes)} payouts read"
                + (f" ({done})" if done else "")
                + (f"; {len(self.failed)} failed ({failed})" if failed else "")
                + (f"; still unapproved, staff told: {waiting}" if waiting else ""))  # fmt: skip


def reconcile() -> Reconciled:
    """Bring every payout the bank may still change up to date with what the bank says."""
    done = Reconciled()
    for event_id in bank_payouts.events_to_apply():
        try:
            bank_events.apply_event(event_id)
            done.events += 1
        except (BankError, LookupError) as error:
            current_app.logger.warning("Payout event %s: %s", event_id, error)
    for row in ledger.unfinished() + cancelled_at_the_bank():
        if row["state"] == PayoutState.ASKED and warn_if_waiting(row):
            done.waiting.append(row["id"])
        if not owes_a_look(row):
            continue
        try:
            done.outcomes[row["id"]] = transfers.carry_on(row["id"])
        except BankError as error:
            current_app.logger.warning("Payout %s: %s", row["id"], error)
            done.failed[row["id"]] = str(error)
    return done


def owes_a_look(row: dict) -> bool:
    """Whether the bank must be asked about this payout now: every one not yet final but a
    paid one whose lead is bought and whose return window has passed (one waiting for its
    second person too: the bank may have refused it, or someone released it on the bank's own
    site)."""
    if row["state"] == PayoutState.PAID:
        lead = get_db().execute("SELECT state FROM leads WHERE id = ?", (row["lead_id"],))
        recent = datetime.now(UTC) - stored_time(row["paid_at"]) < RETURNS_WATCHED
        return recent or lead.fetchone()[0] != State.BOUGHT
    return True


def cancelled_at_the_bank() -> list[dict]:
    """Cancelled payouts whose transfer may still wait for approval at the bank."""
    rows = get_db().execute(
        "SELECT * FROM payouts WHERE state = ? AND transfer_id IS NOT NULL "
        "AND coalesce(bank_status, 'pending_approval') = 'pending_approval' ORDER BY id",
        (PayoutState.CANCELED,),
    )
    return [dict(row) for row in rows]


def warn_if_waiting(row: dict) -> bool:
    """Put a payout waiting for its second person too long before staff, once (claimed by a
    conditional UPDATE, so two runs at once tell staff once); whether this run did."""
    minutes = current_app.config["PAYOUT_APPROVAL_ALERT_MINUTES"]
    since = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")
    with immediate_transaction() as db:
        claimed = db.execute(
            "UPDATE payouts SET approval_alerted_at = ? WHERE id = ? AND state = ? "
            "AND approval_alerted_at IS NULL AND asked_at <= ?",
            (now(), row["id"], PayoutState.ASKED, since),
        ).rowcount
        if not claimed:
            return False
        details = {"payout": row["id"], "amount_cents": row["amount_cents"], "rail": row["rail"]}
        event_id = append_event(db, row["lead_id"], "system", "payout_waiting", details)
    queue.enqueue(queue.ALERT_PAYOUT, row["lead_id"], event_id)
    return True
