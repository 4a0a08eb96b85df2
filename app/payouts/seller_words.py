"""What the seller's status page says of their payment while it goes through the bank's API, in
plain words and never more than is so: being prepared (a second person approves every payment),
sent by instant transfer or same-day ACH to the account ending 1234, refused by their bank
(the money has not left us, and we will call), or returned by their bank after it was paid.
The rail is told once the payout is asked for, not before."""

from __future__ import annotations

from app.leads.display import usd_cents
from app.payouts import ledger, rails
from app.payouts.ledger import PayoutState
from app.sale.purchase import record

PREPARED = (
    "Your payment is being prepared: {amount} {by} to your account ending {last4}. A second "
    "member of our team approves every payment before our bank sends it; we e-mail you as soon "
    "as it is paid."
)
SENT = (
    "Your payment of {amount} is on its way to your account ending {last4} {by}. We e-mail you "
    "as soon as it is paid."
)
REFUSED = (
    "Your bank did not accept our transfer of {amount} to your account ending {last4}, so the "
    "money has not left us. We will call you on the number you gave us to check your account "
    "details, and pay you as soon as they are right."
)
RETURNED = (
    "Your bank returned our payment to your account ending {last4}. We will call you on the "
    "number you gave us to pay you again."
)
WORDS = {
    PayoutState.ASKED: PREPARED,
    PayoutState.APPROVED: SENT,
    PayoutState.RELEASED: SENT,
    PayoutState.REJECTED: REFUSED,
    PayoutState.RETURNED: RETURNED,
}


def progress(lead_id: int) -> str | None:
    """What the page says of the lead's latest payout, or None when it says nothing (there is
    none, it was cancelled by us, or it is paid: the payment's own section says that)."""
    rows = ledger.of_lead(lead_id)
    if not rows or rows[0]["state"] not in WORDS:
        return None
    row, purchase = rows[0], record.get(lead_id) or {}
    return WORDS[row["state"]].format(
        amount=usd_cents(row["amount_cents"]),
        by=f"by {rails.WORDS[row['rail']]}",
        last4=purchase.get("account_number_last4") or "",
    )
