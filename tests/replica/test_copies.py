"""Every private file copied to the replica by the job that writes it, encrypted there with
this deployment's key; the debt on record until it is paid; and the copies deleted with what
they copy."""

from __future__ import annotations

import base64

from app.leads import storage
from app.leads.db import transaction
from app.replica import copies, objects
from app.sale import erasure, lifecycle, pending, retention
from app.sale.purchase import files
from tests.helpers import buy_lead, lead_work_done, save_sample_lead, wait_until
from tests.replica.steps import (
    bucket_of,
    copy_rows,
    md5_of,
    owed_long_ago,
    replica_holds_everything,
    replicating,
    sent_encryption,
    storage_back,
    submit_with_photos,
)


def test_a_processed_photo_and_its_thumbnail_are_copied_by_the_photo_job(
    replica_app, object_storage
):
    lead_id = submit_with_photos(replica_app, count=2)
    rows = copy_rows(replica_app)
    assert len(rows) == 4 and all(row["lead_id"] == lead_id for row in rows)
    assert all(row["copied_at"] and not row["gone"] for row in rows)
    held = object_storage.keys(bucket_of(replica_app), "watchbuyers/files/")
    assert held == [f"watchbuyers/files/{row['name']}" for row in rows]
    with replica_app.app_context():
        local = storage.storage_dir() / rows[0]["name"]
        key = base64.b64decode(replica_app.config["REPLICA_ENCRYPTION_KEY"])
        stored = object_storage.client().get_object(
            Bucket=bucket_of(replica_app), Key=held[0],
            SSECustomerAlgorithm="AES256", SSECustomerKey=key,
        )["Body"].read()  # fmt: skip
    assert stored == local.read_bytes()


def test_every_object_is_written_with_this_deployments_key(replica_app, object_storage):
    object_storage.start_recording()
    submit_with_photos(replica_app, count=1)
    puts = [r for r in object_storage.recorded() if r["method"] == "PUT" and "/files/" in r["url"]]
    assert len(puts) == 2
    key = base64.b64decode(replica_app.config["REPLICA_ENCRYPTION_KEY"])
    for request in puts:
        assert sent_encryption(request) == ("AES256", md5_of(key))


def test_a_copy_the_storage_refuses_stays_owed_and_the_requeue_pays_it(
    make_app, replica_settings, object_storage
):
    nowhere = {"REPLICA_ENDPOINT": "http://127.0.0.1:9"}  # nothing listens there
    down = make_app(**replica_settings | nowhere)
    lead_id = submit_with_photos(down, count=1)
    rows = copy_rows(down)
    assert rows and all(row["copied_at"] is None for row in rows)
    assert "Could not connect" in rows[0]["last_error"] and rows[0]["attempts"] == 1
    assert [row["attempts"] for row in rows[1:]] == [0]  # the rest wait: the storage rests

    with down.app_context():
        assert copies.leads_owing() == [lead_id]
    storage_back(down, replica_settings)
    result = down.test_cli_runner().invoke(args=["leads", "requeue"])
    assert f"Queued the replica copies of lead #{lead_id}'s files." in result.output
    lead_work_done(down)
    assert all(row["copied_at"] and row["attempts"] == 0 for row in copy_rows(down))
    assert len(object_storage.keys(bucket_of(down), "watchbuyers/files/")) == len(rows)


def test_an_erasure_deletes_the_copies_too(replica_app, object_storage):
    lead_id = submit_with_photos(replica_app, count=1)
    bucket = bucket_of(replica_app)
    assert object_storage.keys(bucket, "watchbuyers/files/")
    with replica_app.app_context():
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "withdrawn"}, "new")
        erasure.erase(lead_id, "staff:1")
    lead_work_done(replica_app)
    assert object_storage.keys(bucket, "watchbuyers/files/") == []
    assert copy_rows(replica_app) == []


def test_a_bought_leads_erasure_deletes_the_copies_of_its_photos_and_id_then_at_its_end_all(
    replica_app, object_storage
):
    lead_id = submit_with_photos(replica_app, count=1)
    with replica_app.app_context(), transaction() as db:
        id_photo = files.add_file(db, lead_id, "id_front", b"\xff\xd8 an ID", "image/jpeg")
    buy_lead(replica_app, lead_id)
    lead_work_done(replica_app)  # the bill of sale and the receipt made, every copy made
    bucket = bucket_of(replica_app)
    held = set(object_storage.keys(bucket, "watchbuyers/files/"))
    assert f"watchbuyers/files/purchases/{id_photo['file_name']}" in held and len(held) == 5
    with replica_app.app_context():
        erasure.erase_sale(lead_id, "seller")
    lead_work_done(replica_app)
    kept = object_storage.keys(bucket, "watchbuyers/files/")
    with replica_app.app_context():
        documents = files.files_of(lead_id, ("bill_of_sale", "receipt"))
    assert kept == sorted(f"watchbuyers/files/purchases/{row['file_name']}" for row in documents)
    assert len(kept) == 2 and not any(row["gone"] for row in copy_rows(replica_app))

    with replica_app.app_context():  # years later, the record's end: its documents go too
        with transaction() as db:
            db.execute("UPDATE purchases SET retain_until = '2000-01-01' WHERE lead_id = ?",
                       (lead_id,))  # fmt: skip
        retention.apply_rules()
    lead_work_done(replica_app)
    assert object_storage.keys(bucket, "watchbuyers/files/") == [] and copy_rows(replica_app) == []


def test_a_copy_uploaded_while_the_lead_is_erased_is_deleted_again(
    replica_app, object_storage, monkeypatch
):
    lead_id = submit_with_photos(replica_app, count=1)
    with replica_app.app_context():
        copies.owe_every_copy_again()  # a copy in flight, not yet tried (copy-all, a new key)
    upload = objects.put_file

    def erased_during_the_upload(name, path):
        upload(name, path)
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "withdrawn"}, "new")
        erasure.erase(lead_id, "staff:1")  # marks the files gone; its own copy job runs here

    monkeypatch.setattr(objects, "put_file", erased_during_the_upload)
    with replica_app.app_context():
        copies.sync_lead(lead_id)
    lead_work_done(replica_app)  # the erasure's own copy job, in-process
    assert object_storage.keys(bucket_of(replica_app), "watchbuyers/files/") == []
    assert copy_rows(replica_app) == []


def test_without_a_replica_the_debt_is_kept_but_nothing_is_queued(app):
    lead_id = submit_with_photos(app, count=1)
    rows = copy_rows(app)
    assert rows and all(row["copied_at"] is None and row["attempts"] == 0 for row in rows)
    with app.app_context():
        assert copies.leads_owing() == []
        assert copies.sync_lead(lead_id).copied == []


def test_the_database_records_each_purchase_files_copy_as_owed_and_again_when_resealed(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        with transaction() as db:
            row = files.add_file(db, lead_id, "bill_of_sale", b"%PDF-1.7 bill", "application/pdf")
        name = f"purchases/{row['file_name']}"
        assert [(r["name"], r["copied_at"]) for r in copy_rows(app)] == [(name, None)]
        with transaction() as db:
            db.execute("UPDATE file_copies SET copied_at = '2026-11-26T07:00:00+00:00'")
            db.execute("UPDATE purchase_files SET sealed = 1 WHERE id = ?", (row["id"],))
        assert copy_rows(app)[0]["copied_at"] is None  # key rotation rewrote it: copy it again
        with transaction() as db:
            files.remove(db, lead_id, ("bill_of_sale",))
        assert copy_rows(app)[0]["gone"] == 1  # its copy is owed a deletion


def test_the_start_up_sweep_catches_up_copies_a_crash_left_owed(
    make_app, replica_settings, object_storage
):
    crashed = make_app(**replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"})
    lead_id = submit_with_photos(crashed, count=1)
    owed_long_ago(crashed)  # since before the process started
    storage_back(crashed, replica_settings)
    with crashed.app_context():
        assert pending.sweep().file_copies == [lead_id]  # the lead's copy job
    lead_work_done(crashed)
    assert all(row["copied_at"] for row in copy_rows(crashed))
    assert len(object_storage.keys(bucket_of(crashed), "watchbuyers/files/")) == 2
    assert copy_rows(crashed)[0]["lead_id"] == lead_id


def test_a_storage_that_failed_rests_a_minute_for_every_process(make_app, replica_settings):
    nowhere = replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"}
    first = make_app(**nowhere)
    lead_id = submit_with_photos(first, count=1)
    other = make_app(**nowhere | {"LEADS_DB": first.config["LEADS_DB"]})  # RQ's next job
    with other.app_context():
        assert objects.resting()
        done = copies.sync_lead(lead_id)
    assert "failed within the last minute" in next(iter(done.failed.values()))
    assert sum(row["attempts"] for row in copy_rows(first)) == 1  # nothing more was tried


def test_every_file_is_copied_again_under_a_new_key(replica_app, object_storage):
    submit_with_photos(replica_app, count=1)
    replica_app.config["REPLICA_ENCRYPTION_KEY"] = base64.b64encode(b"n" * 32).decode()
    object_storage.start_recording()
    result = replica_app.test_cli_runner().invoke(args=["leads", "replication", "copy-all"])
    assert "2 files to copy." in result.output and "Copied 2; 0 left owed" in result.output
    puts = [r for r in object_storage.recorded() if r["method"] == "PUT"]
    assert [sent_encryption(r) for r in puts] == [("AES256", md5_of(b"n" * 32))] * 2


def test_the_replication_check_catches_up_copies_owed_for_over_a_minute(
    make_app, replica_settings, object_storage, tmp_path
):
    app = make_app(**replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"})
    submit_with_photos(app, count=1)  # both copies fail: the storage is away
    storage_back(app, replica_settings)
    runner = app.test_cli_runner()
    runner.invoke(args=["leads", "replication", "prepare-bucket"])
    with replicating(app, tmp_path):
        wait_until(lambda: replica_holds_everything(app), timeout=30)
        fresh = runner.invoke(args=["leads", "replication", "check"])
        assert "0 files caught up" in fresh.output  # owed for less than a minute: the job's
        owed_long_ago(app)
        late = runner.invoke(args=["leads", "replication", "check"])
    assert "replica healthy; 2 files caught up" in late.output, late.output
    assert all(row["copied_at"] for row in copy_rows(app))
    assert len(object_storage.keys(bucket_of(app), "watchbuyers/files/")) == 2
