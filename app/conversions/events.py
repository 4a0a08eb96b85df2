"""What the ad platforms are told happened to a lead: the form's Lead and the Purchase, each
with its time, value and the id Meta deduplicates it by (meta.py and ga4.py put them in each
platform's words; send.py sends them). The Lead is worth LEAD_VALUE, the value the form's
browser events carry.

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
from app.leads.state import State

CURRENCY = "USD"
LEAD_VALUE = 1000  # what a lead is worth before anyone knows whether it sells
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
            f"AND json_extract(data, '$.to') = '{State.BOUGHT}' ORDER BY id DESC LIMIT 1",
            (lead["id"],),
        )
        .fetchone()
    )
    return purchase_from(lead, row["at"], json.loads(row["data"])) if row else None


@dataclass(frozen=True)
class AdEvent:
    """One event of a lead: its name in the conversions table (`lead`, `purchase`), when it
    happened, its value in US dollars and its event id (Meta counts one event per id)."""

    name: str
    time: datetime
    value: int | float
    event_id: str

    @property
    def label(self) -> str:
        """The event as people name it: 'Lead' or 'Purchase'."""
        return self.name.capitalize()


def lead_event(lead: dict) -> AdEvent:
    """The form's Lead: when it was sent, at the fixed lead value, under the id the browser's
    pixel used for the same lead (so Meta counts it once)."""
    return AdEvent("lead", stored_time(lead["created_at"]), LEAD_VALUE, lead["meta_event_id"])


def purchase_event(lead: dict, purchase: Purchase) -> AdEvent:
    """The Purchase: at its time and value (purchase_from), under an id made from the lead's
    reference, stable across retries and distinct from the Lead's."""
    return AdEvent("purchase", purchase.time, purchase.number, f"purchase-{lead['reference']}")
