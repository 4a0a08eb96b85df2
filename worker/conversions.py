"""Server-side Lead conversions: Meta Conversions API and the GA4 Measurement Protocol.

The Meta event carries the browser pixel's event id, so Meta counts the lead once. E-mail and
phone are normalised and SHA-256 hashed as Meta requires; Meta's own click and browser ids (fbc,
fbp) go as they came, as Meta requires; nothing else personal is sent.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from datetime import datetime
from urllib.parse import urlencode

from flask import current_app

LEAD_VALUE = 1000
CURRENCY = "USD"
HTTP_TIMEOUT = 10


def sha256(text: str) -> str:
    """The hex SHA-256 digest of the text, as Meta wants personal data hashed."""
    return hashlib.sha256(text.encode()).hexdigest()


def normalised_phone(phone: str) -> str:
    """Digits with the country code, as Meta wants; a 10-digit number is taken to be US (+1)."""
    digits = re.sub(r"\D", "", phone)
    return "1" + digits if len(digits) == 10 else digits


def post_json(url: str, body: dict) -> None:
    """POST `body` as JSON to `url`; an HTTP error status or a timeout raises."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
        response.read()


def meta_browser_ids(lead: dict) -> dict:
    """The lead's Meta click id (fbc) and browser id (fbp) as user_data wants them, unhashed;
    only those the lead has."""
    return {key: lead[key] for key in ("fbc", "fbp") if lead.get(key)}


def meta_event(lead: dict) -> dict:
    """The lead as one Meta Conversions API Lead event, its e-mail and phone hashed."""
    return {
        "event_name": "Lead",
        "event_time": int(datetime.fromisoformat(lead["created_at"]).timestamp()),
        "event_id": lead["meta_event_id"],
        "action_source": "website",
        "event_source_url": current_app.config["SITE_URL"].rstrip("/") + "/sell",
        "user_data": {
            "em": [sha256(lead["email"].strip().lower())],
            "ph": [sha256(normalised_phone(lead["phone"]))],
            "client_ip_address": lead["client_ip"],
            "client_user_agent": lead["user_agent"],
            **meta_browser_ids(lead),
        },
        "custom_data": {
            "value": LEAD_VALUE,
            "currency": CURRENCY,
            "content_category": lead["watch_brand"],
            "content_name": lead["watch_model"] or "",
        },
    }


def send_meta(lead: dict) -> bool:
    """Send the lead to Meta's Conversions API if it is configured; whether it was sent."""
    config = current_app.config
    if not (config["META_PIXEL_ID"] and config["META_CAPI_TOKEN"]):
        return False
    url = config["META_CAPI_URL"].format(pixel_id=config["META_PIXEL_ID"])
    post_json(url, {"data": [meta_event(lead)], "access_token": config["META_CAPI_TOKEN"]})
    return True


def send_ga4(lead: dict) -> bool:
    """Send the lead to GA4 as generate_lead if it is configured; whether it was sent."""
    config = current_app.config
    if not (config["GA4_MEASUREMENT_ID"] and config["GA4_API_SECRET"]):
        return False
    query = urlencode(
        {"measurement_id": config["GA4_MEASUREMENT_ID"], "api_secret": config["GA4_API_SECRET"]}
    )
    event = {
        "name": "generate_lead",
        "params": {"value": LEAD_VALUE, "currency": CURRENCY, "lead_source": lead["source"]},
    }
    client_id = lead["ga_client_id"] or lead["meta_event_id"]
    post_json(f"{config['GA4_API_URL']}?{query}", {"client_id": client_id, "events": [event]})
    return True


def opted_out(lead: dict) -> str | None:
    """How the lead's seller opted out of sharing ('gpc' or 'choice'), or None: such a lead
    sends nothing to any platform, ever (app/privacy/choice.py)."""
    return lead.get("ad_opt_out") or None


def send_lead_conversions(lead: dict) -> list[str]:
    """Send to each configured endpoint; the names of those sent to (none for a lead whose
    seller opted out)."""
    if opted_out(lead):
        return []
    sent = []
    if send_meta(lead):
        sent.append("meta")
    if send_ga4(lead):
        sent.append("ga4")
    return sent
