"""Background work for each lead: photos, the staff e-mail, server-side conversion events.

With REDIS_URL set, jobs go to RQ through Flask-RQ and `flask --app app rq worker
--with-scheduler` runs them (retried with backoff). Without it, the same jobs run in-process
right after the lead is saved. Either way the lead is already committed, so a Redis outage
only delays the work: `flask leads requeue` queues whatever is still pending.
"""

from __future__ import annotations

from flask import Flask, current_app
from redis.connection import parse_url
from redis.exceptions import RedisError
from rq import Retry
from rq.job import Dependency

from app.extensions import rq
from worker.jobs import notify_staff, process_photos, send_conversions

JOB_TIMEOUT = 300


def init_app(app: Flask) -> None:
    """Bind Flask-RQ to REDIS_URL with short socket timeouts, so a hung Redis fails fast."""
    url = app.config.get("REDIS_URL")
    if not url:
        return
    timeout = float(app.config["REDIS_SOCKET_TIMEOUT"])
    connection = parse_url(url) | {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    app.config.setdefault("RQ_CONNECTION", connection)
    app.config.setdefault("RQ_ASYNC", True)
    rq.init_app(app)


def uses_queue() -> bool:
    return "rq" in current_app.extensions


def retry_policy() -> Retry:
    intervals = [int(seconds) for seconds in current_app.config["JOB_RETRY_INTERVALS"].split(",")]
    return Retry(max=len(intervals), interval=intervals)


def enqueue_lead_work(lead_id: int) -> bool:
    """Queue (or run in-process) a lead's three jobs; False if Redis could not take them."""
    if not uses_queue():
        run_lead_work(lead_id)
        return True
    options = {"retry": retry_policy(), "job_timeout": JOB_TIMEOUT}
    try:
        photos = process_photos.enqueue(lead_id, **options)
        staff = Dependency(jobs=[photos], allow_failure=True)
        notify_staff.enqueue(lead_id, depends_on=staff, **options)
        send_conversions.enqueue(lead_id, **options)
    except RedisError as error:
        current_app.logger.warning(
            "Lead %s saved but not queued (%s); `flask leads requeue` will queue it.",
            lead_id,
            error,
        )
        return False
    return True


def run_lead_work(lead_id: int) -> None:
    """Run the jobs here and now, in order; a failure is logged and left pending for requeue."""
    for job in (process_photos, notify_staff, send_conversions):
        try:
            job(lead_id)
        except Exception:
            current_app.logger.exception(
                "Lead %s: %s failed; it stays pending.", lead_id, job.__name__
            )
