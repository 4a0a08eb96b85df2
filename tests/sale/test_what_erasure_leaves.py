"""What an erasure leaves, hunted for everywhere. A sale by mail with everything a seller and
staff can give it (the sell form with a ZIP code, a question, the three steps before the label,
the label, a return address changed after it, a pickup, tracking events with the places scanned
and who signed, the arrival with staff's note, the final offer accepted and the paperwork
signed, then withdrawn, the free return signed for by the seller, a claim with its note),
erased by staff; and a sale in person with an exception approved, paid, erased at its seller's
request and its record at its end. Then every value of every table of leads.db, its file and
WAL, the private storage and the replica's bucket are searched for anything of the seller's, so
a column someone adds later is searched too."""

from __future__ import annotations

import re
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from app.leads import storage, store
from app.leads.db import get_db, now, transaction
from app.leads.state import State
from app.replica import objects
from app.sale import erasure, lifecycle
from app.sale.purchase import approvals, authentication, payout, record
from app.shipping import claims, labels, pickups
from tests.data.paperwork import APPOINTMENT, OFFER, QUOTE, SECRETS, move_through, post_paperwork
from tests.data.paperwork import FINDINGS as PAPERWORK_FINDINGS
from tests.helpers import (
    CLEAR_CHECK,
    FINDINGS,
    PAYMENT,
    answer_data,
    business_today,
    give_token,
    lead_work_done,
    photo,
    post,
)
from tests.replica.conftest import object_storage  # noqa: F401 (a fixture)
from tests.shipping.deal_steps import jpeg
from tests.shipping.fake_easypost import easypost, easypost_server  # noqa: F401 (fixtures)
from tests.shipping.return_steps import parcels, post_form, staff_on  # noqa: F401 (a fixture)
from tests.shipping.steps import deliver, mailin_settings, tracking_event
from tests.status.mail_steps import csrf, post_address, post_conditions, post_id, verify_id
from worker import jobs

SITE = "https://watches.example"
ADDRESS_LINK = re.compile(re.escape(SITE) + r"(/status/address/[A-Za-z0-9_-]+)")
SELLER = {
    "fullName": "Quentin Zeppelinovich",
    "email": "quentin.z@example.org",
    "phone": "+1 (208) 555-0199",
    "additionalDetails": "Bought new at a jeweller near 27 Wisteria Lane.",
    "postalCode": "83702",
    "handover": "mail",
}
ADDRESS = {"name": "Quentin Zeppelinovich", "street1": "27 Wisteria Lane", "street2": "Unit 5",
           "city": "Boise", "state": "ID", "zip": "83702", "phone": "(208) 555-0199"}  # fmt: skip
MOVED_TO = {"street1": "9 Larkspur Court", "street2": "", "city": "Eagle", "zip": "83616"}
PAPERWORK = {"legal_name": "Quentin A. Zeppelinovich", "street_address": "27 Wisteria Lane",
             "city": "Boise", "region": "ID", "postal_code": "83702",
             "account_holder": "Quentin Zeppelinovich", "signed_name": "quentin a. zeppelinovich",
             "declaration_name": "Quentin A. Zeppelinovich"}  # fmt: skip
SIGNED_BY = "Q ZEPPELINOVICH"
PUBLIC_URL = "https://track.easypost.example/djE6dHJrXzVjMWUzNw"
# Everything above that is the seller's, as typed or as a carrier or provider writes it back.
SELLERS = ("Zeppelinovich", "quentin.z@example.org", "555-0199", "5550199", "83702", "Wisteria",
           "Boise", "Larkspur", "Eagle", "83616", "Meridian", "83642", "djE6dHJrXzVjMWUzNw",
           "easypost-files.example/labels", *SECRETS)  # fmt: skip


@pytest.fixture
def mail_app(make_app, easypost, mail_settings, object_storage):  # noqa: F811 (a fixture)
    """Selling by mail through the fake, with pickups, e-mail to the loopback SMTP server, and
    every file copied to a bucket of its own."""
    return make_app(**mailin_settings(easypost), **mail_settings, **object_storage.settings(),
                    MAILIN_PICKUPS="1", STAFF_EMAIL="desk@watches.example")  # fmt: skip


def scanned(parcel: dict, status: str, place: tuple[str, str, str], signed_by=None) -> dict:
    """A tracker.updated event as EasyPost sends it with everything a carrier tells: each scan's
    place, who signed, the route, the public tracking page."""
    event = tracking_event(parcel["tracking_code"], status)
    city, state, zip_code = place
    location = {"object": "TrackingLocation", "city": city, "state": state, "country": "US",
                "zip": zip_code}  # fmt: skip
    event["result"] |= {
        "signed_by": signed_by, "weight": 33.0, "public_url": PUBLIC_URL,
        "tracking_details": [{"status": status, "message": f"Scanned in {city}",
                              "datetime": "2026-11-27T10:00:00Z", "tracking_location": location}],
        "carrier_detail": {"origin_location": f"{city} {state} US {zip_code}",
                           "destination_location": "NEW YORK NY US 10002",
                           "origin_tracking_location": location},
    }  # fmt: skip
    return event


def move(app, parcel: dict, *steps) -> None:
    client = app.test_client()
    for step in steps:
        assert deliver(client, scanned(parcel, *step)).status_code == 200
        lead_work_done(app)


def sell_by_mail(app) -> tuple[int, str]:
    """The sell form, by mail, with a photo; the staff quote accepted on the status page, and a
    question asked there; (lead id, status token)."""
    client = app.test_client()
    assert post(client, SELLER, photos=[photo()]).status_code == 303
    lead_work_done(app)
    with app.app_context():
        lead_id = get_db().execute("SELECT max(id) FROM leads").fetchone()[0]
        until = (business_today() + timedelta(days=7)).isoformat()
        quote = {"amount_low": 8000, "amount_high": 9500, "valid_until": until}
        lifecycle.transition(lead_id, State.QUOTED, "staff:1", quote, State.NEW)
    token = give_token(app, lead_id)
    assert client.post(f"/status/{token}/quote", data=answer_data(client, token, "accept"))
    question = {"question": "Call me after 6 on 208-555-0199, Quentin Zeppelinovich"}
    client.post(f"/status/{token}/question", data=question | {"csrf_token": csrf(client, token)})
    lead_work_done(app)
    return lead_id, token


def label_with_new_address(app, smtp_server, lead_id: int, token: str) -> dict:
    """The seller's three steps, the label bought, then the return address changed from the
    link e-mailed to the seller, and a pickup booked for the new parcel; its row."""
    client = app.test_client()
    for response in (post_address(client, token, ADDRESS), post_id(client, token),
                     post_conditions(client, token)):  # fmt: skip
        assert response.status_code == 303
    with app.app_context():
        labels.buy_label(verify_id(lead_id))
    post_address(client, token, ADDRESS | MOVED_TO)
    lead_work_done(app)
    [message] = [m for m in smtp_server.messages
                 if ADDRESS_LINK.search(m.get_body(("plain",)).get_content())]  # fmt: skip
    path = ADDRESS_LINK.search(message.get_body(("plain",)).get_content()).group(1)
    seller = app.test_client()
    page = seller.get(path).get_data(as_text=True)
    csrf_token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert seller.post(path, data={"csrf_token": csrf_token}).status_code == 303
    lead_work_done(app)
    [*_, parcel] = parcels(app, lead_id, "inbound")
    with app.app_context():
        day = pickups.days_offered()[0].isoformat()
    client.post(f"/status/{token}/mail/pickup",
                data={"day": day, "csrf_token": csrf(client, token)})  # fmt: skip
    lead_work_done(app)
    return parcel


def mail_lead_with_everything(app, smtp_server, staff_on) -> int:  # noqa: F811 (a fixture)
    """The whole road by mail, to the paperwork, withdrawn and returned, with a claim on the
    return, and erased by staff; its id."""
    lead_id, token = sell_by_mail(app)
    inbound = label_with_new_address(app, smtp_server, lead_id, token)
    move(app, inbound, ("in_transit", ("Eagle", "ID", "83616")),
         ("delivered", ("New York", "NY", "10002"), "R DESK"))  # fmt: skip
    ana, staff = staff_on(app)
    path = f"/staff/leads/{lead_id}/arrival"
    page = staff.request(ana, "GET", path).get_data(as_text=True)
    arrival = {
        "weight_oz": "33",
        "seal": "intact",
        "serial": "7z41 k9q2",
        "note": "Box addressed in Quentin Zeppelinovich's hand",
        "csrf_token": re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1),
        "box_photos": [jpeg("box-1.jpg"), jpeg("box-2.jpg", 1)],
        "opening_photos": [jpeg("opening.jpg", 2)],
        "serial_photo": jpeg("serial.jpg", 3),
    }
    answer = staff.request(ana, "POST", path, data=arrival, content_type="multipart/form-data")
    assert answer.status_code == 303
    with app.app_context():
        with transaction() as db:  # authenticated, its serial checked clear by hand
            record.update(db, lead_id, FINDINGS | CLEAR_CHECK)
        offer = {"amount": 9100, "valid_until": "2099-01-01"}
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", offer, State.ACCEPTED)
    client = app.test_client()
    assert client.post(f"/status/{token}/offer", data=answer_data(client, token, "accept"))
    assert post_paperwork(client, token, PAPERWORK).status_code == 303
    lead_work_done(app)
    withdrawal = {"confirm": "yes", "csrf_token": csrf(client, token)}
    assert client.post(f"/status/{token}/withdraw", data=withdrawal).status_code == 303
    lead_work_done(app)
    [back] = parcels(app, lead_id, "return")
    move(app, back, ("in_transit", ("Meridian", "ID", "83642")),
         ("delivered", ("Boise", "ID", "83702"), SIGNED_BY))  # fmt: skip
    with app.app_context():
        note = "Zeppelinovich says the strap came back scratched; he lives at 27 Wisteria Lane"
        claims.open_claim(back["id"], "damaged", "INS-2026-0042", note, "staff:1")
        claims.settle(back["id"], "refused", None, "staff:2")
        reference = store.get_lead(lead_id)["reference"]
    erase = f"/staff/leads/{lead_id}/erase"
    answer = post_form(staff, ana, erase, erase, "erase", {"reference": reference})
    assert answer.status_code == 303
    lead_work_done(app)
    return lead_id


def texts_of(path: Path) -> list[tuple[str, str, str]]:
    """Every value of every column of every table in the database at `path`, as text: (table,
    column, value)."""
    db = sqlite3.connect(path)
    found = []
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        cursor = db.execute(f'SELECT * FROM "{table}"')
        columns = [column[0] for column in cursor.description]
        for row in cursor:
            for column, value in zip(columns, row, strict=True):
                if value is not None:
                    text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
                    found.append((table, column, text))
    db.close()
    return found


def sellers_in(text: str) -> list[str]:
    return [word for word in SELLERS if word.lower() in text.lower()]


def assert_nothing_of_the_sellers(app, object_storage) -> None:  # noqa: F811 (a fixture)
    """No text of the seller's in any column of leads.db, nor in its file or WAL; no column
    naming a last 4 digits left filled; no file in the private storage; nothing in the
    bucket's files, and nothing of theirs in its record of erasures."""
    database = Path(app.config["LEADS_DB"])
    texts = texts_of(database)
    assert [(table, column, sellers_in(text)) for table, column, text in texts
            if sellers_in(text)] == []  # fmt: skip
    assert [(table, column) for table, column, _ in texts if "last4" in column] == []
    for path in (database, database.with_name("leads.db-wal")):
        raw = path.read_bytes().lower() if path.exists() else b""
        assert [word for word in SELLERS if word.lower().encode() in raw] == [], path.name
    with app.app_context():
        assert [path for path in storage.storage_dir().rglob("*") if path.is_file()] == []
        entries = [entry.decode() for entry in objects.erasure_entries()]
    bucket = app.config["REPLICA_URL"].removeprefix("s3://").split("/")[0]
    assert object_storage.keys(bucket, "watchbuyers/files/") == []
    assert entries and [sellers_in(entry) for entry in entries if sellers_in(entry)] == []


def test_an_erased_sale_by_mail_leaves_nothing_of_the_seller_anywhere(
    mail_app,
    smtp_server,
    staff_on,
    object_storage,  # noqa: F811 (fixtures)
):
    lead_id = mail_lead_with_everything(mail_app, smtp_server, staff_on)
    with mail_app.app_context():
        assert store.get_lead(lead_id)["erased_at"]
    assert_nothing_of_the_sellers(mail_app, object_storage)


def bought_and_erased_at_its_end(app) -> int:
    """A sale in person with everything: the sell form, the appointment's place, the paperwork
    paid into an account in another's name (an exception, approved with its reason), the
    account confirmed by a call-back, the documents; its seller's erasure, and years later the
    purchase record's own; the lead's id."""
    app.config["MAILIN_ENABLED"] = False
    client = app.test_client()
    in_person = {key: SELLER[key] for key in ("fullName", "email", "phone", "additionalDetails")}
    assert post(client, in_person, photos=[photo()]).status_code == 303
    lead_work_done(app)
    with app.app_context():
        lead_id = get_db().execute("SELECT max(id) FROM leads").fetchone()[0]
        place = APPOINTMENT | {"place": "At his home, 27 Wisteria Lane"}
        move_through(lead_id, "new", [("quoted", QUOTE), ("accepted", {"via": "phone"}),
                                      ("appointment", place)])  # fmt: skip
        authentication.record_findings(lead_id, "staff:1", PAPERWORK_FINDINGS)
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", OFFER, State.APPOINTMENT)
    token = give_token(app, lead_id)
    assert client.post(f"/status/{token}/offer", data=answer_data(client, token, "accept"))
    spouse = {"account_holder": "Marta Zeppelinovich"}
    assert post_paperwork(client, token, PAPERWORK | spouse).status_code == 303
    lead_work_done(app)
    with app.app_context():
        subject = payout.holder_subject(record.get(lead_id))
        reason = "The account is his wife Marta Zeppelinovich's; she confirmed it by phone"
        approvals.ask(lead_id, "holder_name", subject, reason, "staff:1")
        approvals.approve(lead_id, approvals.of_lead(lead_id)[0]["id"], "staff:2")
        payout.record_callback(lead_id, "staff:1", SELLER["phone"])
        with transaction() as db:
            record.update(db, lead_id, {"id_verified_by": "staff:1", "id_verified_at": now()}
                          | CLEAR_CHECK)  # fmt: skip
        paid = {"amount": OFFER["amount"], "paid_on": business_today().isoformat()} | PAYMENT
        lifecycle.transition(lead_id, State.BOUGHT, "staff:1", paid, State.AGREED)
    lead_work_done(app)
    with app.app_context():
        erasure.erase_sale(lead_id, "seller")
        with transaction() as db:
            yesterday = (business_today() - timedelta(days=1)).isoformat()
            record.update(db, lead_id, {"retain_until": yesterday})
        jobs.apply_retention()
    lead_work_done(app)
    return lead_id


def test_a_purchase_record_erased_at_its_end_leaves_nothing_of_the_seller_anywhere(
    mail_app,
    object_storage,  # noqa: F811 (a fixture)
):
    lead_id = bought_and_erased_at_its_end(mail_app)
    with mail_app.app_context():
        assert record.get(lead_id)["record_erased_at"]
    assert_nothing_of_the_sellers(mail_app, object_storage)
