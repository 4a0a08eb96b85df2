"""A fresh instance brought back from the replica: Litestream's copy of leads.db, then every
file the records say was copied; refused over an instance that holds leads."""

from __future__ import annotations

import base64
import logging
import time
from datetime import UTC, datetime
from pathlib import Path

from app.leads import erasure_record, history, storage, store
from app.leads.db import get_db, transaction, truncate_wal
from app.replica import copies, monitor, objects
from app.replica.restore import FILE_NAME
from app.sale import erasure, timeline
from tests.helpers import give_token, lead_work_done, photo, post, wait_until
from tests.replica.steps import (
    bucket_of,
    copy_rows,
    md5_of,
    replica_holds_everything,
    replicating,
    sent_encryption,
    submit_with_photos,
)


def test_a_fresh_instance_comes_back_from_the_replica_with_its_files(
    make_app, replica_settings, tmp_path
):
    lost = make_app(**replica_settings)
    lead_id = submit_with_photos(lost, count=2)
    with replicating(lost, tmp_path):
        wait_until(lambda: replica_holds_everything(lost), timeout=30)
    with lost.app_context():
        originals = {
            row["name"]: (storage.storage_dir() / row["name"]).read_bytes()
            for row in copy_rows(lost)
        }

    fresh = make_app(**replica_settings)
    result = fresh.test_cli_runner().invoke(args=["leads", "restore", "--from-replica"])
    assert result.exit_code == 0, result.output
    assert "Restored 1 leads and 4 files from the replica." in result.output
    assert "Opened 0 purchase values and 0 purchase files" in result.output
    with fresh.app_context():
        lead = get_db().execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
        assert lead["full_name"] == "Jane Doe"
        for name, data in originals.items():
            assert (storage.storage_dir() / name).read_bytes() == data


def test_a_restore_never_writes_over_an_instance_that_holds_leads(make_app, replica_settings):
    busy = make_app(**replica_settings)
    submit_with_photos(busy, count=1)
    result = busy.test_cli_runner().invoke(args=["leads", "restore", "--from-replica"])
    assert result.exit_code == 1
    assert "Nothing was restored" in result.output and "already holds 1 leads" in result.output


def restored_elsewhere(make_app, replica_settings, lost, folder):
    """`lost`'s database replicated by Litestream, then restored on a fresh machine: the new
    machine's app and the restore's result."""
    with replicating(lost, folder):
        wait_until(lambda: replica_holds_everything(lost), timeout=30)
    fresh = make_app(**replica_settings)
    return fresh, fresh.test_cli_runner().invoke(args=["leads", "restore", "--from-replica"])


def test_files_still_owed_when_the_machine_was_lost_are_named_and_settled_as_lost(
    make_app, replica_settings, tmp_path
):
    lost = make_app(**replica_settings)
    lead_id = submit_with_photos(lost, count=2)
    photo_2 = "SELECT 'watch-photos/' || image_name FROM lead_photos WHERE position = 2"
    with lost.app_context(), transaction() as db:  # as if the disk went before photo 2's copy
        db.execute(f"UPDATE file_copies SET copied_at = NULL WHERE name IN ({photo_2})")
    token = give_token(lost, lead_id)
    fresh, result = restored_elsewhere(make_app, replica_settings, lost, tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("Lost with the machine (its copy was still owed): ") == 1
    assert "Restored 1 leads and 3 files" in result.output
    with fresh.app_context():
        assert copies.owed() == [] and copies.sync_owing().failed == {}  # nothing retried
        report = monitor.read_records(monitor.Report())
        assert (report.copies_owed, report.deletions_owed, report.failing) == (0, 0, [])
        assert [photo["position"] for photo in store.lead_photos(lead_id)] == [1]
        [event] = [e for e in history.lead_events(lead_id) if e["kind"] == "files_lost"]
        title, details, _ = timeline.describe(event)  # the staff page's timeline
    assert title == "Lost with the machine, found missing at the restore"
    assert details == [("Photos (copy not yet made)", "2")]
    kept = [row["name"] for row in copy_rows(fresh)]
    assert storage_files(fresh) == kept and len(kept) == 2  # photo 2's thumbnail went with it
    page = fresh.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "one of the photos you sent was lost in a failure of our own systems" in page


def test_photos_still_waiting_for_their_job_are_named_and_asked_for_again(
    make_app, replica_settings, tmp_path
):
    no_worker = make_app(**replica_settings | {"REDIS_URL": "redis://127.0.0.1:9/0"})
    response = post(no_worker.test_client(), photos=[photo("a.jpg"), photo("b.jpg")])
    assert response.status_code == 303  # the lead is saved; its photo job never ran
    token = give_token(no_worker, 1)
    fresh, result = restored_elsewhere(make_app, replica_settings, no_worker, tmp_path)
    assert result.exit_code == 0, result.output
    assert ("Lost with the machine (still waiting for the photo job): lead #1, photo 1, 2; "
            "the seller's status page asks for it again.") in result.output  # fmt: skip
    with fresh.app_context():
        assert store.lead_photos(1) == [] and store.get_lead(1)["photos_processed_at"]
        [event] = [e for e in history.lead_events(1) if e["kind"] == "files_lost"]
        assert timeline.describe(event)[1] == [("Photos (still waiting to be checked)", "1, 2")]
    page = fresh.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "2 of the photos you sent were lost in a failure of our own systems" in page
    assert "You can send 10 more photos." in page


def test_a_restore_writes_no_file_the_site_would_not_have_named(
    make_app, replica_settings, tmp_path
):
    lost = make_app(**replica_settings)
    submit_with_photos(lost, count=1)
    planted = ["../../escaped.txt", "/tmp/absolute-escape.txt", "watch-photos/../../x.jpg"]
    valid_at_start = [  # each a name the site writes, then more: inside the storage, elsewhere
        "watch-photos/q7ZpN3xV0bL9rT2mK8wY4cH6jD1sF5gA.jpg/../../other.jpg",
        "purchases/9f86d081884c7d659a2feaa0c55ad015.bin/../../../escaped.bin",
    ]
    intruder = tmp_path / "intruder.jpg"
    intruder.write_bytes(b"not one of ours")
    with lost.app_context(), transaction() as db:
        for name in valid_at_start:  # the bucket holds them, so only the name can refuse them
            objects.put_file(name, intruder)
        db.executemany(
            "INSERT INTO file_copies (name, lead_id, since, copied_at) VALUES (?, 1, ?, ?)",
            [(name, "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
             for name in planted + valid_at_start],
        )  # fmt: skip
    fresh, result = restored_elsewhere(make_app, replica_settings, lost, tmp_path)
    assert result.exit_code == 1
    for name in planted + valid_at_start:
        assert f"Refused (not a file name this site writes): {name!r}" in result.output
    assert "nothing was written for them" in result.output
    assert "Restored 1 leads and 2 files" in result.output  # the lead's own files came back
    instance = Path(fresh.config["LEADS_DB"]).parent
    assert not (instance.parent / "escaped.txt").exists()
    assert not Path("/tmp/absolute-escape.txt").exists()
    assert not (instance / "escaped.bin").exists()
    assert all(FILE_NAME.fullmatch(name) for name in storage_files(fresh))


def storage_files(app) -> list[str]:
    """Every file under the app's private storage, by its name there."""
    with app.app_context():
        folder = storage.storage_dir()
        return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_an_erasure_does_not_wait_on_litestreams_hold_of_the_wal(replica_app, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    submit_with_photos(replica_app, count=1)
    with replicating(replica_app, tmp_path):
        wait_until(lambda: replica_holds_everything(replica_app), timeout=30)
        with replica_app.app_context():
            began = time.monotonic()
            emptied = truncate_wal()
            waited = time.monotonic() - began
    assert not emptied and waited < 1  # Litestream's read transaction holds the WAL
    assert "left to Litestream's checkpoints" in caplog.text


def test_litestream_writes_the_database_replica_with_this_deployments_key(
    replica_app, object_storage, tmp_path
):
    object_storage.start_recording()
    submit_with_photos(replica_app, count=1)
    with replicating(replica_app, tmp_path):
        wait_until(lambda: replica_holds_everything(replica_app), timeout=30)
    database_puts = [
        request for request in object_storage.recorded()
        if request["method"] == "PUT" and "/watchbuyers/db/" in request["url"]
    ]  # fmt: skip
    assert database_puts
    key = base64.b64decode(replica_app.config["REPLICA_ENCRYPTION_KEY"])
    assert {sent_encryption(request) for request in database_puts} == {("AES256", md5_of(key))}


def test_files_the_storage_could_not_give_are_fetched_later_with_files_only(
    make_app, replica_settings, object_storage, tmp_path
):
    lost = make_app(**replica_settings)
    submit_with_photos(lost, count=1)
    with replicating(lost, tmp_path):
        wait_until(lambda: replica_holds_everything(lost), timeout=30)
    bucket = bucket_of(lost)
    [thumb] = [k for k in object_storage.keys(bucket, "watchbuyers/files/") if "-thumb" in k]
    key = base64.b64decode(replica_settings["REPLICA_ENCRYPTION_KEY"])
    keys = {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": key}
    keys |= {f"CopySource{name}": value for name, value in keys.items()}
    source = {"Bucket": bucket, "Key": thumb}
    object_storage.client().copy_object(
        Bucket=bucket, Key=thumb + ".aside", CopySource=source, **keys
    )
    object_storage.client().delete_object(Bucket=bucket, Key=thumb)  # as if the storage failed it

    fresh = make_app(**replica_settings)
    runner = fresh.test_cli_runner()
    first = runner.invoke(args=["leads", "restore", "--from-replica"])
    assert first.exit_code == 1 and "Not fetched: watch-photos/" in first.output
    assert "run flask leads restore --files-only once the storage answers" in first.output
    object_storage.client().copy_object(
        Bucket=bucket, Key=thumb, CopySource={"Bucket": bucket, "Key": thumb + ".aside"}, **keys
    )
    again = runner.invoke(args=["leads", "restore", "--files-only"])
    assert again.exit_code == 0, again.output
    assert "Restored 1 leads and 1 files from the replica." in again.output


def test_a_lead_erased_after_the_replicas_copy_comes_back_erased_on_a_fresh_machine(
    make_app, replica_settings, object_storage, tmp_path
):
    lost = make_app(**replica_settings)
    lead_id = submit_with_photos(lost, count=1)
    token = give_token(lost, lead_id)
    with replicating(lost, tmp_path):
        wait_until(lambda: replica_holds_everything(lost), timeout=30)
    with lost.app_context():  # not in the database's replica: Litestream has stopped
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:1")
    lead_work_done(lost)
    assert len(object_storage.keys(bucket_of(lost), "watchbuyers/erasures/")) == 1

    fresh = make_app(**replica_settings)  # a new machine: no record of erasures of its own
    result = fresh.test_cli_runner().invoke(args=["leads", "restore", "--from-replica"])

    assert result.exit_code == 0, result.output
    assert "Re-applied 1 erasures made after this copy was taken." in result.output
    assert "Not fetched" not in result.output  # the erased lead's files are not missed
    with fresh.app_context():
        lead = get_db().execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
        assert lead["erased_at"] and lead["full_name"] == lead["email"] == lead["phone"] == ""
        assert not [path for path in storage.storage_dir().rglob("*") if path.is_file()]
        assert [entry["lead_id"] for entry in erasure_record.entries()] == [lead_id]
    assert fresh.test_client().get(f"/status/{token}").status_code == 404


def test_a_backup_taken_before_an_erasure_comes_back_erased_on_a_new_machine_by_the_replica(
    make_app, replica_settings, tmp_path
):
    backups = str(tmp_path / "backups")
    lost = make_app(**replica_settings, BACKUP_DIR=backups)
    lead_id = submit_with_photos(lost, count=1)
    with lost.app_context(), transaction() as db:  # its confirmation still owed (SMTP was down)
        db.execute("UPDATE leads SET seller_confirmed_at = NULL WHERE id = ?", (lead_id,))
    assert lost.test_cli_runner().invoke(args=["leads", "backup"]).exit_code == 0
    with lost.app_context():
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:1")
    lead_work_done(lost)  # its entry stored in the bucket by the erasure's copy job

    fresh = make_app(**replica_settings, BACKUP_DIR=backups)  # no record of erasures of its own
    result = fresh.test_cli_runner().invoke(args=["leads", "restore"])

    assert result.exit_code == 0, result.output
    assert "1 in the replica" in result.output
    assert "Re-applied 1 erasures made after this copy was taken." in result.output
    assert "Queued the pending work of 0 leads" in result.output
    with fresh.app_context():
        lead = store.get_lead(lead_id)
        assert lead["erased_at"] and lead["full_name"] == lead["email"] == ""
        assert not [path for path in storage.storage_dir().rglob("*") if path.is_file()]
        assert [entry["lead_id"] for entry in erasure_record.entries()] == [lead_id]


def test_a_backup_is_not_restored_while_the_replicas_record_of_erasures_cannot_be_read(
    make_app, replica_settings, tmp_path
):
    backups = str(tmp_path / "backups")
    lost = make_app(**replica_settings, BACKUP_DIR=backups)
    submit_with_photos(lost, count=1)
    assert lost.test_cli_runner().invoke(args=["leads", "backup"]).exit_code == 0
    down = replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"}

    fresh = make_app(**down, BACKUP_DIR=backups)
    result = fresh.test_cli_runner().invoke(args=["leads", "restore"])

    assert result.exit_code == 1
    assert "Nothing was restored: the record of erasures in the replica could not be read" in (
        result.output
    )
    with fresh.app_context():
        assert get_db().execute("SELECT count(*) FROM leads").fetchone()[0] == 0


def test_the_replica_is_restored_as_it_was_at_a_given_moment(make_app, replica_settings, tmp_path):
    lost = make_app(**replica_settings)
    first = submit_with_photos(lost, count=1)
    with replicating(lost, tmp_path):
        wait_until(lambda: replica_holds_everything(lost), timeout=30)
        time.sleep(1.5)
        moment = datetime.now(UTC).replace(microsecond=0)
        time.sleep(1.5)
        submit_with_photos(lost, count=1)
        wait_until(lambda: replica_holds_everything(lost), timeout=30)

    fresh = make_app(**replica_settings)
    at = moment.strftime("%Y-%m-%dT%H:%M:%S")
    result = fresh.test_cli_runner().invoke(
        args=["leads", "restore", "--from-replica", "--timestamp", at]
    )
    assert result.exit_code == 0, result.output
    assert "Restored 1 leads" in result.output
    with fresh.app_context():
        assert [row[0] for row in get_db().execute("SELECT id FROM leads")] == [first]
