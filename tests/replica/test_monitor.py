"""Knowing when replication stops: the report, the hourly alert, the bucket's retention, and
Litestream's configuration made from the settings."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from app.replica import monitor
from tests.replica.steps import submit_with_photos


def test_the_lag_is_the_database_writes_the_replica_does_not_hold(app):
    now = datetime.now(UTC)
    with app.app_context():
        behind = monitor.Report(database_written=now, replica_written=now - timedelta(seconds=90))
        assert behind.lag_seconds == 90
        quiet = monitor.Report(database_written=now - timedelta(hours=5),
                               replica_written=now - timedelta(hours=5, seconds=1))  # fmt: skip
        assert quiet.lag_seconds == 1  # an idle database is not behind, however old its sync
        assert monitor.Report(database_written=now, error="down").lag_seconds is None


def test_a_database_written_to_but_never_replicated_is_an_alarm_not_a_lag_of_zero(replica_app):
    submit_with_photos(replica_app, count=1)  # leads written; Litestream never started
    result = replica_app.test_cli_runner().invoke(args=["leads", "replication"])
    assert result.exit_code == 1, result.output
    assert "Database lag: never synced" in result.output
    assert "Last database sync: never" in result.output
    assert "the database has never been replicated although it has been written to" in (
        result.output
    )
    with replica_app.app_context():
        just_written = monitor.Report(database_written=datetime.now(UTC))
        assert just_written.never_synced and just_written.lag_seconds is None
        assert any("never been replicated" in problem for problem in just_written.problems())


def test_the_report_names_files_not_yet_copied_and_the_unreachable_storage(
    make_app, replica_settings
):
    down = make_app(**replica_settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"})
    submit_with_photos(down, count=1)
    result = down.test_cli_runner().invoke(args=["leads", "replication"])
    assert result.exit_code == 1
    assert "Files not yet copied: 2 (oldest owed since " in result.output
    assert "Database lag: unknown" in result.output
    assert "the replica's storage does not answer" in result.output


def test_staff_hear_of_a_stopped_replica_once_an_hour(make_app, replica_settings, mail_settings,
                                                      smtp_server):  # fmt: skip
    settings = replica_settings | mail_settings | {"STAFF_EMAIL": "desk@watches.example"}
    down = make_app(**settings | {"REPLICA_ENDPOINT": "http://127.0.0.1:9"})
    submit_with_photos(down, count=1)
    runner = down.test_cli_runner()
    first = runner.invoke(args=["leads", "replication", "check"])
    assert "staff alerted" in first.output, first.output
    second = runner.invoke(args=["leads", "replication", "check"])
    assert "already alerted this hour" in second.output
    alerts = [m for m in smtp_server.messages if "off-site replica" in m["Subject"]]
    assert len(alerts) == 1 and alerts[0]["To"] == "desk@watches.example"
    text = alerts[0].get_content()
    assert "the replica's storage does not answer" in text
    assert "Files not yet copied: 2" in text and "journalctl -u watchbuyers-litestream" in text


def test_the_bucket_is_prepared_to_keep_deleted_copies_no_longer_than_the_policy_says(
    replica_app, object_storage
):
    runner = replica_app.test_cli_runner()
    before = runner.invoke(args=["leads", "replication"])
    assert "run flask leads replication prepare-bucket" in before.output
    assert "not bounded (no lifecycle)" in before.output
    prepared = runner.invoke(args=["leads", "replication", "prepare-bucket"])
    assert "at most 7 days" in prepared.output, prepared.output
    bucket = replica_app.config["REPLICA_URL"].removeprefix("s3://").split("/")[0]
    client = object_storage.client()
    assert client.get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled"
    [rule] = client.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
    assert rule["NoncurrentVersionExpiration"] == {"NoncurrentDays": 7}
    after = runner.invoke(args=["leads", "replication"])
    assert "Deleted or replaced copies kept: 7 days" in after.output
    assert "prepare-bucket" not in after.output


def test_litestreams_configuration_comes_from_the_settings_and_holds_no_secret(
    replica_app, tmp_path
):
    target = tmp_path / "litestream.yml"
    result = replica_app.test_cli_runner().invoke(
        args=["leads", "replication", "litestream-config", "--to", str(target)]
    )
    assert result.exit_code == 0, result.output
    written = target.read_text()
    config = json.loads(written)  # JSON is YAML, as Litestream reads it
    [database] = config["dbs"]
    assert database["path"] == replica_app.config["LEADS_DB"]
    assert database["replica"]["path"] == "watchbuyers/db"
    assert database["replica"]["sse-customer-key"] == "${REPLICA_ENCRYPTION_KEY}"
    assert config["snapshot"]["retention"] == "168h"
    for secret in ("REPLICA_ENCRYPTION_KEY", "REPLICA_SECRET_ACCESS_KEY"):
        assert replica_app.config[secret] not in written
    assert target.stat().st_mode & 0o077 == 0


def test_without_a_replica_the_commands_say_so(runner):
    result = runner.invoke(args=["leads", "replication"])
    assert result.exit_code == 1 and "REPLICA_URL is not set" in result.output


def test_a_storage_that_stops_answering_is_reported_not_a_crash(replica_app, object_storage):
    submit_with_photos(replica_app, count=1)
    runner = replica_app.test_cli_runner()
    with object_storage.unreachable():  # connections open, then nothing: time-outs
        result = runner.invoke(args=["leads", "replication"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "Database lag: unknown" in result.output
    assert "the replica's storage does not answer (could not list the database replica" in (
        result.output
    )
