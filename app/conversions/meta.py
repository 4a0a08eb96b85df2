"""Meta Conversions API events: the form's Lead and the Purchase, in the fields Meta documents
(developers.facebook.com/docs/marketing-api/conversions-api/parameters): event_name,
event_time, event_id, action_source, user_data with at least one customer identifier, and for a
Purchase custom_data value and currency.

E-mail, phone and external_id (the lead's reference) are normalised and SHA-256 hashed as Meta
requires; Meta's own click and browser ids (fbc, fbp) go as they came, as Meta requires. The
Lead, sent as the seller's browser sends its own, also carries that browser's address and user
agent, which Meta requires of website events; nothing else personal is sent.

The Purchase's action_source is `system_generated`, not `website`: the watch is bought at an
appointment, days after the form, and staff record it in the inbox. Meta asks that
action_source say truly where the conversion happened ("website: conversion was made on your
website"), and its CRM integration guide sends events that a business system records as
`system_generated`; a website event would also need the browser's user agent and address at
the time, which a purchase has not.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

from flask import current_app

from app.conversions.events import CURRENCY, AdEvent

NAME = "Meta"
WINDOW = timedelta(days=7)  # Meta refuses a request holding an event_time more than 7 days old
WINDOW_TEXT = "7 days"
EVENT_NAMES = {"lead": "Lead", "purchase": "Purchase"}


def sha256(text: str) -> str:
    """The hex SHA-256 digest of the text, as Meta wants personal data hashed."""
    return hashlib.sha256(text.encode()).hexdigest()


def normalised_phone(phone: str) -> str:
    """Digits with the country code, as Meta wants; a 10-digit number is taken to be US (+1)."""
    digits = re.sub(r"\D", "", phone)
    return "1" + digits if len(digits) == 10 else digits


def endpoint() -> str:
    """The Conversions API address of the configured pixel (dataset)."""
    config = current_app.config
    return config["META_CAPI_URL"].format(pixel_id=config["META_PIXEL_ID"])


def unfit(lead: dict, event: AdEvent) -> str | None:
    """Why Meta cannot take this event, or None: it always can (every lead has an e-mail and
    a phone, and a reference for external_id)."""
    return None


def body(lead: dict, event: AdEvent) -> dict:
    """The request: the one event and the access token."""
    return {
        "data": [server_event(lead, event)],
        "access_token": current_app.config["META_CAPI_TOKEN"],
    }


def server_event(lead: dict, event: AdEvent) -> dict:
    """The event as Meta's server event: the Lead as a website event, the Purchase as one
    the business's own system recorded."""
    common = {
        "event_name": EVENT_NAMES[event.name],
        "event_time": int(event.time.timestamp()),
        "event_id": event.event_id,
    }
    if event.name == "lead":
        return (
            common
            | website_source(lead)
            | {
                "user_data": user_data(lead) | browser(lead),
                "custom_data": custom_data(lead, event),
            }
        )
    return common | {
        "action_source": "system_generated",
        "user_data": user_data(lead),
        "custom_data": custom_data(lead, event) | {"order_id": lead["reference"]},
    }


def website_source(lead: dict) -> dict:
    """Where a website event happened: the sell form's page."""
    url = current_app.config["SITE_URL"].rstrip("/") + "/sell"
    return {"action_source": "website", "event_source_url": url}


def user_data(lead: dict) -> dict:
    """Who the event is about, hashed (e-mail, phone, the lead's reference as external_id),
    with Meta's own click and browser ids as stored (only those the lead has)."""
    return {
        "em": [sha256(lead["email"].strip().lower())],
        "ph": [sha256(normalised_phone(lead["phone"]))],
        "external_id": [sha256(lead["reference"])],
        **{key: lead[key] for key in ("fbc", "fbp") if lead.get(key)},
    }


def browser(lead: dict) -> dict:
    """The seller's browser when they sent the form, which Meta requires of a website event."""
    return {"client_ip_address": lead["client_ip"], "client_user_agent": lead["user_agent"]}


def custom_data(lead: dict, event: AdEvent) -> dict:
    """The event's value in US dollars and the watch (brand as category, model as name)."""
    return {
        "value": event.value,
        "currency": CURRENCY,
        "content_category": lead["watch_brand"],
        "content_name": lead["watch_model"] or "",
    }
