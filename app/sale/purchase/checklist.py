"""What a lead's purchase must have before each step (docs/sale.md, "The purchase on record":
`bought` is refused until every item holds, with a message naming what is missing). The items
are facts on the purchase record, not states; lifecycle.transition asks here inside the
transaction that makes the move.
"""

from __future__ import annotations

from datetime import date, timedelta

from flask import current_app

from app.leads.display import business_today
from app.sale.purchase import serials

# Before the final offer: the authentication's findings it rests on.
BEFORE_OFFER = (("serial_number", "the authentication findings (at least the serial number)"),)
# Before `bought`: each item, and how the refusal names it when it is missing.
BEFORE_PURCHASE = (
    ("signed", "the seller's signed paperwork"),
    ("payout", "the seller's bank details"),
    (
        "payout_confirmed",
        "the seller's confirmation of the payout account (from their e-mail, or a call-back)",
    ),
    ("id_verified", "an ID check by staff"),
    ("register_clear", "a clear stolen-watch register check"),
    (
        "register_recent",
        "a register check recent enough to pay on: the register has been asked again, and the "
        "payment waits for its answer",
    ),
)


def register_clear(purchase: dict) -> bool:
    """Whether the register check that counts is clear and of the serial number the findings
    give now: a check of a serial number staff corrected since does not count (one retyped in
    other spacing or case is the same serial)."""
    clear = purchase.get("register_result") == "clear"
    return clear and serials.same(purchase.get("register_serial"), purchase.get("serial_number"))


def register_recent(purchase: dict) -> bool:
    """Whether the check that counts is from the last REGISTER_CHECK_MAX_AGE_DAYS days
    (register_asks.py asks again before `bought` when it is not)."""
    checked_on = purchase.get("register_checked_on")
    oldest = business_today() - timedelta(days=current_app.config["REGISTER_CHECK_MAX_AGE_DAYS"])
    return bool(checked_on) and date.fromisoformat(checked_on[:10]) >= oldest


def holds(purchase: dict, item: str) -> bool:
    """Whether one item is on the record."""
    checks = {
        "serial_number": lambda: bool(purchase.get("serial_number")),
        "signed": lambda: bool(purchase.get("signed_at")),
        "payout": lambda: bool(purchase.get("account_number_enc")),
        "payout_confirmed": lambda: bool(purchase.get("payout_confirmed_at")),
        "id_verified": lambda: bool(purchase.get("id_verified_at")),
        "register_clear": lambda: register_clear(purchase),
        "register_recent": lambda: register_recent(purchase),
    }
    return checks[item]()


def named(item: str) -> str:
    """How a refusal names one item before `bought`."""
    return dict(BEFORE_PURCHASE)[item]


def applies(item: str) -> bool:
    """Whether an item is asked for at all: the check's age only while the register is asked
    by API (by hand, staff date each check themselves)."""
    return item != "register_recent" or bool(current_app.config["REGISTER_API_URL"])


def missing(purchase: dict | None, items: tuple[tuple[str, str], ...]) -> list[str]:
    """How each of `items` the record lacks is named (all of them without a record)."""
    return [words for item, words in items if applies(item) and not holds(purchase or {}, item)]


def complete(purchase: dict | None) -> bool:
    """Whether every item before `bought` holds: all that is left is to send the payment."""
    return not missing(purchase, BEFORE_PURCHASE)


def status(purchase: dict | None) -> list[tuple[str, bool]]:
    """Every item before `bought`, as (words, holds): the staff page's checklist."""
    return [
        (words, holds(purchase or {}, item)) for item, words in BEFORE_PURCHASE if applies(item)
    ]
