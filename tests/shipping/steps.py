"""Steps the sale by mail's tests share: its settings, a deal whose parcel is on record, a
label bought for it, and tracking events signed as EasyPost signs them."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json

from app.leads import history
from app.shipping import labels
from app.shipping.shipment_state import Leg
from tests.helpers import save_sample_lead
from tests.shipping.fake_easypost import CARRIER_ACCOUNT, FakeEasyPost

SECRET = "whsec-current-7d1e94"
RECEIVING = "USWB Receiving; 41 Orchard Street; Floor 3; New York; NY; 10002; 2129084417"
_event_numbers = itertools.count(1)


def mailin_settings(fake: FakeEasyPost, **changes) -> dict:
    """The sale by mail on, its labels bought from `fake` (requests give up after 1 s)."""
    return {
        "MAILIN_ENABLED": "1",
        "MAILIN_MAX_VALUE": "25000",
        "MAILIN_POLICY_REFERENCE": "HV-PARCEL-2026-0417",
        "MAILIN_CARRIER_ACCOUNT": CARRIER_ACCOUNT,
        "MAILIN_RECEIVING_ADDRESS": RECEIVING,
        "EASYPOST_API_KEY": "EZTK-test-4f0c",
        "EASYPOST_API_BASE": fake.api_base,
        "EASYPOST_FILE_HOSTS": fake.files_host,
        "EASYPOST_TIMEOUT": "1",
        "EASYPOST_WEBHOOK_SECRET": SECRET,
    } | changes


def parcel_on_record(app, insured_value: int = 18500) -> int:
    """A lead whose seller accepted the quote, and its inbound parcel on record; its id."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        deal = history.add_event(lead_id, "seller", "state_changed",
                                 {"from": "quoted", "to": "accepted"})  # fmt: skip
        return labels.open_shipment(lead_id, Leg.INBOUND, deal, insured_value, "adr_seller_1")


def bought_label(app) -> dict:
    """A parcel on record with its label bought; its row."""
    shipment_id = parcel_on_record(app)
    with app.app_context():
        return labels.buy_label(shipment_id)


def tracking_event(
    tracking_code: str, status: str, event_id: str | None = None, mode: str = "test"
) -> dict:
    """A tracker.updated event as EasyPost sends it (the fields the app reads, and a few more),
    from its test mode unless `mode` says "production" (production takes no other)."""
    return {
        "id": event_id or f"evt_{next(_event_numbers):06d}",
        "object": "Event",
        "description": "tracker.updated",
        "mode": mode,
        "result": {
            "id": "trk_5c1e", "object": "Tracker", "tracking_code": tracking_code,
            "status": status, "carrier": "UPS",
            "tracking_details": [{"status": status, "message": "Scan", "datetime": "2026-11-27"}],
        },
    }  # fmt: skip


def signed(event, secret: str = SECRET) -> tuple[bytes, dict]:
    """The body and headers of a webhook request, signed as EasyPost signs it."""
    body = event if isinstance(event, bytes) else json.dumps(event).encode()
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return body, {"X-Hmac-Signature": f"hmac-sha256-hex={digest}",
                  "Content-Type": "application/json"}  # fmt: skip


def deliver(client, event, secret: str = SECRET, base_url: str = "http://localhost"):
    """POST one event to the webhook, signed with `secret` (at `base_url`: a production app
    answers its own host only)."""
    body, headers = signed(event, secret)
    return client.post("/webhooks/easypost", data=body, headers=headers, base_url=base_url)
