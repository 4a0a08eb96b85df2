"""The one way the web app hands work to the worker: jobs named by their dotted path.

With REDIS_URL set, Flask-RQ binds a queue and `flask rq worker --with-scheduler` runs the jobs
in `worker.jobs` (retried with backoff). Without it (the embedded default), the same functions
are looked up by the same names and run by one background thread per process, after the
seller's answer has gone. The app never imports `worker`: it only names its jobs, as RQ itself
does, so dependencies point one way (worker -> app). Either way the lead is committed first,
so an outage or a crash only delays the work: see InProcessRunner, and `flask leads requeue`.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import queue
import threading
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import Flask, current_app
from redis.exceptions import RedisError
from rq import Retry
from rq.job import Dependency
from rq.utils import import_attribute

from app.extensions import rq
from app.leads import store

JOB_TIMEOUT = 300
PROCESS_PHOTOS = "worker.jobs.process_photos"
NOTIFY_STAFF = "worker.jobs.notify_staff"
SEND_CONVERSIONS = "worker.jobs.send_conversions"
CONFIRM_TO_SELLER = "worker.jobs.confirm_to_seller"
# The order they run in-process.
LEAD_JOBS = (PROCESS_PHOTOS, NOTIFY_STAFF, CONFIRM_TO_SELLER, SEND_CONVERSIONS)
STALE_AFTER = timedelta(minutes=2)  # in-process work of a live process is done well before
EXIT_GRACE_SECONDS = 20  # within gunicorn's graceful_timeout
SEND_SELLER_EMAIL = "worker.jobs.send_seller_email"
SEND_STATUS_LINKS = "worker.jobs.send_status_links"
ALERT_STAFF = "worker.jobs.alert_staff"


def init_app(app: Flask) -> None:
    """Bind Flask-RQ when REDIS_URL is set (its connection is derived in app.config);
    otherwise give the app its in-process runner, started on first use in each process."""
    if app.config["REDIS_URL"]:
        rq.init_app(app)
    else:
        app.extensions["lead_work"] = InProcessRunner(app)
        app.before_request(app.extensions["lead_work"].ensure_started)


def uses_queue() -> bool:
    return "rq" in current_app.extensions


def retry_policy() -> Retry:
    intervals = list(current_app.config["JOB_RETRY_INTERVALS"])
    return Retry(max=len(intervals), interval=intervals)


def enqueue_lead_work(lead_id: int) -> bool:
    """Hand a lead's four jobs over; False if Redis could not take them (the lead is kept)."""
    if not uses_queue():
        current_app.extensions["lead_work"].submit(lead_id)
        return True
    options = {"retry": retry_policy(), "job_timeout": JOB_TIMEOUT}
    try:
        photos = rq.queue.enqueue(PROCESS_PHOTOS, lead_id, **options)
        after_photos = Dependency(jobs=[photos], allow_failure=True)
        rq.queue.enqueue(NOTIFY_STAFF, lead_id, depends_on=after_photos, **options)
        rq.queue.enqueue(CONFIRM_TO_SELLER, lead_id, **options)
        rq.queue.enqueue(SEND_CONVERSIONS, lead_id, **options)
    except RedisError as error:
        current_app.logger.warning(
            "Lead %s saved but not queued (%s); `flask leads requeue` will queue it.",
            lead_id,
            error,
        )
        return False
    return True


def run_job(name: str, *ids: int) -> None:
    """Run one job here and now, without Redis; a failure is logged (with the job's ids, never
    personal data) and left pending."""
    try:
        import_attribute(name)(*ids)
    except Exception:
        current_app.logger.exception("%s%s failed; it stays pending.", name, ids)


def run_lead_work(lead_id: int) -> None:
    """Run the jobs here and now, in order; a failure is logged and left pending."""
    for name in LEAD_JOBS:
        run_job(name, lead_id)


@contextmanager
def sweep_lock(leads_db: str):
    """True for the one process at a time that may sweep (a lock file beside leads.db)."""
    path = Path(leads_db).with_name(Path(leads_db).name + ".sweep-lock")
    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class InProcessRunner:
    """The embedded default's job runner: one thread per process, started lazily (after any
    fork), that runs each lead's jobs after the response. Work a crash interrupted stays
    pending in leads.db; each new process sweeps it up at start-up (leads older than
    STALE_AFTER, so another live process's fresh work is left alone) and once more after
    STALE_AFTER for leads made just before it started. One process sweeps at a time."""

    def __init__(self, app: Flask):
        self.app = app
        self.queue: queue.Queue[tuple[str, object]] = queue.Queue()
        self.owner_pid: int | None = None
        self.start_lock = threading.Lock()

    def submit(self, lead_id: int) -> None:
        self.ensure_started()
        self.queue.put(("lead", lead_id))

    def submit_job(self, name: str, *args) -> None:
        """Run one job by its dotted name after the answer has gone."""
        self.ensure_started()
        self.queue.put(("job", (name, args)))

    def ensure_started(self) -> None:
        if self.owner_pid == os.getpid():
            return
        with self.start_lock:
            if self.owner_pid == os.getpid():
                return
            started = datetime.now(UTC)
            self.queue = queue.Queue()  # a forked child starts with its own, empty queue
            self.queue.put(("sweep", started - STALE_AFTER))
            later = threading.Timer(
                STALE_AFTER.total_seconds(), self.queue.put, [("sweep", started)]
            )
            later.daemon = True
            later.start()
            threading.Thread(target=self.run, name="lead-work", daemon=True).start()
            self.owner_pid = os.getpid()
            atexit.register(self.wait_until_idle, EXIT_GRACE_SECONDS)

    def run(self) -> None:
        while True:
            kind, value = self.queue.get()
            try:
                with self.app.app_context():
                    if kind == "sweep":
                        self.sweep(value)
                    elif kind == "job":
                        name, args = value
                        import_attribute(name)(*args)
                    else:
                        run_lead_work(value)
            except Exception:
                self.app.logger.exception("In-process %s %s failed.", kind, value)
            finally:
                self.queue.task_done()

    def sweep(self, created_before: datetime) -> None:
        """Run the pending work of leads made before `created_before`, if no one else is."""
        if not Path(self.app.config["LEADS_DB"]).exists():
            return  # no lead was ever saved here
        with sweep_lock(self.app.config["LEADS_DB"]) as allowed:
            if not allowed:
                return
            cutoff = created_before.isoformat(timespec="seconds")
            for lead in store.leads_with_pending_work(created_before=cutoff):
                current_app.logger.info("Lead %s: picking up its pending work.", lead["id"])
                run_lead_work(lead["id"])

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        """Block until every submitted lead's work has run (tests, and a graceful exit)."""
        with self.queue.all_tasks_done:
            return self.queue.all_tasks_done.wait_for(
                lambda: not self.queue.unfinished_tasks, timeout
            )


def enqueue_seller_email(lead_id: int, event_id: int) -> bool:
    """Queue (or run in-process) the e-mail announcing one state change to the seller; False if
    Redis could not take it (the change is saved; `flask leads requeue` sends it later)."""
    if not uses_queue():
        run_job(SEND_SELLER_EMAIL, lead_id, event_id)
        return True
    return enqueue_in_background(SEND_SELLER_EMAIL, lead_id, event_id)


def enqueue_in_background(name: str, *args) -> bool:
    """Run one job after the answer has gone: on Redis (retried), or on this process's
    background thread. False if Redis could not take it; the caller's record of the work
    (a pending column or an unanswered event) is what `flask leads requeue` finds later."""
    if not uses_queue():
        current_app.extensions["lead_work"].submit_job(name, *args)
        return True
    try:
        rq.queue.enqueue(name, *args, retry=retry_policy(), job_timeout=JOB_TIMEOUT)
    except RedisError as error:
        current_app.logger.warning("%s not queued (%s).", name, error)  # args may be personal
        return False
    return True


def enqueue_status_links(email: str) -> None:
    """E-mail the status links of this address's open leads, always in the background: the
    lost-link form answers at once and alike whether the address has leads or not."""
    enqueue_in_background(SEND_STATUS_LINKS, email)


def enqueue_photo_work(lead_id: int) -> bool:
    """Process the photos a seller added later (the job takes every photo not yet done)."""
    return enqueue_in_background(PROCESS_PHOTOS, lead_id)


def enqueue_staff_alert(lead_id: int, event_id: int) -> bool:
    """E-mail staff about what a seller did on their status page."""
    return enqueue_in_background(ALERT_STAFF, lead_id, event_id)
