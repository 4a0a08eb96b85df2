"""The purchase record's foundations: its keys, its encrypted files, the dates a
payment sets, the checks `bought` waits for, and the dashboard step a migration adds."""

from __future__ import annotations

import sqlite3
from datetime import date

import pytest
from cryptography.fernet import InvalidToken

from app.leads import history, schema, store
from app.leads.db import transaction
from app.sale import lifecycle
from app.sale.purchase import checklist, crypto, files, record
from tests.helpers import (
    PAYMENT,
    business_today,
    database_at_version,
    fill_purchase_record,
    put_purchase_on_record,
    save_sample_lead,
)

ACCOUNT = "000123456789"


def test_encrypted_values_need_the_purchase_key_and_hold_no_plain_text(make_app):
    place = crypto.column_place(1, "account_number_enc")
    app = make_app(PURCHASE_DATA_KEY="a" * 40)
    with app.app_context():
        token = crypto.encrypt(ACCOUNT, place)
        assert ACCOUNT not in token
        assert crypto.decrypt(token, place) == ACCOUNT
    with make_app(PURCHASE_DATA_KEY="b" * 40).app_context(), pytest.raises(InvalidToken):
        crypto.decrypt(token, place)


def test_a_new_key_in_front_still_reads_the_old_and_rotation_moves_values_to_it(make_app):
    place = crypto.column_place(1, "account_number_enc")
    with make_app(PURCHASE_DATA_KEY="old" * 12).app_context():
        old_token = crypto.encrypt(ACCOUNT, place)
    with make_app(PURCHASE_DATA_KEY="new" * 12 + "," + "old" * 12).app_context():
        assert crypto.decrypt(old_token, place) == ACCOUNT
        rotated = crypto.rotate(old_token, place)
    with make_app(PURCHASE_DATA_KEY="new" * 12).app_context():
        assert crypto.decrypt(rotated, place) == ACCOUNT
        with pytest.raises(InvalidToken):
            crypto.decrypt(old_token, place)


def test_purchase_files_are_encrypted_on_disk_and_open_only_through_their_own_lead(app):
    first, second = save_sample_lead(app), save_sample_lead(app)
    secret = b"%PDF-1.7 the seller's passport scan"
    with app.app_context():
        with transaction() as db:
            row = files.add_file(db, first, "id_front", secret, "image/jpeg")
        on_disk = (files.files_dir() / row["file_name"]).read_bytes()
        assert secret not in on_disk and b"passport" not in on_disk
        assert files.read(files.file_of(first, row["public_id"])) == secret
        assert files.file_of(second, row["public_id"]) is None
        assert oct(files.files_dir().stat().st_mode & 0o777) == "0o700"


def test_each_new_file_of_a_kind_is_the_next_version_and_the_old_one_stays(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        for text in (b"first", b"second"):
            with transaction() as db:
                files.add_file(db, lead_id, "receipt", text, "application/pdf")
        versions = [row["version"] for row in files.files_of(lead_id, ("receipt",))]
        assert versions == [1, 2]
        assert files.read(files.latest(lead_id, "receipt")) == b"second"


def test_a_payment_sets_the_hold_and_the_retention_from_the_settings(make_app):
    app = make_app(PURCHASE_HOLD_DAYS="20", PURCHASE_RETENTION_YEARS="5")
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id, 9100, signed_on=date(2024, 2, 29))
        data = {"amount": 9100, "paid_on": "2024-02-29"} | PAYMENT
        lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        purchase = record.get(lead_id)
    assert purchase["paid_amount"] == 9100
    assert purchase["bank_confirmation"] == PAYMENT["confirmation"]
    assert purchase["paid_recorded_by"] == "staff:1"
    assert purchase["hold_ends_on"] == "2024-03-20"
    assert purchase["retain_until"] == "2029-02-28"  # no 29 February in 2029


@pytest.mark.parametrize(
    "item, column, value",
    [
        ("the seller's signed paperwork", "signed_at", None),
        ("the seller's bank details", "account_number_enc", None),
        ("an ID check by staff", "id_verified_at", None),
        ("a clear stolen-watch register check", "register_result", "flagged"),
    ],
)
def test_bought_is_refused_naming_what_the_record_lacks_and_nothing_changes(
    app, item, column, value
):
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            record.update(db, lead_id, {column: value})
        data = {"amount": 9100, "paid_on": business_today().isoformat()} | PAYMENT
        with pytest.raises(lifecycle.MissingDetails, match="Bought needs first") as refused:
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        assert str(refused.value).count(";") == 0 and item in str(refused.value)
        assert store.get_lead(lead_id)["state"] == "agreed"
        assert record.get(lead_id)["paid_amount"] is None


def test_the_final_offer_is_refused_until_the_serial_number_is_recorded(app):
    lead_id = save_sample_lead(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET state = 'appointment' WHERE id = ?", (lead_id,))
    offer = {"amount": 9100, "valid_until": "2026-12-10"}
    with app.app_context():
        with pytest.raises(lifecycle.MissingDetails, match="serial number"):
            lifecycle.transition(lead_id, "offered", "staff:1", offer, "appointment")
        fill_purchase_record(lead_id)
        lifecycle.transition(lead_id, "offered", "staff:1", offer, "appointment")
        assert store.get_lead(lead_id)["state"] == "offered"


def test_every_missing_item_is_named_when_nothing_is_on_record(app):
    with app.app_context():  # the register asked by hand: a check's age is staff's to judge
        assert checklist.missing(None, checklist.BEFORE_PURCHASE) == [
            words for item, words in checklist.BEFORE_PURCHASE if item != "register_recent"
        ]
        app.config["REGISTER_API_URL"] = "https://api.register.example/v1"
        assert checklist.missing(None, checklist.BEFORE_PURCHASE) == [
            words for _, words in checklist.BEFORE_PURCHASE
        ]


def test_a_dashboard_from_before_agreed_counts_its_purchases_past_the_new_step(tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 17)  # the step before the purchase on record's
    db.execute(
        "INSERT INTO leads (id, full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at) "
        "VALUES (1, 'A', 'a@b.c', '1', 'Rolex', 'Good', 0, 0, 'form', 'e1', '2025-01-01')"
    )
    db.execute("INSERT INTO lead_progress (lead_id, furthest) VALUES (1, 6)")
    db.commit()
    schema.migrate(db)
    (furthest,) = db.execute("SELECT furthest FROM lead_progress WHERE lead_id = 1").fetchone()
    assert furthest == 7
    db.close()
    with sqlite3.connect(path) as fresh:
        assert fresh.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION


def test_closing_an_accepted_offer_discards_the_paperwork_and_keeps_the_findings(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            photo = files.add_file(db, lead_id, "id_front", b"an ID", "image/jpeg")
        lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "agreed")
        purchase = record.get(lead_id)
        assert purchase["serial_number"] == "7Z41K9Q2"  # the watch's findings stay
        assert all(purchase[column] is None for column in record.PAPERWORK_COLUMNS)
        assert files.files_of(lead_id, files.ID_PHOTOS) == []
        assert not (files.files_dir() / photo["file_name"]).exists()
        kinds = [event["kind"] for event in history.lead_events(lead_id)]
        assert kinds[-2:] == ["paperwork_discarded", "state_changed"]  # in one transaction
