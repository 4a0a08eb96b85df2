"""EasyPost's tracking events: verified on their raw bytes (current secret, or the previous one
during a rotation), stored once by their id, applied by a job that only moves a parcel forward;
exceptions e-mailed to staff once; nothing else is believed or stored."""

from __future__ import annotations

import json

import pytest

from app.leads import history
from app.leads.db import get_db, transaction
from app.shipping import labels
from tests.helpers import PRODUCTION, SITE, lead_work_done
from tests.shipping.steps import (
    SECRET,
    bought_label,
    deliver,
    mailin_settings,
    parcel_on_record,
    signed,
    tracking_event,
)


def stored_events(app) -> list[dict]:
    with app.app_context():
        rows = get_db().execute("SELECT * FROM shipment_events ORDER BY id")
        return [dict(row) for row in rows]


def parcel_state(app, shipment_id: int) -> str:
    with app.app_context():
        return labels.get(shipment_id)["state"]


def test_a_signed_event_moves_the_parcel_forward_and_goes_on_the_timeline(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    answer = deliver(
        mailin_app.test_client(), tracking_event(parcel["tracking_code"], "in_transit")
    )
    assert answer.status_code == 200 and answer.text == "Stored.\n"
    lead_work_done(mailin_app)
    assert parcel_state(mailin_app, parcel["id"]) == "in_transit"
    [event] = stored_events(mailin_app)
    assert event["outcome"] == "moved to in_transit" and event["processed_at"]
    with mailin_app.app_context():
        moves = [e for e in history.lead_events(parcel["lead_id"]) if e["kind"] == "shipment_moved"]
    assert [move["data"] for move in moves] == [{"leg": "inbound", "state": "in_transit"}]
    with mailin_app.app_context():  # the parcel moved; the deal, its state and amounts did not
        lead = get_db().execute("SELECT state FROM leads WHERE id = ?", (parcel["lead_id"],))
        assert lead.fetchone()["state"] == "new"
        kinds = [event["kind"] for event in history.lead_events(parcel["lead_id"])]
        assert "state_changed" not in kinds[kinds.index("shipment_label_bought") :]


def test_a_stored_event_keeps_what_its_job_reads_not_where_the_seller_is(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    event = tracking_event(parcel["tracking_code"], "delivered")
    place = {"city": "BOISE", "state": "ID", "zip": "83702", "country": "US"}
    event["result"] |= {
        "weight": 33.5, "signed_by": "Q ZEPPELINOVICH", "status_detail": "arrived_at_destination",
        "public_url": "https://track.easypost.example/djE6dHJrXzVjMWU",
        "tracking_details": [{"status": "delivered", "message": "Delivered to front porch",
                              "tracking_location": place}],
        "carrier_detail": {"origin_location": "BOISE ID US 83702", "origin_tracking_location":
                           place, "destination_location": "NEW YORK NY US 10002"},
    }  # fmt: skip

    assert deliver(mailin_app.test_client(), event).status_code == 200
    lead_work_done(mailin_app)

    [stored] = stored_events(mailin_app)
    assert json.loads(stored["body"]) == {
        "id": event["id"], "object": "Event", "description": "tracker.updated", "mode": "test",
        "result": {"id": "trk_5c1e", "object": "Tracker", "tracking_code": parcel["tracking_code"],
                   "status": "delivered", "status_detail": "arrived_at_destination",
                   "carrier": "UPS", "weight": 33.5},
    }  # fmt: skip
    assert stored["outcome"] == "moved to delivered"
    with mailin_app.app_context():
        assert labels.get(parcel["id"])["carrier_weight_oz"] == 33.5


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-Hmac-Signature": "hmac-sha256-hex=" + "0" * 64},
        {"X-Hmac-Signature": "sha256=whatever"},
    ],
    ids=["missing", "wrong", "malformed"],
)
def test_an_unsigned_or_wrongly_signed_event_is_refused_and_not_stored(mailin_app, headers):
    body = b'{"id": "evt_forged", "description": "tracker.updated", "result": {}}'
    answer = mailin_app.test_client().post("/webhooks/easypost", data=body, headers=headers)
    assert answer.status_code == 401
    assert answer.text == "The signature is missing or does not match.\n"
    assert SECRET not in answer.text and stored_events(mailin_app) == []


def test_a_signature_header_with_a_byte_beyond_ascii_is_refused_not_an_error(mailin_app):
    parcel = bought_label(mailin_app)
    body, headers = signed(tracking_event(parcel["tracking_code"], "delivered"))
    # One byte changed to 0xE9, as a raw header line carries it (read back as "é").
    headers["X-Hmac-Signature"] = headers["X-Hmac-Signature"][:-1] + "\xe9"
    answer = mailin_app.test_client().post("/webhooks/easypost", data=body, headers=headers)
    assert answer.status_code == 401
    assert answer.text == "The signature is missing or does not match.\n"
    assert stored_events(mailin_app) == []


def test_in_production_a_test_mode_event_is_answered_but_neither_stored_nor_applied(
    make_app, easypost
):
    production = {
        "EASYPOST_API_BASE": "https://api.easypost.com/v2",
        "EASYPOST_API_KEY": "EZAK-7d2e",
    }
    app = make_app(**PRODUCTION, **mailin_settings(easypost, **production))
    shipment_id = parcel_on_record(app)
    with app.app_context(), transaction() as db:  # its label bought: the carrier has its code
        db.execute(
            "UPDATE shipments SET state = 'label_ready', tracking_code = ? WHERE id = ?",
            ("1Z999AA10123456784", shipment_id),
        )
    client = app.test_client()
    test_mode = tracking_event("1Z999AA10123456784", "delivered", "evt_test_1")
    refused = deliver(client, test_mode, base_url=SITE)
    assert refused.status_code == 200  # answered, so the provider does not send it again
    assert refused.text == "Not applied: a test-mode event is never applied in production.\n"
    assert stored_events(app) == [] and parcel_state(app, shipment_id) == "label_ready"
    live = tracking_event("1Z999AA10123456784", "in_transit", "evt_live_1", mode="production")
    assert deliver(client, live, base_url=SITE).text == "Stored.\n"
    lead_work_done(app)
    assert parcel_state(app, shipment_id) == "in_transit"
    assert [event["provider_event_id"] for event in stored_events(app)] == ["evt_live_1"]


def test_outside_production_a_test_mode_event_is_applied(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    answer = deliver(
        mailin_app.test_client(), tracking_event(parcel["tracking_code"], "in_transit")
    )
    assert answer.text == "Stored.\n"
    lead_work_done(mailin_app)
    assert parcel_state(mailin_app, parcel["id"]) == "in_transit"


def test_a_body_changed_after_signing_is_refused(mailin_app):
    parcel = bought_label(mailin_app)
    body, headers = signed(tracking_event(parcel["tracking_code"], "delivered"))
    tampered = body.replace(b"delivered", b"in_transit")
    answer = mailin_app.test_client().post("/webhooks/easypost", data=tampered, headers=headers)
    assert answer.status_code == 401 and stored_events(mailin_app) == []


def test_the_previous_secret_still_verifies_during_a_rotation(make_app, easypost):
    app = make_app(**mailin_settings(easypost, EASYPOST_WEBHOOK_SECRET="whsec-new-91aa",
                                     EASYPOST_WEBHOOK_SECRET_PREVIOUS=SECRET))  # fmt: skip
    client = app.test_client()
    assert deliver(client, tracking_event("1Z-UNKNOWN", "in_transit"), SECRET).status_code == 200
    assert (
        deliver(client, tracking_event("1Z-UNKNOWN", "in_transit"), "whsec-new-91aa").status_code
        == 200
    )
    assert (
        deliver(client, tracking_event("1Z-UNKNOWN", "in_transit"), "whsec-older").status_code
        == 401
    )
    assert len(stored_events(app)) == 2


def test_an_empty_previous_secret_is_never_a_signing_key(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    assert mailin_app.config["EASYPOST_WEBHOOK_SECRET_PREVIOUS"] == ""  # the default
    forged = tracking_event(parcel["tracking_code"], "delivered", "evt_signed_with_nothing")
    answer = deliver(mailin_app.test_client(), forged, secret="")
    lead_work_done(mailin_app)
    assert answer.status_code == 401 and stored_events(mailin_app) == []
    assert parcel_state(mailin_app, parcel["id"]) == "label_ready"


def test_the_same_event_three_times_is_one_row_and_one_staff_email(
    make_app, easypost, mail_settings, smtp_server
):
    app = make_app(
        **mailin_settings(easypost) | mail_settings | {"STAFF_EMAIL": "desk@watches.example"}
    )
    parcel = bought_label(app)
    event = tracking_event(parcel["tracking_code"], "return_to_sender", "evt_repeated")
    client = app.test_client()
    answers = [deliver(client, event).text for _ in range(3)]
    lead_work_done(app)
    assert answers == ["Stored.\n", "Already stored.\n", "Already stored.\n"]
    assert len(stored_events(app)) == 1
    with app.app_context():
        row = labels.get(parcel["id"])
    assert row["state"] == "label_ready" and row["exception_status"] == "return_to_sender"
    [alert] = [m for m in smtp_server.messages if "Parcel of lead" in m["Subject"]]
    assert alert["To"] == "desk@watches.example"
    assert "returned to the sender" in alert["Subject"]
    text = alert.get_content()
    assert parcel["tracking_code"] not in text and "label" not in alert["Subject"].lower()
    assert f"https://watches.example/staff/leads/{parcel['lead_id']}" in text


def test_a_late_in_transit_after_delivered_leaves_the_parcel_delivered(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    client = mailin_app.test_client()
    deliver(client, tracking_event(parcel["tracking_code"], "delivered"))
    deliver(client, tracking_event(parcel["tracking_code"], "in_transit"))  # stale snapshot
    lead_work_done(mailin_app)
    assert parcel_state(mailin_app, parcel["id"]) == "delivered"
    outcomes = [event["outcome"] for event in stored_events(mailin_app)]
    assert outcomes == ["moved to delivered", "stays delivered (not moved back to in_transit)"]


def test_the_cover_begins_at_the_first_scan_and_later_scans_leave_it(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    client = mailin_app.test_client()
    deliver(client, tracking_event(parcel["tracking_code"], "in_transit"))
    lead_work_done(mailin_app)
    first_scan = "2026-11-27T09:12:00+00:00"
    with mailin_app.app_context(), transaction() as db:  # heard of a while ago
        db.execute("UPDATE shipments SET first_scan_at = ?", (first_scan,))
    deliver(client, tracking_event(parcel["tracking_code"], "out_for_delivery"))
    deliver(client, tracking_event(parcel["tracking_code"], "delivered"))
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        row = labels.get(parcel["id"])
    assert row["state"] == "delivered" and row["first_scan_at"] == first_scan
    assert row["delivered_at"] > first_scan


def test_an_unknown_tracking_code_is_answered_and_recorded(mailin_app, caplog):
    answer = deliver(mailin_app.test_client(), tracking_event("1Z-NOT-OURS", "delivered"))
    lead_work_done(mailin_app)
    assert answer.status_code == 200
    [event] = stored_events(mailin_app)
    assert event["outcome"] == "unknown tracking code"
    assert "unknown tracking code" in caplog.text


@pytest.mark.parametrize(
    "body", [b"[" * 100_000, b'"just text"', b'{"id": 7, "description": "tracker.updated"}',
             b"not json at all"],
    ids=["deeply-nested", "not-an-object", "no-id", "not-json"],
)  # fmt: skip
def test_a_signed_body_that_is_not_an_event_is_a_400_and_not_stored(mailin_app, body):
    answer = deliver(mailin_app.test_client(), body)
    assert answer.status_code == 400 and stored_events(mailin_app) == []


def test_a_body_over_the_limit_is_refused_unread(make_app, easypost):
    app = make_app(**mailin_settings(easypost, EASYPOST_WEBHOOK_MAX_BYTES="1024"))
    event = tracking_event("1Z-BIG", "in_transit") | {"padding": "x" * 2000}
    answer = deliver(app.test_client(), event)
    assert answer.status_code == 413 and stored_events(app) == []


def test_without_the_sale_by_mail_the_webhook_is_not_there(make_app, easypost):
    app = make_app(**mailin_settings(easypost, MAILIN_ENABLED="0"))
    answer = deliver(app.test_client(), tracking_event("1Z-ANY", "in_transit"))
    assert answer.status_code == 404 and stored_events(app) == []
