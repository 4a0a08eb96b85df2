"""A purchase as the ad platforms are told it: when it happened and what it was worth.

Staff record a purchase by moving the lead to `bought` with the amount paid and the payment
date (app/sale/lifecycle.py). The time reported is when they recorded it, unless the payment
date they gave is an earlier day: then noon of that day in BUSINESS_TIMEZONE (the hour is not
known, and noon is at most twelve hours off), never before the lead itself was sent (a
platform refuses a conversion earlier than its click). The value is the price paid or, with
CONVERSION_VALUE=margin, CONVERSION_MARGIN_PERCENT of it (what the business expects a purchase
to earn), to the cent, in US dollars.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import ROUND_HALF_UP, Decimal

from flask import current_app

from app.leads.db import get_db
from app.leads.display import business_zone, stored_time

CURRENCY = "USD"
CENT = Decimal("0.01")
NOON = time(12)


@dataclass(frozen=True)
class Purchase:
    """One bought lead's purchase: its reference (the order id), the amount paid, and the
    time and value the platforms are told."""

    reference: str
    amount: int
    time: datetime  # aware, in UTC
    value: Decimal

    @property
    def number(self) -> int | float:
        """The value as JSON carries it: whole dollars as an integer, else with its cents."""
        return int(self.value) if self.value == self.value.to_integral() else float(self.value)


def conversion_value(amount: int) -> Decimal:
    """The value reported for a purchase of `amount` dollars: the price, or the margin
    estimate (price * CONVERSION_MARGIN_PERCENT / 100), rounded half up to the cent."""
    config = current_app.config
    price = Decimal(amount)
    if config["CONVERSION_VALUE"] == "margin":
        price = price * Decimal(str(config["CONVERSION_MARGIN_PERCENT"])) / 100
    return price.quantize(CENT, ROUND_HALF_UP)


def purchase_time(paid_on: date, recorded_at: datetime, lead_created_at: datetime) -> datetime:
    """When the purchase happened, as far as the records tell: the moment staff recorded it,
    or noon (business time) of an earlier payment date, but never before the lead was sent."""
    zone = business_zone()
    if paid_on >= recorded_at.astimezone(zone).date():
        return recorded_at.astimezone(UTC)
    noon = datetime.combine(paid_on, NOON, tzinfo=zone).astimezone(UTC)
    return max(noon, lead_created_at.astimezone(UTC))


def purchase_from(lead: dict, bought_at: str, bought_data: dict) -> Purchase:
    """The purchase of a lead from its `bought` state change (its time and data)."""
    amount = int(bought_data["amount"])
    moment = purchase_time(
        date.fromisoformat(bought_data["paid_on"]),
        stored_time(bought_at),
        stored_time(lead["created_at"]),
    )
    return Purchase(lead["reference"], amount, moment, conversion_value(amount))


def purchase_of(lead: dict) -> Purchase | None:
    """The lead's purchase, or None if it was never bought."""
    row = (
        get_db()
        .execute(
            "SELECT at, data FROM lead_events WHERE lead_id = ? AND kind = 'state_changed' "
            "AND json_extract(data, '$.to') = 'bought' ORDER BY id DESC LIMIT 1",
            (lead["id"],),
        )
        .fetchone()
    )
    return purchase_from(lead, row["at"], json.loads(row["data"])) if row else None
