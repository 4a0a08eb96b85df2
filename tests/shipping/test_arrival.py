"""A parcel opened on record by staff: a match is received at once; a mismatch (the weight
outside the tolerance, the seal broken) waits for a second staff member, never the one who
recorded it; the sale goes on to its final offer only once the parcel is received. Each
refusal is asserted, and audited where staff were refused."""

from __future__ import annotations

import sqlite3

import pytest

from app.leads import audit
from app.leads.db import get_db, transaction
from app.leads.history import append_event
from app.leads.state import State
from app.sale import lifecycle
from app.sale.purchase import files, record
from app.shipping import arrival, labels, reconcile
from app.shipping.shipment_state import ShipmentState
from tests.helpers import FINDINGS, lead_work_done
from tests.shipping.deal_steps import (
    delivered_deal,
    jpeg,
    lead_events,
    mail_deal,
    move,
    post_arrival,
    post_sign_off,
)
from tests.shipping.steps import deliver, mailin_settings, tracking_event
from tests.staff import conftest as staff_fixtures

# The staff area's fixtures: an enrolled account, signed in with both factors.
staff, account, signed_in = (
    staff_fixtures.staff,
    staff_fixtures.account,
    staff_fixtures.signed_in,
)

OFFER = {"amount": 9800, "valid_until": "2099-01-01"}


@pytest.fixture(autouse=True)
def selling_by_mail(app, easypost):
    app.config.update(mailin_settings(easypost) | {"MAILIN_ENABLED": True,
                                                   "MAILIN_MAX_VALUE": 25000,
                                                   "EASYPOST_TIMEOUT": 1})  # fmt: skip
    app.extensions.pop("easypost", None)


def second_staff(app, staff):
    """Another staff member, signed in with both factors in a client of their own."""
    client = app.test_client()
    staff.sign_in(client, staff.account("ben@example.com", "Ben Ortiz"))
    return client


def parcel_now(app, parcel: dict) -> dict:
    with app.app_context():
        return labels.get(parcel["id"])


def audited(app, action: str) -> list[dict]:
    with app.app_context():
        return [entry for entry in audit.entries() if entry["action"] == action]


def test_a_parcel_that_matches_is_received_with_its_files_sealed(app, staff, signed_in):
    parcel = delivered_deal(app)
    lead_id = parcel["lead_id"]
    answer = post_arrival(staff, signed_in, lead_id)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert parcel_now(app, parcel)["state"] == ShipmentState.RECEIVED
    with app.app_context():
        opened = arrival.arrival_of(parcel["id"])
        kept = arrival.arrival_files(opened)
        plain = [files.read(row) for row in kept]
        sealed = [(files.files_dir() / row["file_name"]).read_bytes() for row in kept]
    assert opened["serial"] == "7Z41 K9Q2" and opened["seal_intact"] == 1
    assert opened["mismatch"] == [] and opened["label_weight_oz"] == 32
    assert [row["kind"] for row in kept] == ["arrival_box", "arrival_box", "arrival_opening",
                                             "arrival_serial"]  # fmt: skip
    assert all(data.startswith(b"\xff\xd8") for data in plain)
    assert all(not token.startswith(b"\xff\xd8") and data not in token
               for data, token in zip(plain, sealed, strict=True))  # fmt: skip
    [moved] = [e for e in lead_events(app, lead_id, "shipment_moved")
               if e["data"]["state"] == "received"]  # fmt: skip
    assert moved["data"]["leg"] == "inbound"
    [recorded] = audited(app, "arrival_recorded")
    assert recorded["data"]["files"] == 4 and recorded["data"]["mismatch"] is False
    page = signed_in.get(f"/staff/leads/{lead_id}/arrival").get_data(as_text=True)
    assert "The arrival on record" in page and "Record the arrival" not in page
    assert page.count(f"/staff/leads/{lead_id}/purchase-files/") == 2 * 4  # link and image
    lead_page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "Parcel opened on record" in lead_page and "received, opened on record" in lead_page


def test_a_light_parcel_waits_for_a_second_staff_member_never_the_same(app, staff, signed_in):
    parcel = delivered_deal(app)
    lead_id = parcel["lead_id"]
    assert post_arrival(staff, signed_in, lead_id, weight_oz="27").status_code == 303
    now = parcel_now(app, parcel)
    assert now["state"] == ShipmentState.DELIVERED and now["exception_status"] == "arrival_mismatch"
    page = signed_in.get(f"/staff/leads/{lead_id}/arrival").get_data(as_text=True)
    assert "Weighs 27 oz against the label&#39;s 32 oz (more than 2 oz apart)" in page
    assert "You recorded this arrival, so another staff member must sign it off." in page
    refused = post_sign_off(staff, signed_in, lead_id)
    assert refused.status_code == 409
    assert "You recorded this arrival, so another staff member must sign it off." in refused.text
    assert parcel_now(app, parcel)["state"] == ShipmentState.DELIVERED
    assert len(audited(app, "arrival_sign_off_refused")) == 1
    with app.app_context(), transaction() as db, pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE arrivals SET signed_off_by = recorded_by")  # the database refuses too

    other = second_staff(app, staff)
    assert post_sign_off(staff, other, lead_id).status_code == 303
    assert parcel_now(app, parcel)["state"] == ShipmentState.RECEIVED
    with app.app_context():
        opened = arrival.arrival_of(parcel["id"])
    assert opened["signed_off_by"] not in (None, opened["recorded_by"])
    [signed] = lead_events(app, lead_id, "arrival_signed_off")
    assert signed["data"]["note"] == "Weighed again: the box is heavier."
    assert len(audited(app, "arrival_signed_off")) == 1
    again = post_sign_off(staff, other, lead_id)
    assert again.status_code == 409 and "This arrival is already signed off." in again.text
    assert len(lead_events(app, lead_id, "arrival_signed_off")) == 1


def test_a_late_carrier_exception_never_overwrites_the_arrivals_mismatch(app, staff, signed_in):
    parcel = delivered_deal(app)
    assert post_arrival(staff, signed_in, parcel["lead_id"], weight_oz="27").status_code == 303
    move(app, parcel, "failure", "return_to_sender")  # the carrier's late word on a parcel we have
    now = parcel_now(app, parcel)
    assert now["state"] == ShipmentState.DELIVERED and now["exception_status"] == "arrival_mismatch"
    exceptions = lead_events(app, parcel["lead_id"], "shipment_exception")
    assert exceptions == []  # no e-mail to staff either: nothing was recorded as the exception
    with app.app_context():
        outcomes = [row[0] for row in get_db().execute(
            "SELECT outcome FROM shipment_events WHERE tracking_code = ? ORDER BY id",
            (parcel["tracking_code"],))]  # fmt: skip
    assert outcomes[-2:] == [
        "exception failure not recorded: the arrival's mismatch stands",
        "exception return_to_sender not recorded: the arrival's mismatch stands",
    ]


def test_staff_read_an_arrival_that_did_not_match_in_words_not_as_a_code(app, staff, signed_in):
    parcel = delivered_deal(app)
    lead_id = parcel["lead_id"]
    to_open = signed_in.get("/staff/shipments?tab=to-open").get_data(as_text=True)
    assert parcel["tracking_code"] in to_open
    assert post_arrival(staff, signed_in, lead_id, seal="broken").status_code == 303
    to_open = signed_in.get("/staff/shipments?tab=to-open").get_data(as_text=True)
    assert parcel["tracking_code"] not in to_open  # opened already: the sign-off is what waits
    words = "did not match its label when opened on record"
    for path in ("/staff/shipments?tab=exceptions", f"/staff/shipments/{parcel['id']}",
                 f"/staff/leads/{lead_id}/arrival"):  # fmt: skip
        page = signed_in.get(path).get_data(as_text=True)
        assert words in page.lower(), path
        assert "arrival_mismatch" not in page.lower() and "Arrival mismatch" not in page, path


def weighed_by_the_carrier(app, *weights) -> dict:
    """A lead by mail whose parcel the carrier scanned with each of `weights` in turn (in its
    tracker's `weight`), then delivered; the parcel's row."""
    parcel = mail_deal(app)
    client = app.test_client()
    for weight in (*weights, None):
        status = "in_transit" if weight is not None else "delivered"
        event = tracking_event(parcel["tracking_code"], status)
        event["result"]["weight"] = weight
        assert deliver(client, event).status_code == 200
        lead_work_done(app)
    return parcel


def test_a_parcel_is_weighed_against_the_carriers_first_measurement(app, staff, signed_in):
    parcel = weighed_by_the_carrier(app, 27.5, 40)  # the label was bought for 32 oz
    assert parcel_now(app, parcel)["carrier_weight_oz"] == 27.5
    path = f"/staff/leads/{parcel['lead_id']}/arrival"
    page = signed_in.get(path).get_data(as_text=True)
    assert "The carrier measured it at 27.5 oz" in page
    answer = post_arrival(staff, signed_in, parcel["lead_id"], weight_oz="28.5")
    assert answer.status_code == 303
    assert parcel_now(app, parcel)["state"] == ShipmentState.RECEIVED  # 3.5 oz off the label's
    with app.app_context():
        opened = arrival.arrival_of(parcel["id"])
    assert (opened["carrier_weight_oz"], opened["label_weight_oz"]) == (27.5, 32)
    assert "carrier measured 27.5 oz" in signed_in.get(path).get_data(as_text=True)


def test_the_labels_weight_is_no_match_for_a_lighter_carrier_measurement(app, staff, signed_in):
    parcel = weighed_by_the_carrier(app, 27.5)
    assert post_arrival(staff, signed_in, parcel["lead_id"], weight_oz="32").status_code == 303
    with app.app_context():
        opened = arrival.arrival_of(parcel["id"])
    assert opened["mismatch"] == [
        "weighs 32 oz against the carrier's measured 27.5 oz (more than 2 oz apart)"
    ]
    assert parcel_now(app, parcel)["state"] == ShipmentState.DELIVERED  # waits for a sign-off


@pytest.mark.parametrize("weight", ["27.5", -3, 0, True, 99999, [27]])
def test_a_weight_that_is_not_a_measurement_is_not_kept(app, weight):
    parcel = weighed_by_the_carrier(app, weight)
    assert parcel_now(app, parcel)["carrier_weight_oz"] is None


def test_the_reconciler_keeps_the_weight_a_webhook_missed(app, easypost):
    parcel = mail_deal(app)
    easypost.shipments[parcel["provider_shipment_id"]]["tracker"]["weight"] = 30.1
    easypost.track(parcel["provider_shipment_id"], "in_transit")
    with app.app_context():
        reconcile.reconcile()
    assert parcel_now(app, parcel)["carrier_weight_oz"] == 30.1


def test_a_broken_seal_is_a_mismatch_whatever_the_weight(app, staff, signed_in):
    parcel = delivered_deal(app)
    assert post_arrival(staff, signed_in, parcel["lead_id"], seal="broken").status_code == 303
    with app.app_context():
        opened = arrival.arrival_of(parcel["id"])
    assert opened["mismatch"] == ["the seal was broken or missing"]
    assert parcel_now(app, parcel)["state"] == ShipmentState.DELIVERED


def test_an_arrival_is_recorded_once_and_only_for_a_delivered_parcel(app, staff, signed_in):
    on_the_way = mail_deal(app)
    move(app, on_the_way, "in_transit")
    page = signed_in.get(f"/staff/leads/{on_the_way['lead_id']}/arrival").get_data(as_text=True)
    assert "data-not-openable" in page and "data-arrival-form" not in page
    with app.app_context(), pytest.raises(arrival.NotRecorded, match="not delivered"):
        arrival.record_arrival(on_the_way["lead_id"], opened_facts(), "staff:1")

    parcel = delivered_deal(app)
    assert post_arrival(staff, signed_in, parcel["lead_id"]).status_code == 303
    with app.app_context():
        before = get_db().execute("SELECT count(*) FROM purchase_files").fetchone()[0]
        with pytest.raises(arrival.NotRecorded, match="already on record"):
            arrival.record_arrival(parcel["lead_id"], opened_facts(), "staff:1")
        after = get_db().execute("SELECT count(*) FROM purchase_files").fetchone()[0]
        left = sorted(path.name for path in files.files_dir().iterdir())
        named = sorted(row[0] for row in get_db().execute("SELECT file_name FROM purchase_files"))
    assert before == after and left == named  # nothing kept of the refused one


def opened_facts() -> arrival.Opened:
    photo = jpeg("x.jpg")[0].getvalue()
    return arrival.Opened(weight_oz=32, seal_intact=True, serial="7Z41K9Q2", box_photos=[photo],
                          opening_photos=[photo], serial_photo=photo)  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"box_photos": []}, "Add at least one photo of the box as it came, before opening."),
        ({"serial_photo": (jpeg("x")[0], "")}, "Add a photo with the serial number in frame."),
        ({"opening_photos": [(jpeg("x")[0], "notes.jpg")] * 5}, "Please choose at most 4"),
        ({"serial_photo": (jpeg("x")[0].__class__(b"%PDF-1.7 not a photo"), "serial.jpg")},
         "serial.jpg is not a PNG, JPEG, WebP or HEIC photo."),
        ({"video": (jpeg("x")[0], "opening.mp4")}, "opening.mp4 is not an mp4 or WebM video."),
        ({"weight_oz": "heavy"}, "Enter the weight in ounces"),
        ({"weight_oz": "0"}, "Enter the weight in ounces, between 0.1 and 1,000."),
        ({"seal": ""}, "Say whether the seal was intact."),
        ({"serial": "<script>"}, "Use the letters, digits, spaces, dots, slashes and hyphens"),
    ],
)  # fmt: skip
def test_a_form_with_a_problem_says_which_and_keeps_nothing(
    app,
    staff,
    signed_in,
    changes,
    message,
):
    parcel = delivered_deal(app)
    answer = post_arrival(staff, signed_in, parcel["lead_id"], **changes)
    assert answer.status_code == 400 and message in answer.text
    assert parcel_now(app, parcel)["state"] == ShipmentState.DELIVERED
    with app.app_context():
        assert arrival.arrival_of(parcel["id"]) is None
        assert get_db().execute("SELECT count(*) FROM purchase_files").fetchone()[0] == 0


def test_a_video_is_kept_within_its_limit(app, staff, signed_in):
    mp4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + b"\x00" * 4096
    parcel = delivered_deal(app)
    app.config["MAILIN_ARRIVAL_VIDEO_MAX_MB"] = 0
    big = post_arrival(staff, signed_in, parcel["lead_id"],
                       video=(jpeg("x")[0].__class__(mp4), "opening.mp4"))  # fmt: skip
    assert big.status_code == 400 and "opening.mp4 is larger than 0MB" in big.text
    app.config["MAILIN_ARRIVAL_VIDEO_MAX_MB"] = 1
    kept = post_arrival(staff, signed_in, parcel["lead_id"],
                        video=(jpeg("x")[0].__class__(mp4), "opening.mp4"))  # fmt: skip
    assert kept.status_code == 303
    with app.app_context():
        [video] = files.files_of(parcel["lead_id"], ("arrival_video",))
        assert files.read(video) == mp4 and video["media_type"] == "video/mp4"
    page = signed_in.get(f"/staff/leads/{parcel['lead_id']}/arrival").get_data(as_text=True)
    assert "Open the video of the opening" in page


def test_the_final_offer_by_mail_waits_for_the_parcel_received(app, staff, signed_in):
    parcel = delivered_deal(app)
    lead_id = parcel["lead_id"]
    with app.app_context():
        with transaction() as db:
            record.update(db, lead_id, FINDINGS)
        with pytest.raises(lifecycle.MissingDetails, match="parcel received first"):
            lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.ACCEPTED)
    assert post_arrival(staff, signed_in, lead_id, weight_oz="40").status_code == 303
    with app.app_context(), pytest.raises(lifecycle.MissingDetails, match="parcel received"):
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.ACCEPTED)
    assert post_sign_off(staff, second_staff(app, staff), lead_id).status_code == 303
    with app.app_context():
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.ACCEPTED)
        from app.leads import store

        assert store.get_lead(lead_id)["state"] == State.OFFERED
    lead_work_done(app)


def test_an_in_person_deal_still_goes_through_its_appointment(app, signed_in):
    parcel = mail_deal(app)
    lead_id = parcel["lead_id"]
    with app.app_context():
        with transaction() as db:
            db.execute("UPDATE leads SET handover = NULL WHERE id = ?", (lead_id,))
            record.update(db, lead_id, FINDINGS)
        with pytest.raises(lifecycle.MissingDetails, match="book it first"):
            lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.ACCEPTED)
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "Record and e-mail the offer" not in page and "data-parcel-link" not in page


def test_a_parcel_that_replaced_the_first_counts_and_one_of_an_earlier_deal_does_not(app):
    parcel = delivered_deal(app)
    lead_id = parcel["lead_id"]
    with app.app_context():
        with transaction() as db:
            record.update(db, lead_id, FINDINGS)
            db.execute("UPDATE shipments SET state = 'received', deal_event_id = 1 WHERE id = ?",
                       (parcel["id"],))  # fmt: skip
        with pytest.raises(lifecycle.MissingDetails, match="parcel received first"):
            lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.ACCEPTED)
        with transaction() as db:  # the parcel a confirmed new return address opened
            later = append_event(db, lead_id, "seller", "address_change_confirmed", {})
            db.execute("UPDATE shipments SET deal_event_id = ? WHERE id = ?", (later, parcel["id"]))
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.ACCEPTED)
    lead_work_done(app)
