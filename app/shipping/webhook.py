"""The label provider's tracking events, as its webhook sends them: verified on the raw bytes
(HMAC-SHA256 in X-Hmac-Signature, by the provider's own library) against the current secret
or, during a rotation, the previous one; then stored once by the event's own id, since the
provider delivers at least once and in any order; in production, an event of the provider's
test mode is answered and dropped. What an event does is the job's (tracking.py): the answer
does not wait for it.

Only what names an event and what its job reads is stored: a tracker also tells where each
scan was, who signed for the parcel and its public tracking page, which say where the seller
lives (the return is delivered to them) and would outlive their erasure in a stored body."""

from __future__ import annotations

import json

from easypost.errors import SignatureVerificationError
from easypost.util import validate_webhook
from flask import current_app

from app.leads.db import now, transaction
from app.security.webhooks import Refused

# What a stored event keeps: its id, kind, mode and time, and of its tracker what the job reads.
EVENT_FIELDS = ("id", "object", "description", "mode", "created_at")
TRACKER_FIELDS = ("id", "object", "tracking_code", "status", "status_detail", "carrier", "weight")


def verified_event(body: bytes, headers) -> dict:
    """The event the body holds, if a configured secret signed it; Refused otherwise (401 for a
    signature that is missing, not ASCII or made with another secret, 400 for a signed body
    that is not an event)."""
    config = current_app.config
    secrets = [config["EASYPOST_WEBHOOK_SECRET"], config["EASYPOST_WEBHOOK_SECRET_PREVIOUS"]]
    # A signature is hex: a header beyond ASCII is no signature (the library's comparison
    # raises TypeError on one, which was a 500).
    if not headers.get("X-Hmac-Signature", "").isascii():
        secrets = []
    for secret in filter(None, secrets):
        try:
            event = validate_webhook(body, headers, secret)
        except SignatureVerificationError:
            continue
        except (ValueError, RecursionError):
            raise Refused(400, "The body is not JSON.") from None
        return checked_shape(event)
    raise Refused(401, "The signature is missing or does not match.")


def checked_shape(event) -> dict:
    """The event, if it has what the job reads (an id and a description); Refused(400) if not."""
    if not isinstance(event, dict):
        raise Refused(400, "The body is not an event.")
    if not isinstance(event.get("id"), str) or not isinstance(event.get("description"), str):
        raise Refused(400, "The event has no id or description.")
    if not isinstance(event.get("result"), dict):
        event["result"] = {}
    return event


def not_for_this_site(event: dict) -> str | None:
    """Why production must not apply a verified event, or None: any mode but the provider's
    "production" (its test mode tracks test labels, and a test webhook may share our URL and
    secret). Outside production, test-mode events are what the site runs on."""
    if current_app.config["ENV_NAME"] == "production" and event.get("mode") != "production":
        return "a test-mode event is never applied in production"
    return None


def store_event(event: dict) -> int | None:
    """Keep the event for its job; its row's id, or None if this event was stored before."""
    result = event["result"]
    with transaction() as db:
        row = db.execute(
            "INSERT INTO shipment_events (provider_event_id, description, tracking_code, "
            "status, body, received_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (provider_event_id) DO NOTHING RETURNING id",
            (event["id"], event["description"], text_or_none(result.get("tracking_code")),
             text_or_none(result.get("status")), json.dumps(kept(event)), now()),
        ).fetchone()  # fmt: skip
    return row["id"] if row else None


def kept(event: dict) -> dict:
    """The event as it is stored: EVENT_FIELDS, and TRACKER_FIELDS of its result."""
    result = {name: event["result"][name] for name in TRACKER_FIELDS if name in event["result"]}
    return {name: event[name] for name in EVENT_FIELDS if name in event} | {"result": result}


def text_or_none(value) -> str | None:
    """A field of the event's result kept as a column only if it is text."""
    return value if isinstance(value, str) else None
