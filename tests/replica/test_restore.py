"""A fresh instance brought back from the replica: Litestream's copy of leads.db, then every
file the records say was copied; refused over an instance that holds leads."""

from __future__ import annotations

import base64
import logging
import subprocess
import time
from contextlib import contextmanager
from datetime import UTC, datetime

from app.leads import storage
from app.leads.db import get_db, transaction, truncate_wal
from app.replica import erasure_log, litestream, monitor
from app.sale import erasure
from tests.helpers import ROOT, give_token, lead_work_done, stop_process, wait_until
from tests.replica.steps import (
    bucket_of,
    copy_rows,
    md5_of,
    sent_encryption,
    submit_with_photos,
)


@contextmanager
def replicating(app, folder):
    """Litestream replicating `app`'s leads.db, as its unit runs it, until the block ends."""
    config = folder / "litestream.yml"
    with app.app_context():
        litestream.write_settings(config)
        command = [litestream.binary(), "replicate", "-config", str(config)]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        process = subprocess.Popen(command, cwd=ROOT, env=litestream.environment(), **quiet)
    try:
        yield process
    finally:
        stop_process(process)


def replica_holds_everything(app) -> bool:
    with app.app_context():
        report = monitor.report()
        return report.replica_written is not None and report.lag_seconds < 1


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
        assert [entry["lead_id"] for entry in erasure_log.local_entries()] == [lead_id]
    assert fresh.test_client().get(f"/status/{token}").status_code == 404


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
