"""The lead pipeline end to end with real parts: redis-server, an `rq worker` subprocess, an
SMTP server (aiosmtpd) and an HTTP receiver standing in for Meta and GA4."""

import hashlib
import io
import time

import pytest
from PIL import Image
from rq import Queue

from app.extensions import rq
from app.leads import store
from tests.data.photos import photo_bytes
from tests.helpers import JSON, finished_lead, post
from worker.jobs import notify_staff, send_conversions

EVIL_DETAILS = '<script>alert("x")</script> & "quotes"'


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
    [message] = inbox.wait_for(1)
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
        directory, incoming = store.photos_dir(), store.incoming_dir()
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
        [lead] = store.list_leads()
    assert store.pending_work(lead) == list(store.WORK_COLUMNS)

    redis_server.start()
    start_rq_worker(settings)
    result = app.test_cli_runner().invoke(args=["leads", "requeue"])
    assert result.exit_code == 0, result.output
    assert "Queued lead #1" in result.output
    finished_lead(app)
    assert_staff_email(smtp_server)
    assert_conversions(http_receiver)


def test_without_redis_jobs_run_in_process_after_saving(
    make_app, pipeline_settings, smtp_server, http_receiver
):
    app = make_app(**pipeline_settings)
    assert submit(app).get_json()["success"]
    with app.app_context():
        lead = store.get_lead(1)
    assert store.pending_work(lead) == []
    assert_photos_clean(app)
    assert_staff_email(smtp_server)
    assert_conversions(http_receiver)


def test_finished_jobs_are_not_repeated(make_app, pipeline_settings, smtp_server, http_receiver):
    app = make_app(**pipeline_settings)
    submit(app)
    with app.app_context():
        assert notify_staff(1) == "already done"
        assert send_conversions(1) == "already done"
    time.sleep(0.3)
    assert len(smtp_server.messages) == 1 and len(http_receiver.requests) == 2


def test_unconfigured_mail_leaves_the_lead_pending_for_requeue(make_app, content_db, tmp_path):
    app = make_app()
    submit(app, photos=1)
    with app.app_context():
        lead = store.get_lead(1)
    assert store.pending_work(lead) == ["staff_notified_at"]


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
        deferred = queue.deferred_job_registry.get_job_ids()
    expected = [int(seconds) for seconds in intervals.split(",")]
    assert [job.func_name for job in jobs] == [
        "worker.jobs.process_photos",
        "worker.jobs.send_conversions",
    ]
    assert len(deferred) == 1  # the staff e-mail waits for the photos
    assert all(
        job.retries_left == len(expected) and job.retry_intervals == expected for job in jobs
    )
