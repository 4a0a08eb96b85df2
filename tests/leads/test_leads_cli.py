"""`flask leads`: list, show, export and requeue, and the database's safety settings."""

import csv
import sqlite3

from app.leads import store
from tests.helpers import JSON, lead_work_done, photo, post


def add_lead(client, **fields):
    assert post(client, fields, [photo()], headers=JSON).get_json()["success"]
    lead_work_done(client.application)


def test_leads_db_uses_wal_and_unique_event_ids(app, client):
    add_lead(client)
    db = sqlite3.connect(app.config["LEADS_DB"])
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'leads'").fetchone()[0]
    assert "meta_event_id TEXT NOT NULL UNIQUE" in sql
    db.close()


def test_list_shows_each_lead_with_photos_and_status(client, runner):
    assert "No leads yet." in runner.invoke(args=["leads", "list"]).output
    add_lead(client, fullName="Ana María")
    output = runner.invoke(args=["leads", "list"]).output
    assert "#1" in output and "Ana María" in output and "1 photos" in output
    assert "pending: staff_notified" in output  # no SMTP configured in tests


def test_show_prints_every_field_and_photo(client, runner):
    add_lead(client, watchModel="Daytona")
    result = runner.invoke(args=["leads", "show", "1"])
    assert result.exit_code == 0
    for text in ("full_name", "Jane Doe", "Daytona", "USA Website", "watch.jpg", ".jpg"):
        assert text in result.output
    missing = runner.invoke(args=["leads", "show", "99"])
    assert missing.exit_code != 0 and "No lead #99" in missing.output


def test_export_writes_a_csv_of_every_lead(client, runner, tmp_path):
    add_lead(client, utm_source="google")
    add_lead(client, fullName="Second Seller")
    target = tmp_path / "leads.csv"
    result = runner.invoke(args=["leads", "export", "--csv", str(target)])
    assert "Exported 2 leads" in result.output
    with target.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [row["full_name"] for row in rows] == ["Jane Doe", "Second Seller"]
    assert rows[0]["utm_source"] == "google" and rows[0]["photos"].endswith(".jpg")


def test_requeue_runs_pending_work_in_process_without_redis(app, client, runner):
    add_lead(client)
    with app.app_context():
        store.record_photo(1, image_name=None, error=None)
        db = sqlite3.connect(app.config["LEADS_DB"])
        db.execute("UPDATE leads SET conversions_sent_at = NULL")
        db.commit()
        db.close()
    result = runner.invoke(args=["leads", "requeue"])
    assert "Queued lead #1" in result.output
    with app.app_context():
        assert store.get_lead(1)["conversions_sent_at"]


def test_requeue_with_nothing_pending_says_so(runner):
    assert "Nothing to requeue" in runner.invoke(args=["leads", "requeue"]).output
