"""What erasures left in leads.db before step 40 of the schema, gone: from the leads already
erased, by the step itself; from the others, by their erasure when it comes."""

from __future__ import annotations

import json
import sqlite3

import pytest

from app.leads import history
from app.leads.db import get_db, transaction
from app.sale import erasure
from tests.helpers import database_at_version

BEFORE = 39  # the schema's steps before the one that drops the leftovers


def old_lead(db: sqlite3.Connection, reference: str, erased: bool, state: str = "closed") -> int:
    """A lead of a sale by mail as the release before kept it, closed (or `state`), erased or
    not, with the event of its confirmed return address naming the ZIP code; its id."""
    lead_id = db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, reference, state, erased_at) "
        "VALUES (?, ?, '2085550199', 'Omega', 'Good', 0, 0, 'USA Website', ?, "
        "'2026-01-05T10:00:00+00:00', ?, ?, ?)",
        ("" if erased else "Quentin Zeppelinovich", "" if erased else "q@example.org",
         f"event-{reference}", reference, state,
         "2026-02-01T10:00:00+00:00" if erased else None),
    ).lastrowid  # fmt: skip
    db.execute(
        "INSERT INTO lead_events (lead_id, at, actor, kind, data) VALUES "
        "(?, '2026-01-06T10:00:00+00:00', 'seller', 'return_address_confirmed', ?)",
        (lead_id, json.dumps({"zip": "83702"})),
    )
    db.execute(
        "INSERT INTO lead_events (lead_id, at, actor, kind, data) VALUES (?, "
        "'2026-01-07T10:00:00+00:00', 'seller', 'state_changed', ?)",
        (lead_id, json.dumps({"from": "accepted", "to": "closed", "reason": "withdrawn"})),
    )
    return lead_id


def old_parcel(db: sqlite3.Connection, lead_id: int) -> int:
    """The lead's inbound parcel with its label bought, as the release before kept it; its id."""
    return db.execute(
        "INSERT INTO shipments (lead_id, leg, deal_event_id, state, insured_value, policy, "
        "from_address_id, tracking_code, label_url, created_at, updated_at) VALUES (?, "
        "'inbound', 1, 'received', 9500, 'HV-1', 'adr_1', ?, ?, '2026-01-08T10:00:00+00:00', "
        "'2026-01-09T10:00:00+00:00')",
        (lead_id, f"1Z999AA1{lead_id:010d}", f"https://files.example/labels/{lead_id}.png"),
    ).lastrowid


def events_of(lead_id: int, kind: str) -> list[dict]:
    return [event["data"] for event in history.lead_events(lead_id) if event["kind"] == kind]


def test_the_zip_code_an_address_event_carried_goes_from_every_erased_lead(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, BEFORE)
    erased, kept = old_lead(db, "USWB-ERASED", True), old_lead(db, "USWB-LIVE01", False)
    db.commit()
    db.close()

    app = make_app(LEADS_DB=path)  # migrated as the app starts

    with app.app_context():
        assert events_of(erased, "return_address_confirmed") == [{}]
        assert events_of(kept, "return_address_confirmed") == [{"zip": "83702"}]
        erasure.erase(kept, "staff:1")
        assert events_of(kept, "return_address_confirmed") == [{}]
        assert b"83702" not in b"".join(
            row[0].encode() for row in get_db().execute("SELECT data FROM lead_events")
        )


def test_no_labels_image_is_kept_for_any_lead_erased_or_not(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, BEFORE)
    for lead_id in (old_lead(db, "USWB-ERASED", True), old_lead(db, "USWB-LIVE01", False)):
        old_parcel(db, lead_id)
    db.commit()
    db.close()

    app = make_app(LEADS_DB=path)

    with app.app_context():
        parcels = [dict(row) for row in get_db().execute("SELECT * FROM shipments")]
    assert len(parcels) == 2 and all(parcel["tracking_code"] for parcel in parcels)
    assert [parcel for parcel in parcels if "label_url" in parcel] == []


def test_every_stored_tracking_event_keeps_only_what_its_job_reads(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, BEFORE)
    tracker = {"id": "trk_1", "object": "Tracker", "tracking_code": "1Z999AA10000000001",
               "status": "delivered", "weight": 33.5, "signed_by": "Q ZEPPELINOVICH",
               "tracking_details": [{"tracking_location": {"city": "BOISE", "zip": "83702"}}],
               "public_url": "https://track.easypost.example/djE6dHJr"}  # fmt: skip
    for number, result in enumerate((tracker, "not a tracker"), 1):
        event = {"id": f"evt_{number}", "description": "tracker.updated", "mode": "production",
                 "result": result}  # fmt: skip
        db.execute(
            "INSERT INTO shipment_events (provider_event_id, description, tracking_code, status, "
            "body, received_at) VALUES (?, 'tracker.updated', '1Z999AA10000000001', 'delivered', "
            "?, '2026-01-09T10:00:00+00:00')",
            (event["id"], json.dumps(event)),
        )
    db.commit()
    db.close()

    app = make_app(LEADS_DB=path)

    with app.app_context():
        rows = get_db().execute("SELECT body FROM shipment_events ORDER BY id").fetchall()
    assert [json.loads(row["body"]) for row in rows] == [
        {"id": "evt_1", "description": "tracker.updated", "mode": "production",
         "result": {"id": "trk_1", "object": "Tracker", "tracking_code": "1Z999AA10000000001",
                    "status": "delivered", "weight": 33.5}},
        {"id": "evt_2", "description": "tracker.updated", "mode": "production", "result": {}},
    ]  # fmt: skip


def test_a_claims_note_goes_from_every_erased_lead_and_the_claims_stay_as_settled(
    make_app, tmp_path
):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, BEFORE)
    for reference, erased in (("USWB-ERASED", True), ("USWB-LIVE01", False)):
        parcel = old_parcel(db, old_lead(db, reference, erased))
        db.execute(
            "INSERT INTO shipment_claims (shipment_id, kind, state, insurer_reference, note, "
            "opened_by, opened_at, settled_by, settled_at) VALUES (?, 'damaged', 'refused', "
            "?, 'Zeppelinovich says the strap was scratched', 'staff:1', "
            "'2026-01-10T10:00:00+00:00', 'staff:2', '2026-01-20T10:00:00+00:00')",
            (parcel, f"CLM-{reference}"),
        )
    db.commit()
    db.close()

    app = make_app(LEADS_DB=path)

    with app.app_context():
        rows = get_db().execute("SELECT * FROM shipment_claims ORDER BY id").fetchall()
        assert [(row["insurer_reference"], row["note"], row["state"]) for row in rows] == [
            ("CLM-USWB-ERASED", "", "refused"),
            ("CLM-USWB-LIVE01", "Zeppelinovich says the strap was scratched", "refused"),
        ]
        for change in ("state = 'open', settled_by = NULL, settled_at = NULL", "note = ''"):
            with pytest.raises(sqlite3.IntegrityError), transaction() as db:
                db.execute(f"UPDATE shipment_claims SET {change} WHERE id = 2")


def test_payout_checks_and_exceptions_reasons_go_from_erased_closed_leads_and_records_erased(
    make_app, tmp_path
):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, BEFORE)
    leads = {
        "closed, erased": old_lead(db, "USWB-CLOSED", True),
        "closed": old_lead(db, "USWB-LIVE01", False),
        "bought, erased keeping its record": old_lead(db, "USWB-KEPT01", True, "bought"),
        "bought, its record erased too": old_lead(db, "USWB-WHOLE1", True, "bought"),
    }
    for name, lead_id in leads.items():
        db.execute("INSERT INTO purchases (lead_id, record_erased_at) VALUES (?, ?)",
                   (lead_id, "2026-03-01" if lead_id == leads["bought, its record erased too"]
                    else None))  # fmt: skip
        db.execute(
            "INSERT INTO payout_checks (lead_id, account_last4, asked_at) VALUES (?, '6789', "
            "'2026-01-11T10:00:00+00:00')",
            (lead_id,),
        )
        if name.startswith("bought"):  # a closed lead's erasure always dropped its approvals
            db.execute(
                "INSERT INTO approvals (lead_id, kind, subject, reason, requested_by, "
                "requested_at, approved_by, approved_at) VALUES (?, 'holder_name', 'c0ffee', "
                "'His wife Marta', 'staff:1', '2026-01-11T10:00:00+00:00', 'staff:2', "
                "'2026-01-11T11:00:00+00:00')",
                (lead_id,),
            )
    db.commit()
    db.close()

    app = make_app(LEADS_DB=path)

    with app.app_context():
        kept = {row[0] for row in get_db().execute("SELECT lead_id FROM payout_checks")}
        reasons = {row["lead_id"]: (row["reason"], row["subject"], row["approved_by"])
                   for row in get_db().execute("SELECT * FROM approvals")}  # fmt: skip
    assert {name for name, lead_id in leads.items() if lead_id in kept} == {
        "closed", "bought, erased keeping its record"
    }  # fmt: skip
    assert {name: reasons.get(lead_id) for name, lead_id in leads.items()} == {
        "closed, erased": None, "closed": None,
        "bought, erased keeping its record": ("His wife Marta", "c0ffee", "staff:2"),
        "bought, its record erased too": ("", "", "staff:2"),
    }  # fmt: skip
