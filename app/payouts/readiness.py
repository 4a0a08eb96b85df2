"""What must hold before a payout is asked for, and again before it is approved: every item
before `bought` (the paperwork signed, the account confirmed from the seller's mailbox or by a
call-back, the ID checked, a register check clear and recent enough to pay on, even one
recorded by hand), no exception still waiting for its second person, the amount the rules
allow (the accepted offer, or one a second staff member approved) into an account the rules
allow, and within the business's limits: PAYOUT_MAX_AMOUNT per transfer and PAYOUT_DAILY_LIMIT
per business day for every payout approved that day together. Amounts are integer cents.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from flask import current_app

from app.leads import history
from app.leads.display import business_today, usd, usd_cents
from app.leads.state import State
from app.payouts import increase_api, ledger, rails
from app.payouts.increase_api import BankError
from app.sale.purchase import approvals, checklist, crypto, payment, record
from app.sale.purchase.paperwork import agreed_price


@dataclass
class Proposal:
    """The payout staff would ask for now: how much, into the account ending `last4`, on which
    rail at which bank, or every reason it cannot be asked for yet."""

    amount_cents: int
    last4: str
    rail: str | None = None
    bank: str = ""
    problems: list[str] = field(default_factory=list)


def amount_to_pay(db: sqlite3.Connection, lead_id: int) -> int:
    """The cents the rules let the seller be paid: the newest amount a second staff member
    approved instead of the accepted offer for this deal, else the accepted offer."""
    approved = [
        int(row["subject"])
        for row in approvals.of_lead(lead_id)
        if row["kind"] == approvals.PAYMENT_AMOUNT and row["approved_by"] and row["current"]
    ]
    dollars = approved[0] if approved else agreed_price(lead_id) or 0
    return dollars * 100


def deal_of(lead_id: int) -> int | None:
    """The deal a payout asked now is for: the seller's latest acceptance of a final offer."""
    return history.latest_change_id(history.lead_events(lead_id), State.AGREED)


def problems(db: sqlite3.Connection, lead: dict, purchase: dict, amount_cents: int) -> list[str]:
    """Every reason a payout of `amount_cents` cannot be asked for or approved now."""
    if not current_app.config["PAYOUT_PROVIDER"]:
        return ["Payouts are not sent from the site (PAYOUT_PROVIDER is not set)."]
    if lead["erased_at"] or lead["state"] != State.AGREED:
        return [
            "A payout is asked for once the seller has accepted the final offer, and before the "
            "watch is bought; this lead is not at that point."
        ]
    found = [f"Missing first: {'; '.join(lacking)}." for lacking in
             [checklist.missing(purchase, checklist.BEFORE_PURCHASE)] if lacking]  # fmt: skip
    by_hand = not checklist.applies("register_recent")  # the API's checks are in the list
    if (
        by_hand
        and checklist.holds(purchase, "register_clear")
        and not checklist.register_recent(purchase)
    ):
        days = current_app.config["REGISTER_CHECK_MAX_AGE_DAYS"]
        found.append(f"The register check is older than {days} days: record a new one first.")
    waiting = [row for row in approvals.of_lead(lead["id"]) if row["current"]
               and not row["approved_by"]]  # fmt: skip
    if waiting:
        found.append("An exception is waiting for its second person: decide it first.")
    dollars, cents = divmod(amount_cents, 100)
    amount = payment.amount_problem(db, lead["id"], dollars) if not cents else "Not whole dollars."
    holder = payment.holder_problem(db, lead["id"], purchase) if purchase.get("signed_at") else None
    found += [words for words in (amount, holder) if words]
    return found + limit_problems(db, amount_cents)


def limit_problems(db: sqlite3.Connection, amount_cents: int) -> list[str]:
    """Why `amount_cents` is above the most one transfer may pay, or would take today's
    approved payouts above the day's limit (none when it is within both)."""
    config = current_app.config
    most, daily = config["PAYOUT_MAX_AMOUNT"] * 100, config["PAYOUT_DAILY_LIMIT"] * 100
    found = []
    if amount_cents > most:
        found.append(
            f"{usd_cents(amount_cents)} is above the most one transfer may pay, "
            f"{usd(most // 100)} (PAYOUT_MAX_AMOUNT): pay it from the bank's own site."
        )
    spent = ledger.spent_on(db, business_today())
    if spent + amount_cents > daily:
        found.append(
            f"Today's payouts approved so far come to {usd_cents(spent)}: this one would take "
            f"them above the day's limit of {usd(daily // 100)} (PAYOUT_DAILY_LIMIT). It can be "
            "asked for again on the next business day."
        )
    return found


def account(purchase: dict) -> tuple[str | None, str | None]:
    """The routing and account numbers the seller signed for, opened (None, None if they are
    not on record or no configured key opens them)."""
    try:
        return record.opened(purchase, "routing_number_enc"), record.opened(
            purchase, "account_number_enc"
        )
    except crypto.InvalidToken:
        current_app.logger.error("Lead %s: its bank details open with no key.", purchase["lead_id"])
        return None, None


def choose_rail(purchase: dict, amount_cents: int) -> tuple[str | None, str, str | None]:
    """(rail, bank's name, problem): the rail the seller's routing number takes for this amount,
    looked up before anything is sent."""
    routing_number, _ = account(purchase)
    if not routing_number:
        return None, "", "The seller's routing number is not on record in a form that opens."
    try:
        found = increase_api.routing(routing_number)
    except BankError as error:
        return None, "", f"The bank API did not answer the routing number's lookup ({error})."
    if found is None:
        return (
            None,
            "",
            (
                f"The bank's data does not know the routing number ending {routing_number[-4:]}: "
                "call the seller to check it."
            ),
        )
    rail = rails.choose(found, amount_cents)
    if rail is None:
        return None, found.bank, f"{found.bank} takes none of the transfers the business sends."
    return rail, found.bank, None


def proposal(db: sqlite3.Connection, lead: dict, purchase: dict) -> Proposal:
    """The payout the lead's page offers to ask for, its rail looked up when nothing else is
    in the way (the one call to the bank a page makes)."""
    amount = amount_to_pay(db, lead["id"])
    shown = Proposal(amount_cents=amount, last4=purchase.get("account_number_last4") or "")
    shown.problems = problems(db, lead, purchase, amount)
    if not shown.problems:
        shown.rail, shown.bank, problem = choose_rail(purchase, amount)
        shown.problems += [problem] if problem else []
    return shown
