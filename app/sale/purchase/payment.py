"""What a payment must be to be recorded (docs/sale.md, "Exceptions need a second person"):
the amount the seller accepted, unless a second staff member approved another, paid on a day
between the seller's signature and today, into an account held by the seller (or one a second
staff member approved). lifecycle.put_on_record asks here inside the
transaction that marks the lead bought, so nothing is recorded when any of it fails.

Once recorded, the payment is told to the seller in one set of words (`sent_words`,
`sent_facts`), which the "paid" e-mail and the status page both use, so the two never differ.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from app.leads.display import business_day, business_today, business_zone, clock, stored_time, usd
from app.rendering.dates import display_date
from app.sale.purchase import approvals, bank_payouts, payout
from app.sale.purchase.paperwork import agreed_price
from app.sale.purchase.record import PAYMENT_METHODS


def amount_problem(db: sqlite3.Connection, lead_id: int, amount: int) -> str | None:
    """Why `amount` cannot be paid for the lead, or None: it is the accepted offer, or another
    amount a second staff member approved."""
    agreed = agreed_price(lead_id)
    if amount == agreed or approvals.approved(db, lead_id, approvals.PAYMENT_AMOUNT, str(amount)):
        return None
    return (
        f"The amount, {usd(amount)}, is not the accepted offer of {usd(agreed or 0)}. To pay "
        "another amount, ask for an exception with its reason under “Exceptions”: a second "
        "staff member must approve it first."
    )


def date_problem(purchase: dict, paid_on: date) -> str | None:
    """Why a payment cannot be dated `paid_on`, or None: not in the future, not before the
    seller signed."""
    if paid_on > business_today():
        return "The payment date cannot be in the future."
    signed = purchase.get("signed_at")
    if signed and paid_on < business_day(signed):
        return (
            f"The payment date, {display_date(paid_on.isoformat())}, is before the seller "
            f"signed the paperwork on {display_date(business_day(signed).isoformat())}."
        )
    return None


def holder_problem(db: sqlite3.Connection, lead_id: int, purchase: dict) -> str | None:
    """Why the payout account cannot be paid into, or None: its holder is the seller (names
    compared by payout.names_match), or a second staff member approved paying into it."""
    holder, legal = purchase.get("account_holder"), purchase.get("legal_name")
    subject = payout.holder_subject(purchase)
    if payout.names_match(holder, legal) or approvals.approved(
        db, lead_id, approvals.HOLDER_NAME, subject
    ):
        return None
    return (
        f"The account holder, {holder}, is not the seller's legal name, {legal}: paying into "
        "this account needs a second staff member's approval (under “Exceptions”)."
    )


def problems(db: sqlite3.Connection, lead_id: int, purchase: dict, data: dict) -> list[str]:
    """Every reason the payment in `data` cannot be recorded (none when it can)."""
    try:
        amount, paid_on = int(data["amount"]), date.fromisoformat(str(data["paid_on"]))
    except ValueError:
        return ["The payment needs a whole-dollar amount and a date (YYYY-MM-DD)."]
    found = (
        amount_problem(db, lead_id, amount),
        date_problem(purchase, paid_on),
        holder_problem(db, lead_id, purchase),
    )
    return [problem for problem in found if problem]


# The payment as the seller is told of it. `paid` is what the bought move carries (amount,
# method, paid_on, confirmation, and the time of a payout the bank's API sent); `as_paid` reads
# the same from the purchase record.


# How a payment the bank's API sent went, as the seller reads it (one recorded by hand, staff
# having paid from the bank's own site, is "by bank transfer"): an instant payment is paid at
# its time; ACH and wires are sent at theirs, and arrive later.
SENT_BY = {
    "rtp": "by instant transfer at {time} on {day}",
    "fednow": "by instant transfer at {time} on {day}",
    "ach_same_day": "by same-day ACH transfer, sent at {time} on {day}",
    # Sent after the day's last same-day cut-off: the network settles it a business day later.
    "ach": "by ACH transfer, sent at {time} on {day}: your bank credits it the next business day",
    "wire": "by wire transfer, sent at {time} on {day}",
}


INSTANT_OR_SAME_DAY = "instant where your bank takes it, otherwise the same day"


def transfer_words() -> str:
    """How the words to a seller say we pay, true in each mode: by bank transfer, and while the
    bank's API sends it, instant where their bank takes it, otherwise the same day."""
    if bank_payouts.sent_by_api():
        return f"by bank transfer ({INSTANT_OR_SAME_DAY})"
    return "by bank transfer"


def same_day_words() -> str:
    """The same, where the words promise the day: 'by bank transfer the same day', or while the
    bank's API sends it 'by bank transfer: instant where your bank takes it, otherwise the same
    day'."""
    if bank_payouts.sent_by_api():
        return f"by bank transfer: {INSTANT_OR_SAME_DAY}"
    return "by bank transfer the same day"


def sent_words(paid: dict, watch: str) -> str:
    """The sentence announcing the payment: how much was paid for the watch, how, and on which
    day (for a payment the bank's API sent, at what time: "by instant transfer at 2:32 pm")."""
    day = display_date(paid["paid_on"])
    how = f"by bank transfer on {day}"
    if paid.get("paid_at"):
        at = stored_time(paid["paid_at"]).astimezone(business_zone())
        how = SENT_BY[paid["method"]].format(time=clock(at), day=day)
    return f"We have paid {usd(paid['amount'])} for your {watch} {how}."


def sent_facts(paid: dict) -> list[tuple[str, str]]:
    """The payment's facts, as (label, value): the amount, the method, the day (and time) it
    was sent and the bank's confirmation number, by which the seller's bank can find it."""
    sent_at = paid.get("paid_at")
    at = [("Time sent", clock(stored_time(sent_at).astimezone(business_zone())))] if sent_at else []
    return [
        ("Amount paid", usd(paid["amount"])),
        ("Method", PAYMENT_METHODS[paid["method"]]),
        ("Payment date", display_date(paid["paid_on"])),
        *at,
        ("Bank confirmation", paid["confirmation"]),
    ]


def as_paid(purchase: dict) -> dict | None:
    """The payment on a purchase record in the shape the bought move carries it, or None
    before one is recorded."""
    if not purchase.get("paid_on"):
        return None
    return {
        "amount": purchase["paid_amount"],
        "method": purchase["payment_method"],
        "paid_on": purchase["paid_on"],
        "confirmation": purchase["bank_confirmation"],
        "paid_at": purchase.get("paid_at"),
    }
