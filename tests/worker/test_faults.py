"""Fault tests with the real parts: redis-server stopped, an `rq worker` SIGKILLed mid-job and
restarted, an SMTP server refusing then accepting, a backup taken while the site writes."""

import io
import sqlite3
import time
from functools import cache
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from app.leads import search, store
from tests.data.photos import photo_bytes
from tests.helpers import (
    JSON,
    SmtpInbox,
    finished_lead,
    free_port,
    kill_tree,
    lead_work_done,
    post,
    wait_until,
)


@cache
def big_photo() -> bytes:
    return photo_bytes(size=(2400, 1800), noise=20, quality=80)


def photos(count: int, data: bytes | None = None):
    return [
        (io.BytesIO(data or photo_bytes(size=(600, 400), seed=i)), f"w{i}.jpg")
        for i in range(count)
    ]


def test_rate_limit_falls_back_to_memory_when_redis_is_down(
    make_app, pipeline_settings, redis_server
):
    app = make_app(
        **pipeline_settings,
        REDIS_URL=redis_server.url,
        RATELIMIT_ENABLED=True,
        SELL_RATELIMIT="2 per minute",
    )
    client = app.test_client()
    redis_server.stop()
    statuses = [
        post(client, {"metaEventId": f"evt-redis-down-{i}"}, headers=JSON).status_code
        for i in range(3)
    ]
    assert statuses == [200, 200, 429]  # sellers are served, and the limit still holds
    with app.app_context():
        assert [lead["photos_processed_at"] for lead in search.list_leads()] == [None, None]


def test_worker_sigkilled_mid_job_finishes_the_lead_after_restart(
    make_app, pipeline_settings, redis_server, start_rq_worker, smtp_server, http_receiver
):
    settings = pipeline_settings | {"REDIS_URL": redis_server.url}
    app = make_app(**settings)
    worker = start_rq_worker(settings)
    response = post(app.test_client(), photos=photos(6, big_photo()), headers=JSON)
    assert response.status_code == 200

    def some_photos_done():
        with app.app_context():
            done = [p for p in store.lead_photos(1) if p["image_name"]]
            return 0 < len(done) < 6 and not store.get_lead(1)["photos_processed_at"]

    wait_until(some_photos_done, timeout=60, interval=0.02)
    kill_tree(worker.pid)
    worker.wait(timeout=10)
    with app.app_context():
        assert not store.get_lead(1)["photos_processed_at"]

    start_rq_worker(settings)
    result = app.test_cli_runner().invoke(args=["leads", "requeue"])
    assert result.exit_code == 0, result.output
    lead = finished_lead(app)
    with app.app_context():
        processed = store.lead_photos(1)
    assert all(photo["image_name"] and photo["thumb_name"] for photo in processed)
    assert lead["staff_notified_at"] and lead["conversions_sent_at"]
    time.sleep(1)
    assert len(smtp_server.wait_for(2)) == 2  # staff's e-mail and the confirmation, once each


@pytest.fixture
def flaky_smtp():
    """An SMTP server that refuses the first two messages (451), then accepts."""
    inbox = SmtpInbox("127.0.0.1", free_port())
    inbox.refused = 0

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            if inbox.refused < 2:
                inbox.refused += 1
                return "451 Try again later"
            inbox.messages.append(envelope.content)
            return "250 OK"

    controller = Controller(Handler(), hostname=inbox.host, port=inbox.port)
    controller.start()
    yield inbox
    controller.stop()


def test_smtp_refusing_then_accepting_delivers_the_lead_once(
    make_app, pipeline_settings, redis_server, start_rq_worker, flaky_smtp, http_receiver
):
    settings = pipeline_settings | {
        "REDIS_URL": redis_server.url,
        "SMTP_PORT": str(flaky_smtp.port),
        "JOB_RETRY_INTERVALS": "1,1,1",
    }
    app = make_app(**settings)
    start_rq_worker(settings)
    assert post(app.test_client(), photos=photos(1), headers=JSON).status_code == 200
    lead = finished_lead(app)
    assert flaky_smtp.refused == 2
    assert len(flaky_smtp.messages) == 2  # staff's e-mail and the confirmation, once each
    assert lead["staff_notified_at"]


def test_without_redis_a_failed_job_is_retried_on_the_retry_intervals(make_app, flaky_smtp):
    app = make_app(
        STAFF_EMAIL="staff@example.com",
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(flaky_smtp.port),
        SMTP_USE_TLS="0",
        JOB_RETRY_INTERVALS="1,1,1",
    )
    assert post(app.test_client(), headers=JSON).status_code == 200
    lead_work_done(app)
    assert flaky_smtp.refused >= 1 and flaky_smtp.messages == []  # the first try failed

    def delivered():
        with app.app_context():
            [lead] = search.list_leads()
            return store.pending_work(lead) == []

    wait_until(delivered, timeout=20)  # no requeue, no restart: the runner's own retries
    assert flaky_smtp.refused == 2
    assert len(flaky_smtp.messages) == 2  # staff's e-mail and the confirmation, once each


def test_smtp_down_keeps_the_lead_pending_in_process(make_app):
    app = make_app(
        STAFF_EMAIL="staff@example.com",
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(free_port()),  # nothing listens there
        SMTP_USE_TLS="0",
    )
    assert post(app.test_client(), headers=JSON).status_code == 200
    lead_work_done(app)
    with app.app_context():
        [lead] = search.list_leads()
    assert lead["full_name"] == "Jane Doe"
    assert store.pending_work(lead) == ["staff_notified_at", "seller_confirmed_at"]


def test_backup_is_consistent_while_a_write_is_in_flight(make_app, app, client, runner, tmp_path):
    for i in range(3):
        assert post(client, {"metaEventId": f"evt-backup-{i}"}, headers=JSON).status_code == 200
    writer = sqlite3.connect(app.config["LEADS_DB"])
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE leads SET full_name = 'half-written'")
    try:
        result = runner.invoke(args=["leads", "backup", "--to", str(tmp_path / "backups")])
    finally:
        writer.rollback()
        writer.close()
    assert result.exit_code == 0, result.output
    assert "Backed up 3 leads" in result.output
    [folder] = (tmp_path / "backups").iterdir()
    copy = sqlite3.connect(folder / "leads.db")
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert {row[0] for row in copy.execute("SELECT full_name FROM leads")} == {"Jane Doe"}
    copy.close()
    assert not list(folder.glob("*.partial"))

    restored = make_app(LEADS_DB=str(folder / "leads.db"))
    listing = restored.test_cli_runner().invoke(args=["leads", "list"])
    assert listing.output.count("Jane Doe") == 3


def test_backup_to_an_unwritable_place_fails_clearly(client, runner):
    result = runner.invoke(args=["leads", "backup", "--to", "/proc/no/such/dir"])
    assert result.exit_code != 0
    assert "Backup failed" in result.output


def break_leads_database(app) -> None:
    """Overwrite leads.db with bytes SQLite cannot read, as a failed disk might."""
    path = Path(app.config["LEADS_DB"])
    for leftover in path.parent.glob(path.name + "-*"):
        leftover.unlink()
    path.write_bytes(b"not a database " * 512)


def test_a_json_request_that_fails_with_a_500_gets_json_and_no_trace(make_app, caplog):
    app = make_app(PROPAGATE_EXCEPTIONS=False)  # as in production: tests re-raise otherwise
    break_leads_database(app)
    client = app.test_client()
    response = client.get("/status/" + "x" * 32, headers=JSON)
    assert response.status_code == 500
    assert response.is_json and response.json["success"] is False
    assert "Something went wrong on our side" in response.json["error"]
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and "DatabaseError" not in body and "sqlite" not in body
    assert "DatabaseError" in caplog.text  # the trace goes to the log, not the answer


def test_a_page_that_fails_with_a_500_is_the_sites_error_page(make_app):
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    break_leads_database(app)
    response = app.test_client().get("/status/" + "x" * 32)
    body = response.get_data(as_text=True)
    assert response.status_code == 500 and response.mimetype == "text/html"
    assert "Something went wrong" in body and 'href="/"' in body
    assert "Traceback" not in body and "DatabaseError" not in body


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("POST", "/privacy", 405), ("POST", "/blog", 405), ("GET", "/no-such-page", 404)],
)
def test_errors_answer_json_to_json_requests_and_a_page_otherwise(client, method, path, status):
    as_json = client.open(path, method=method, headers=JSON)
    as_page = client.open(path, method=method)
    assert as_json.status_code == as_page.status_code == status
    assert as_json.is_json and as_json.json["success"] is False and as_json.json["error"]
    assert as_page.mimetype == "text/html" and "<html" in as_page.get_data(as_text=True)
