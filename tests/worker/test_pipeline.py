"""The lead pipeline end to end with real parts: redis-server, an `rq worker` subprocess, an
SMTP server (aiosmtpd) and an HTTP receiver standing in for Meta and GA4."""

import asyncio
import hashlib
import io
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from aiosmtpd.controller import Controller
from PIL import Image
from rq import Queue

from app.extensions import rq
from app.leads import search, storage, store
from app.leads.db import transaction
from app.sale import lifecycle
from tests.data.photos import photo_bytes
from tests.helpers import JSON, SmtpInbox, finished_lead, free_port, lead_work_done, post
from worker.jobs import confirm_to_seller, notify_staff, send_conversions

LEAD_RECORD = {
    "full_name": "Jane Doe",
    "email": "jane@example.com",
    "phone": "+1 (212) 555-0147",
    "watch_brand": "Rolex",
    "watch_condition": "Very Good - Minor wear",
    "has_box": True,
    "has_papers": False,
    "additional_details": "",
    "source": "USA Website",
}
EVIL_DETAILS = '<script>alert("x")</script> & "quotes"'


def minutes_ago(minutes: int) -> str:
    return (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")


def submit(app, photos=3):
    client = app.test_client()
    files = [
        (io.BytesIO(photo_bytes(size=(900, 600), seed=i, gps=True)), f"IMG_{i}.jpg")
        for i in range(photos)
    ]
    fields = {
        "metaEventId": "evt-pipeline-0001",
        "additionalDetails": EVIL_DETAILS,
        "email": "  Jane.Doe@Example.com ",
    }
    return post(client, fields, files, headers=JSON)


def assert_staff_email(inbox, photo_count=3):
    """The staff e-mail, beside the seller's confirmation (the lead's two e-mails)."""
    messages = inbox.wait_for(2)
    [message] = [m for m in messages if m["To"] == "staff@example.com"]
    [confirmation] = [m for m in messages if m["To"] == "Jane.Doe@example.com"]
    assert "/status/" in confirmation.get_body(("plain",)).get_content()
    assert message["To"] == "staff@example.com"
    assert message["Reply-To"] == "Jane.Doe@example.com"  # trimmed, domain normalised
    assert message["Subject"] == "New lead #1: Rolex from Jane Doe"
    html = message.get_body(("html",)).get_content()
    assert "&lt;script&gt;" in html and "<script>" not in html
    images = [part for part in message.walk() if part.get_content_type() == "image/webp"]
    assert len(images) == photo_count


def assert_conversions(receiver):
    calls = {call["path"].split("?")[0]: call for call in receiver.wait_for(2)}
    meta = calls["/meta/1234567890/events"]["json"]
    [event] = meta["data"]
    assert meta["access_token"] == "test-token"
    assert event["event_name"] == "Lead" and event["event_id"] == "evt-pipeline-0001"
    assert event["user_data"]["em"] == [hashlib.sha256(b"jane.doe@example.com").hexdigest()]
    assert event["user_data"]["ph"] == [hashlib.sha256(b"12125550147").hexdigest()]
    assert event["custom_data"]["value"] == 1000 and event["custom_data"]["currency"] == "USD"
    ga4 = calls["/mp/collect"]["json"]
    assert ga4["events"][0]["name"] == "generate_lead"


def assert_photos_clean(app):
    with app.app_context():
        photos = store.lead_photos(1)
        directory, incoming = storage.photos_dir(), storage.incoming_dir()
    assert all(photo["image_name"] and not photo["error"] for photo in photos)
    assert list(incoming.iterdir()) == []  # raw uploads (with their GPS) are gone
    for photo in photos:
        with Image.open(directory / photo["image_name"]) as image:
            assert not image.getexif()


def test_rq_worker_processes_photos_emails_staff_and_sends_conversions(
    make_app, pipeline_settings, redis_server, start_rq_worker, smtp_server, http_receiver
):
    settings = pipeline_settings | {"REDIS_URL": redis_server.url}
    start_rq_worker(settings)
    app = make_app(**settings)
    assert submit(app).get_json()["success"]
    lead = finished_lead(app)
    assert lead["photos_processed_at"] and lead["staff_notified_at"]
    assert_photos_clean(app)
    assert_staff_email(smtp_server)
    assert_conversions(http_receiver)


def test_redis_down_at_submit_keeps_lead_and_requeue_finishes_it(
    make_app, pipeline_settings, redis_server, start_rq_worker, smtp_server, http_receiver
):
    settings = pipeline_settings | {"REDIS_URL": redis_server.url}
    app = make_app(**settings)
    redis_server.stop()
    started = time.monotonic()
    assert submit(app).get_json()["success"]
    assert time.monotonic() - started < 10
    with app.app_context():
        [lead] = search.list_leads()
    assert store.pending_work(lead) == list(store.WORK_COLUMNS)

    redis_server.start()
    start_rq_worker(settings)
    result = app.test_cli_runner().invoke(args=["leads", "requeue"])
    assert result.exit_code == 0, result.output
    assert "Queued lead #1" in result.output
    finished_lead(app)
    assert_staff_email(smtp_server)
    assert_conversions(http_receiver)


def test_without_redis_jobs_run_in_process_after_the_answer(
    make_app, pipeline_settings, smtp_server, http_receiver
):
    app = make_app(**pipeline_settings)
    assert submit(app).get_json()["success"]
    lead_work_done(app)
    with app.app_context():
        lead = store.get_lead(1)
    assert store.pending_work(lead) == []
    assert_photos_clean(app)
    assert_staff_email(smtp_server)
    assert_conversions(http_receiver)


def test_finished_jobs_are_not_repeated(make_app, pipeline_settings, smtp_server, http_receiver):
    app = make_app(**pipeline_settings)
    submit(app)
    lead_work_done(app)
    with app.app_context():
        assert notify_staff(1) == "already done"
        assert send_conversions(1) == "already done"
        assert confirm_to_seller(1) == "already done"
    time.sleep(0.3)
    assert len(smtp_server.messages) == 2 and len(http_receiver.requests) == 2


def test_unconfigured_mail_leaves_the_lead_pending_for_requeue(make_app, content_db, tmp_path):
    app = make_app()
    submit(app, photos=1)
    lead_work_done(app)
    with app.app_context():
        lead = store.get_lead(1)
    assert store.pending_work(lead) == ["staff_notified_at", "seller_confirmed_at"]


@pytest.mark.parametrize("intervals", ["1,1", "10,60,300"])
def test_jobs_are_queued_with_retries_and_backoff(
    make_app, pipeline_settings, redis_server, intervals
):
    settings = pipeline_settings | {"REDIS_URL": redis_server.url, "JOB_RETRY_INTERVALS": intervals}
    app = make_app(**settings)
    submit(app, photos=1)
    with app.app_context():
        queue: Queue = rq.queue
        jobs = [queue.fetch_job(job_id) for job_id in queue.get_job_ids()]
    expected = [int(seconds) for seconds in intervals.split(",")]
    # One job by the lead's id: it runs the photos before the staff e-mail that shows them.
    assert [(job.func_name, job.args) for job in jobs] == [("worker.jobs.process_lead", (1,))]
    assert all(
        job.retries_left == len(expected) and job.retry_intervals == expected for job in jobs
    )


@pytest.fixture
def held_smtp():
    """An SMTP server that holds every message until the test releases it."""
    inbox = SmtpInbox("127.0.0.1", free_port())
    inbox.release = threading.Event()

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            while not inbox.release.is_set():
                await asyncio.sleep(0.02)
            inbox.messages.append(envelope.content)
            return "250 OK"

    controller = Controller(Handler(), hostname=inbox.host, port=inbox.port)
    controller.start()
    yield inbox
    inbox.release.set()
    controller.stop()


def test_without_redis_the_seller_is_answered_before_the_jobs_finish(
    make_app, pipeline_settings, held_smtp
):
    app = make_app(**pipeline_settings | {"SMTP_PORT": str(held_smtp.port)})
    assert submit(app, photos=1).get_json()["success"]
    with app.app_context():
        assert store.pending_work(store.get_lead(1)) != []  # the e-mail is still being sent
    held_smtp.release.set()
    lead_work_done(app)
    assert len(held_smtp.messages) == 2  # staff's e-mail and the seller's confirmation
    with app.app_context():
        assert store.pending_work(store.get_lead(1)) == []


def test_work_a_crash_interrupted_is_picked_up_when_a_process_starts(
    make_app, pipeline_settings, smtp_server, http_receiver
):
    crashed = make_app(**pipeline_settings)
    with crashed.app_context():
        lead_id, _ = store.save_lead({**LEAD_RECORD, "meta_event_id": "evt-crashed-0001"}, [])
        with transaction() as db:  # saved three minutes ago; its process died before the jobs
            db.execute("UPDATE leads SET created_at = ?", (minutes_ago(3),))
        lead_id_fresh, _ = store.save_lead({**LEAD_RECORD, "meta_event_id": "evt-fresh-00001"}, [])
    restarted = make_app(**pipeline_settings)
    assert restarted.test_client().get("/sell").status_code == 200  # its first request
    lead_work_done(restarted)
    with restarted.app_context():
        assert store.pending_work(store.get_lead(lead_id)) == []
        # a lead made seconds ago may belong to another live process: left for later sweeps
        assert store.pending_work(store.get_lead(lead_id_fresh)) == list(store.WORK_COLUMNS)
    assert len(smtp_server.wait_for(2)) == 2  # the crashed lead's staff e-mail and confirmation


def test_without_redis_a_state_change_answers_before_the_seller_email_is_sent(
    make_app, pipeline_settings, held_smtp
):
    app = make_app(**pipeline_settings | {"SMTP_PORT": str(held_smtp.port)})
    with app.app_context():
        lead_id, _ = store.save_lead({**LEAD_RECORD, "meta_event_id": "evt-held-mail-1"}, [])
    with app.test_request_context():
        started = time.monotonic()
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "not_a_fit"}, "new")
        assert time.monotonic() - started < 2  # the held SMTP server would keep it 15 s
    assert held_smtp.messages == []
    held_smtp.release.set()
    lead_work_done(app)
    [message] = held_smtp.messages
    assert b"Subject: Your enquiry about your Rolex is closed" in message
