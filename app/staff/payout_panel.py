"""The payout panel of a lead's page, while payouts are sent through the bank's API
(PAYOUT_PROVIDER; app/payouts/): the payout staff may ask for now, in words ("Pay $9,500.00 to
the account ending 6789 by instant transfer (RTP)") with every reason it cannot be asked yet,
and each payout of the lead with where it stands, who asked, who approved, and the button for a
second staff member. Nothing is typed: the forms carry only what the page showed, which the
server checks again. The account appears by its last 4 digits only.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import InputRequired, Regexp

from app.leads.db import get_db
from app.leads.display import local_time, usd_cents
from app.leads.state import State
from app.payouts import ledger, rails, readiness, two_people
from app.payouts.ledger import PayoutState
from app.sale.purchase import bank_payouts, record


class AskPayoutForm(FlaskForm):
    """Ask for the payout the page showed: its amount in cents, rail and account's last 4."""

    amount_cents = HiddenField(validators=[InputRequired(), Regexp(r"^[1-9][0-9]{0,11}$")])
    rail = HiddenField(validators=[InputRequired()])
    last4 = HiddenField(validators=[InputRequired()])

    def shown(self) -> dict:
        """What the page showed, as the ask checks it."""
        return {
            "amount_cents": int(self.amount_cents.data),
            "rail": self.rail.data,
            "last4": self.last4.data,
        }


class ApprovePayoutForm(FlaskForm):
    """Approve a payout another staff member asked for (the URL names which)."""


def state_words(row: dict) -> str:
    """Where a payout stands, as staff read it."""
    reason = f": {row['reason']}" if row["reason"] else ""
    return {
        PayoutState.ASKED: "Waiting for a second staff member's approval",
        PayoutState.APPROVED: "Approved: being sent to the bank",
        PayoutState.RELEASED: f"Released: the bank is sending it ({row['bank_status'] or ''})",
        PayoutState.PAID: f"Paid {local_time(row['paid_at'])}" if row["paid_at"] else "Paid",
        PayoutState.REJECTED: f"Refused by the bank{reason}",
        PayoutState.CANCELED: f"Cancelled{reason}",
        PayoutState.RETURNED: f"Returned after payment{reason}",
    }[row["state"]]


def listed(row: dict, last4: str, names: dict[str, str]) -> dict:
    """A payout as the panel lists it."""
    by = names.get(row["approved_by"], row["approved_by"])
    return row | {
        "words": two_people.words(row, last4),
        "where": state_words(row),
        "asked": f"{names.get(row['asked_by'], row['asked_by'])}, {local_time(row['asked_at'])}",
        "approved": f"{by}, {local_time(row['approved_at'])}" if by else "",
        "reference": row["network_reference"] or "",
    }


def panel(lead: dict, names: dict[str, str]) -> dict | None:
    """What the payout panel shows; None while payouts are recorded by hand, or for a lead
    that has none and is not waiting for one."""
    if not bank_payouts.sent_by_api():
        return None
    rows = ledger.of_lead(lead["id"])
    waiting = lead["state"] == State.AGREED and not lead["erased_at"]
    if not rows and not waiting:
        return None
    purchase = record.get(lead["id"]) or {}
    last4 = purchase.get("account_number_last4") or ""
    live = any(row["state"] in ledger.LIVE for row in rows)
    proposal = readiness.proposal(get_db(), lead, purchase) if waiting and not live else None
    ask_form = None
    if proposal and not proposal.problems:
        data = {"amount_cents": proposal.amount_cents, "rail": proposal.rail, "last4": last4}
        ask_form = AskPayoutForm(prefix="payout", formdata=None, data=data)
    return {
        "proposal": proposal,
        "proposal_words": proposal_words(proposal) if proposal else "",
        "ask_form": ask_form,
        "payouts": [listed(row, last4, names) for row in rows],
        "approve_form": ApprovePayoutForm(prefix="approve_payout", formdata=None),
        "callback_by": purchase.get("payout_confirmed_by"),
        "agreed": waiting,
    }


def proposal_words(proposal: readiness.Proposal) -> str:
    """'Pay $9,500.00 to the account ending 6789 by instant transfer (RTP), at JPMORGAN CHASE
    BANK, NA': the payout the button asks for (its rail once the bank's data gave it)."""
    words = f"Pay {usd_cents(proposal.amount_cents)} to the account ending {proposal.last4}"
    if proposal.rail:
        words += f" by {rails.staff_words(proposal.rail)}, at {proposal.bank}"
    return words
