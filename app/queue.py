"""The one way the web app hands work to the worker: jobs named by their dotted path.

With REDIS_URL set, Flask-RQ binds a queue and `flask rq worker --with-scheduler` runs the jobs
in `worker.jobs` (retried with backoff). Without it, the same functions are looked up by the
same names and run here, right after the lead is saved. The app never imports `worker`: it
only names its jobs, as RQ itself does, so dependencies point one way (worker -> app).
Either way the lead is already committed, so a Redis outage only delays the work:
`flask leads requeue` queues whatever is still pending.
"""

from __future__ import annotations

from flask import Flask, current_app
from redis.exceptions import RedisError
from rq import Retry
from rq.job import Dependency
from rq.utils import import_attribute

from app.extensions import rq

JOB_TIMEOUT = 300
PROCESS_PHOTOS = "worker.jobs.process_photos"
NOTIFY_STAFF = "worker.jobs.notify_staff"
SEND_CONVERSIONS = "worker.jobs.send_conversions"
LEAD_JOBS = (PROCESS_PHOTOS, NOTIFY_STAFF, SEND_CONVERSIONS)  # the order they run in-process


def init_app(app: Flask) -> None:
    """Bind Flask-RQ when REDIS_URL is set (its connection is derived in app.config)."""
    if app.config["REDIS_URL"]:
        rq.init_app(app)


def uses_queue() -> bool:
    return "rq" in current_app.extensions


def retry_policy() -> Retry:
    intervals = list(current_app.config["JOB_RETRY_INTERVALS"])
    return Retry(max=len(intervals), interval=intervals)


def enqueue_lead_work(lead_id: int) -> bool:
    """Queue (or run in-process) a lead's three jobs; False if Redis could not take them."""
    if not uses_queue():
        run_lead_work(lead_id)
        return True
    options = {"retry": retry_policy(), "job_timeout": JOB_TIMEOUT}
    queue = rq.queue
    try:
        photos = queue.enqueue(PROCESS_PHOTOS, lead_id, **options)
        after_photos = Dependency(jobs=[photos], allow_failure=True)
        queue.enqueue(NOTIFY_STAFF, lead_id, depends_on=after_photos, **options)
        queue.enqueue(SEND_CONVERSIONS, lead_id, **options)
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
    for name in LEAD_JOBS:
        try:
            import_attribute(name)(lead_id)
        except Exception:
            current_app.logger.exception("Lead %s: %s failed; it stays pending.", lead_id, name)
