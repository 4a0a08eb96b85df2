"""A fresh instance brought back from the replica: Litestream's copy of leads.db, then every
file the records say was copied; refused over an instance that holds leads."""

from __future__ import annotations

import base64
import logging
import time

from app.leads import storage
from app.leads.db import get_db, transaction, truncate_wal
from tests.helpers import wait_until
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


def test_files_still_owed_when_the_machine_was_lost_are_named(make_app, replica_settings, tmp_path):
    lost = make_app(**replica_settings)
    submit_with_photos(lost, count=1)
    with lost.app_context(), transaction() as db:  # as if the disk went before the copy
        db.execute("UPDATE file_copies SET copied_at = NULL")
    with replicating(lost, tmp_path):
        wait_until(lambda: replica_holds_everything(lost), timeout=30)
    fresh = make_app(**replica_settings)
    result = fresh.test_cli_runner().invoke(args=["leads", "restore", "--from-replica"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Lost with the machine (its copy was still owed): ") == 2
    assert "Restored 1 leads and 0 files" in result.output


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
    source = {"Bucket": bucket, "Key": thumb}
    object_storage.client().copy_object(Bucket=bucket, Key=thumb + ".aside", CopySource=source)
    object_storage.client().delete_object(Bucket=bucket, Key=thumb)  # as if the storage failed it

    fresh = make_app(**replica_settings)
    runner = fresh.test_cli_runner()
    first = runner.invoke(args=["leads", "restore", "--from-replica"])
    assert first.exit_code == 1 and "Not fetched: watch-photos/" in first.output
    assert "run flask leads restore --files-only once the storage answers" in first.output
    object_storage.client().copy_object(
        Bucket=bucket, Key=thumb, CopySource={"Bucket": bucket, "Key": thumb + ".aside"}
    )
    again = runner.invoke(args=["leads", "restore", "--files-only"])
    assert again.exit_code == 0, again.output
    assert "Restored 1 leads and 1 files from the replica." in again.output
