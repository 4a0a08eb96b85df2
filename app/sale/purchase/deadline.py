"""The payment's deadline (docs/sale.md, "Payment due, and on time"). The site promises payment
by bank transfer the same day the seller accepts the final offer; we can pay only once they have
signed the paperwork and every item of checklist.BEFORE_PURCHASE holds.

So a lead of `agreed` whose record lacks nothing but the payment is *payment due* (the inbox
flags it), and a signed lead's *business day* is the day its paperwork was signed, which ends at
BUSINESS_DAY_ENDS in BUSINESS_TIMEZONE (signed after that, the next day's end). Once today's
business day has ended, each signed lead still unpaid past its own day's end is *late*, checked
or not: staff are e-mailed about it once per lead and day (worker.jobs.alert_payments_due, run
by `flask purchases payments-due`), each e-mail an event on the lead's timeline that the
database accepts once per lead and day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from flask import current_app

from app.leads.db import get_db
from app.leads.display import business_zone, stored_time
from app.leads.state import State
from app.sale.purchase import checklist

ALERTED = "payment_late_alerted"  # the timeline event of one day's e-mail to staff


def now() -> datetime:
    """The time the deadlines are read against (UTC): one name, which tests set."""
    return datetime.now(UTC)


def signed_and_agreed() -> list[dict]:
    """The purchase records of the leads in `agreed` whose paperwork is signed: the sales we
    owe a payment, checked or not."""
    rows = get_db().execute(
        "SELECT purchases.* FROM purchases JOIN leads ON leads.id = purchases.lead_id "
        "WHERE leads.state = ? AND leads.erased_at IS NULL AND purchases.signed_at IS NOT NULL "
        "ORDER BY purchases.lead_id",
        (State.AGREED,),
    )
    return [dict(row) for row in rows]


def due_lead_ids() -> set[int]:
    """The leads whose record lacks nothing but the payment: signed, the payout account
    confirmed, the ID checked, the register clear (the inbox's "Payment due")."""
    return {row["lead_id"] for row in signed_and_agreed() if checklist.complete(row)}


def day_of(at: datetime) -> date:
    """The business day `at` falls on, in BUSINESS_TIMEZONE."""
    return at.astimezone(business_zone()).date()


def day_end(day: date) -> datetime:
    """The moment the business day `day` ends: BUSINESS_DAY_ENDS in BUSINESS_TIMEZONE."""
    ends = time.fromisoformat(current_app.config["BUSINESS_DAY_ENDS"])
    return datetime.combine(day, ends, tzinfo=business_zone())


def due_by(signed_at: str) -> datetime:
    """When a sale signed at `signed_at` (stored UTC) should be paid: the end of that business
    day, or of the next one when it was signed after the day had ended."""
    signed = stored_time(signed_at).astimezone(business_zone())
    end = day_end(signed.date())
    return end if signed < end else day_end(signed.date() + timedelta(days=1))


@dataclass
class Late:
    """A signed sale still unpaid past its business day: what staff are told of it."""

    lead_id: int
    signed_at: str
    due_by: datetime
    lacking: list[str]  # the items before `bought` still missing: none once only payment is


def late_leads(at: datetime) -> list[Late]:
    """Every signed lead still `agreed` past its day's end, as of `at`; none before today's
    business day has ended, so each day's alerts go once that day is over."""
    if at < day_end(day_of(at)):
        return []
    late = []
    for row in signed_and_agreed():
        due = due_by(row["signed_at"])
        if due <= at:
            lacking = checklist.missing(row, checklist.BEFORE_PURCHASE)
            late.append(Late(row["lead_id"], row["signed_at"], due, lacking))
    return late
