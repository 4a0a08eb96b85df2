"""Steps the arrival's tests share: a sale by mail whose quote the seller accepted, its parcel's
label bought against the fake EasyPost, the parcel moved by signed webhooks, and the arrival
form posted as staff's browser posts it."""

from __future__ import annotations

import io

from app.leads import history
from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle
from app.shipping import labels
from app.shipping.shipment_state import Leg
from tests.data.photos import photo_bytes
from tests.helpers import form_token, lead_work_done, save_sample_lead
from tests.shipping.steps import deliver, tracking_event

QUOTE = {"amount_low": 9000, "amount_high": 10500, "valid_until": "2099-01-01"}


def mail_deal(app, leg: Leg = Leg.INBOUND) -> dict:
    """A lead by mail whose seller accepted the quote (as the status page moves it), with the
    label of its `leg` parcel bought for that acceptance; the parcel's row."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        lifecycle.transition(lead_id, State.QUOTED, "staff:1", QUOTE, State.NEW)
        deal = lifecycle.transition(lead_id, State.ACCEPTED, "seller", {}, State.QUOTED)
        with transaction() as db:
            db.execute("UPDATE leads SET handover = 'mail' WHERE id = ?", (lead_id,))
        shipment_id = labels.open_shipment(lead_id, leg, deal, 10500, "adr_seller_1")
        parcel = labels.buy_label(shipment_id)
    lead_work_done(app)
    return parcel


def move(app, parcel: dict, *statuses: str) -> None:
    """Each tracking status as its own signed webhook event, applied by its job."""
    client = app.test_client()
    for status in statuses:
        assert deliver(client, tracking_event(parcel["tracking_code"], status)).status_code == 200
        lead_work_done(app)


def delivered_deal(app) -> dict:
    """A lead by mail whose inbound parcel the carrier delivered to us; the parcel's row."""
    parcel = mail_deal(app)
    move(app, parcel, "in_transit", "delivered")
    return parcel


def jpeg(name: str, seed: int = 0) -> tuple[io.BytesIO, str]:
    """A small JPEG photo as a browser uploads it."""
    return io.BytesIO(photo_bytes(size=(480, 360), seed=seed)), name


def arrival_fields(**changes) -> dict:
    """The arrival form filled in as staff fill it for a parcel that matches its label."""
    return {
        "weight_oz": "32.5",
        "seal": "intact",
        "box_photos": [jpeg("box-1.jpg"), jpeg("box-2.jpg", 1)],
        "opening_photos": [jpeg("opening.jpg", 2)],
        "serial": "7z41 k9q2",
        "serial_photo": jpeg("serial.jpg", 3),
        "note": "",
    } | changes


def post_arrival(staff, client, lead_id: int, **changes):
    """POST the arrival form from its page, with the page's CSRF token."""
    path = f"/staff/leads/{lead_id}/arrival"
    page = staff.request(client, "GET", path).get_data(as_text=True)
    data = arrival_fields(**changes) | {"csrf_token": form_token(page)}
    return staff.request(client, "POST", path, data=data, content_type="multipart/form-data")


def post_sign_off(staff, client, lead_id: int, note: str = "Weighed again: the box is heavier."):
    """POST the sign-off form from the arrival page."""
    path = f"/staff/leads/{lead_id}/arrival"
    page = staff.request(client, "GET", path).get_data(as_text=True)
    data = {"note": note, "csrf_token": form_token(page)}
    return staff.request(client, "POST", path + "/sign-off", data=data)


def lead_events(app, lead_id: int, kind: str) -> list[dict]:
    """The lead's timeline events of one kind."""
    with app.app_context():
        return [event for event in history.lead_events(lead_id) if event["kind"] == kind]
