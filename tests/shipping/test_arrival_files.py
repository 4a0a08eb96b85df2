"""The arrival's photos and video are purchase files: readable by signed-in staff through the
lead they belong to (audited, never stored by a browser), erased with the lead, and kept
across the schema step that lets purchase_files hold them. The seller's status page shows the
parcel's progress in plain words, without its tracking number."""

from __future__ import annotations

import pytest

from app.leads import audit
from app.leads.db import get_db, transaction
from app.leads.state import State
from app.sale import erasure, lifecycle
from app.sale.purchase import files
from app.shipping import arrival, labels, tracking
from tests.helpers import database_at_version, give_token, lead_work_done
from tests.shipping.deal_steps import delivered_deal, mail_deal, move, post_arrival
from tests.shipping.fake_easypost import label_url
from tests.shipping.steps import mailin_settings
from tests.staff import conftest as staff_fixtures

# The staff area's fixtures: an enrolled account, signed in with both factors.
staff, account, signed_in = (
    staff_fixtures.staff,
    staff_fixtures.account,
    staff_fixtures.signed_in,
)


@pytest.fixture(autouse=True)
def selling_by_mail(app, easypost):
    app.config.update(mailin_settings(easypost) | {"MAILIN_ENABLED": True,
                                                   "MAILIN_MAX_VALUE": 25000,
                                                   "EASYPOST_TIMEOUT": 1})  # fmt: skip
    app.extensions.pop("easypost", None)


def opened_deal(app, staff, client) -> tuple[dict, list[dict]]:
    """A parcel delivered and opened on record; the parcel and its files' rows."""
    parcel = delivered_deal(app)
    assert post_arrival(staff, client, parcel["lead_id"]).status_code == 303
    with app.app_context():
        return parcel, arrival.arrival_files(arrival.arrival_of(parcel["id"]))


def test_the_files_open_only_for_signed_in_staff_through_their_own_lead(
    app,
    staff,
    signed_in,
):
    parcel, kept = opened_deal(app, staff, signed_in)
    other = mail_deal(app)["lead_id"]
    path = f"/staff/leads/{parcel['lead_id']}/purchase-files/{kept[0]['public_id']}"
    signed_out = app.test_client().get(path)
    assert signed_out.status_code == 303 and "/staff/login" in signed_out.headers["Location"]
    elsewhere = f"/staff/leads/{other}/purchase-files/{kept[0]['public_id']}"
    assert signed_in.get(elsewhere).status_code == 404
    answer = signed_in.get(path)
    assert answer.status_code == 200 and answer.mimetype == "image/jpeg"
    assert answer.headers["Cache-Control"] == "private, no-store"
    with app.app_context():
        assert answer.data == files.read(kept[0])
        viewed = [e for e in audit.entries() if e["action"] == "purchase_file_viewed"]
    assert viewed[-1]["data"]["kind"] == "arrival_box"
    assert viewed[-1]["lead_id"] == parcel["lead_id"]
    assert app.test_client().get(f"/staff/leads/{parcel['lead_id']}/arrival").status_code == 303


def test_erasing_the_lead_removes_the_arrival_files_and_their_copies(app, staff, signed_in):
    parcel, kept = opened_deal(app, staff, signed_in)
    lead_id = parcel["lead_id"]
    with app.app_context():
        lifecycle.transition(lead_id, State.CLOSED, "staff:1", {"reason": "seller_declined"},
                             State.ACCEPTED)  # fmt: skip
        back = labels.open_shipment(lead_id, "return", parcel["deal_event_id"],
                                    parcel["insured_value"], "adr_seller_1")  # fmt: skip
        with transaction() as db:  # back with its seller: nothing keeps the lead now
            tracking.apply_status(db, labels.get(back), "delivered")
        erasure.erase(lead_id, "staff:1")
        rows = (
            get_db()
            .execute("SELECT count(*) FROM purchase_files WHERE lead_id = ?", (lead_id,))
            .fetchone()[0]
        )
        gone = {row["name"]: row["gone"] for row in get_db().execute("SELECT * FROM file_copies")}
        left = [row for row in kept if (files.files_dir() / row["file_name"]).exists()]
        opened = arrival.arrival_of(parcel["id"])
    lead_work_done(app)
    assert rows == 0 and left == []
    assert all(gone[f"purchases/{row['file_name']}"] == 1 for row in kept)
    assert opened["serial"] == "7Z41 K9Q2"  # the watch's record stays; its pictures went
    page = signed_in.get(f"/staff/leads/{lead_id}/arrival").get_data(as_text=True)
    assert "no longer kept" in page


def test_the_schema_step_keeps_every_purchase_file_and_its_replica_triggers(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 32)
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, reference) VALUES ('A', 'a@example.com', "
        "'1', 'Omega', 'Good', 0, 0, 'USA Website', 'e', '2025-01-01T00:00:00', 'USWB-AAAAAA')"
    )
    db.execute(
        "INSERT INTO purchase_files (lead_id, kind, public_id, file_name, media_type, sha256, "
        "created_at, sealed) VALUES (1, 'receipt', 'pub-1', 'old.bin', 'application/pdf', 'h', "
        "'2025-01-02T00:00:00', 1)"
    )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)  # migrated as the app starts
    with app.app_context():
        db = get_db()
        [kept] = db.execute("SELECT * FROM purchase_files").fetchall()
        db.execute(
            "INSERT INTO purchase_files (lead_id, kind, public_id, file_name, media_type, "
            "sha256, created_at, sealed) VALUES (1, 'arrival_box', 'pub-2', 'new.bin', "
            "'image/jpeg', 'h', '2026-11-27T00:00:00', 1)"
        )
        db.execute("DELETE FROM purchase_files WHERE public_id = 'pub-1'")
        copies = {row["name"]: row["gone"] for row in db.execute("SELECT * FROM file_copies")}
        with pytest.raises(Exception, match="CHECK"):
            db.execute(
                "INSERT INTO purchase_files (lead_id, kind, public_id, file_name, media_type, "
                "sha256, created_at) VALUES (1, 'selfie', 'pub-3', 'x.bin', 'image/jpeg', 'h', "
                "'2026-11-27T00:00:00')"
            )
        db.rollback()
    assert (kept["kind"], kept["sealed"], kept["file_name"]) == ("receipt", 1, "old.bin")
    assert copies == {"purchases/old.bin": 1, "purchases/new.bin": 0}


def test_the_status_page_follows_the_parcel_in_plain_words(app, staff, signed_in):
    parcel = mail_deal(app)
    token = give_token(app, parcel["lead_id"])
    client = app.test_client()
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert 'data-parcel-step="current"' in page and "Label ready" in page
    assert "Sent by insured mail" in page and "Received by us" in page
    assert ">Appointment<" not in page and parcel["tracking_code"] not in page
    move(app, parcel, "in_transit")
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "covered by our shipping policy from its first scan" in page
    assert page.count('data-parcel-step="done"') == 1
    move(app, parcel, "delivered")
    assert post_arrival(staff, signed_in, parcel["lead_id"]).status_code == 303
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert page.count('data-parcel-step="done"') == 4 and "Authentication comes next" in page
    assert parcel["tracking_code"] not in page
    assert label_url(parcel["provider_shipment_id"]) not in page


def test_without_the_sale_by_mail_the_status_page_shows_no_parcel(app, staff, signed_in):
    parcel = mail_deal(app)
    app.config["MAILIN_ENABLED"] = False
    token = give_token(app, parcel["lead_id"])
    page = app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "data-parcel" not in page
    assert signed_in.get(f"/staff/leads/{parcel['lead_id']}/arrival").status_code == 404
