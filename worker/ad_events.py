"""What the ad platforms are told happened to a lead: the form's Lead and the Purchase, each
with its time, value and the id Meta deduplicates it by (worker/meta_events.py and
worker/ga4_events.py put them in each platform's words; worker/conversions.py sends them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.conversions.purchases import Purchase
from app.leads.display import stored_time

LEAD_VALUE = 1000  # what a lead is worth before anyone knows whether it sells
CURRENCY = "USD"


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
    """The Purchase: at its time and value (app/conversions/purchases.py), under an id made
    from the lead's reference, stable across retries and distinct from the Lead's."""
    return AdEvent("purchase", purchase.time, purchase.number, f"purchase-{lead['reference']}")
