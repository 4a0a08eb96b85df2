"""GA4 Measurement Protocol events: the form's generate_lead and the purchase, in the fields
Google documents (developers.google.com/analytics/devguides/collection/protocol/ga4):
client_id, timestamp_micros (the time it happened, at most 72 hours back), and events[] with a
name and params; a purchase's params carry transaction_id, value, currency and its items.

client_id is the GA client id the seller's browser had (its _ga cookie, stored with the lead),
so GA4 joins the event to the visit and the campaign that brought it. A lead without one still
sends its generate_lead under its event id, as it always has; a purchase without one is not
sent (recorded `skipped`): a made-up client would carry no visit or campaign, only a sale GA4
cannot place, and the dashboard counts every purchase already.
"""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlencode

from flask import current_app

from app.conversions.events import CURRENCY, AdEvent

NAME = "GA4"
WINDOW = timedelta(hours=72)  # timestamp_micros may be at most 72 hours in the past
WINDOW_TEXT = "72 hours"
NO_CLIENT_ID = (
    "no GA client id: the seller's browser sent none (no Google tag ran on their visit), so "
    "GA4 could not join the purchase to a visit"
)


def endpoint() -> str:
    """The Measurement Protocol address with the stream's measurement id and API secret."""
    config = current_app.config
    query = urlencode(
        {"measurement_id": config["GA4_MEASUREMENT_ID"], "api_secret": config["GA4_API_SECRET"]}
    )
    return f"{config['GA4_API_URL']}?{query}"


def unfit(lead: dict, event: AdEvent) -> str | None:
    """Why GA4 is not sent this event, or None: a purchase needs the visit's client id."""
    if event.name == "purchase" and not lead["ga_client_id"]:
        return NO_CLIENT_ID
    return None


def body(lead: dict, event: AdEvent) -> dict:
    """The request: the client, the time it happened and the one event."""
    client_id = lead["ga_client_id"] or lead["meta_event_id"]
    return {
        "client_id": client_id,
        "timestamp_micros": int(event.time.timestamp() * 1_000_000),
        "events": [lead_event(lead, event) if event.name == "lead" else purchase(lead, event)],
    }


def lead_event(lead: dict, event: AdEvent) -> dict:
    """generate_lead at the fixed lead value, with where the lead came from."""
    params = {"value": event.value, "currency": CURRENCY, "lead_source": lead["source"]}
    return {"name": "generate_lead", "params": params}


def purchase(lead: dict, event: AdEvent) -> dict:
    """purchase: the lead's reference as transaction_id (GA4 counts a transaction once), the
    value, and the watch as its one item."""
    item = {
        "item_name": " ".join(filter(None, (lead["watch_brand"], lead["watch_model"]))),
        "item_brand": lead["watch_brand"],
        "price": event.value,
        "quantity": 1,
    }
    params = {
        "transaction_id": lead["reference"],
        "value": event.value,
        "currency": CURRENCY,
        "items": [item],
    }
    return {"name": "purchase", "params": params}
