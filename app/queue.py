"""The one way the web app hands work to the worker: `enqueue(job_name, *ids)`.

Jobs are named by their dotted path in worker/jobs.py and take ids only, never personal data
(job arguments sit in Redis and its failed-job registry). With REDIS_URL set, Flask-RQ binds a
queue and `flask rq worker --with-scheduler` runs them, retried with backoff. Without it (the
embedded default), the same functions run on one background thread per process, after the
answer has gone: no job ever runs on a request's thread, and a failed one is retried after each of
JOB_RETRY_INTERVALS as RQ would. The app never imports `worker`, and
this module imports none of the app's features: dependencies point one way (worker -> app).
Whoever enqueues has already committed its record of the work, so an outage only delays it:
see `flask leads requeue` and the start-up sweep (app/sale/pending.py).
"""

from __future__ import annotations

import atexit
import os
import queue
import threading

from flask import Flask, current_app
from redis.exceptions import RedisError
from rq import Retry
from rq.utils import import_attribute

from app.extensions import rq

JOB_TIMEOUT = 300
EXIT_GRACE_SECONDS = 20  # within gunicorn's graceful_timeout
# The jobs, by the names RQ stores.
PROCESS_LEAD = "worker.jobs.process_lead"
SEND_SELLER_EMAIL = "worker.jobs.send_seller_email"
ALERT_STAFF = "worker.jobs.alert_staff"
ALERT_SIGN_IN_CEILING = "worker.jobs.alert_sign_in_ceiling"
SEND_STATUS_LINKS = "worker.jobs.send_status_links"
SEND_ERASURE_LINK = "worker.jobs.send_erasure_link"
SEND_PAYOUT_CHECK = "worker.jobs.send_payout_check"
ERASE_AT_SELLERS_REQUEST = "worker.jobs.erase_at_sellers_request"
REPORT_PURCHASE = "worker.jobs.report_purchase"
MAKE_PURCHASE_DOCUMENTS = "worker.jobs.make_purchase_documents"
APPLY_RETENTION = "worker.jobs.apply_retention"
ALERT_PAYMENTS_DUE = "worker.jobs.alert_payments_due"
ALERT_UNREADABLE_PURCHASE = "worker.jobs.alert_unreadable_purchase"
FETCH_MARKET_PRICES = "worker.jobs.fetch_market_prices"
ALERT_RANGE_VOLUME = "worker.jobs.alert_range_volume"
SWEEP_PENDING_WORK = "worker.jobs.sweep_pending_work"
COPY_FILES = "worker.jobs.copy_files"
CHECK_REPLICATION = "worker.jobs.check_replication"
APPLY_SHIPMENT_EVENT = "worker.jobs.apply_shipment_event"
ALERT_SHIPMENT_EXCEPTION = "worker.jobs.alert_shipment_exception"
ALERT_SHIPPING_ATTENTION = "worker.jobs.alert_shipping_attention"
ASK_REGISTER = "worker.jobs.ask_register"
BUY_LABEL = "worker.jobs.buy_shipping_label"
OPEN_RETURN_PARCEL = "worker.jobs.open_return_parcel"
ALERT_RETURN_HELD = "worker.jobs.alert_return_held"
SEND_PARCEL_MAIL = "worker.jobs.send_parcel_mail"
SEND_LABEL_MAIL = "worker.jobs.send_label_mail"
SEND_ADDRESS_CHECK = "worker.jobs.send_address_change_check"
BOOK_PICKUP = "worker.jobs.book_pickup"
REPORT_UNSURE_EMAIL = "worker.jobs.report_unsure_email"
SEND_PAYOUT = "worker.jobs.send_payout"
ALERT_PAYOUT = "worker.jobs.alert_payout"
APPLY_PAYOUT_EVENT = "worker.jobs.apply_payout_event"
# Each process without Redis sweeps up work a crashed process left when it starts, and again
# once every lead made before it started is old enough to be nobody else's (pending.STALE_AFTER).
SWEEP_AGAIN_AFTER_SECONDS = 120


def init_app(app: Flask) -> None:
    """Bind Flask-RQ when REDIS_URL is set (its connection is derived in app.config);
    otherwise give the app its in-process runner, started on first use in each process."""
    if app.config["REDIS_URL"]:
        rq.init_app(app)
    else:
        app.extensions["lead_work"] = InProcessRunner(app)
        app.before_request(app.extensions["lead_work"].ensure_started)


def retry_policy() -> Retry | None:
    """JOB_RETRY_INTERVALS as RQ's retries: one retry per interval (none if it is empty)."""
    intervals = list(current_app.config["JOB_RETRY_INTERVALS"])
    return Retry(max=len(intervals), interval=intervals) if intervals else None


def enqueue(job_name: str, *ids: int) -> bool:
    """Run one job after the answer has gone: on Redis (retried), or on this process's
    background thread. False if Redis could not take it; the caller's record of the work (a
    pending column, an unanswered event, a request row) is what `flask leads requeue` finds."""
    runner = current_app.extensions.get("lead_work")
    if runner is not None:
        runner.submit(job_name, *ids)
        return True
    try:
        rq.queue.enqueue(job_name, *ids, retry=retry_policy(), job_timeout=JOB_TIMEOUT)
    except RedisError as error:
        current_app.logger.warning("%s%s not queued (%s).", job_name, ids, error)
        return False
    return True


def run_now(job_name: str, *ids: int):
    """Run one job in this process, now, and return its answer: for a command an operator runs
    and reads (`flask purchases retention`), by the job's name like every other caller."""
    return import_attribute(job_name)(*ids)


def wait_until_idle(timeout: float | None = None) -> bool:
    """Without Redis, block until this process's queued jobs have run (a CLI command that
    enqueued work, a test); with Redis the worker has them, so at once."""
    runner = current_app.extensions.get("lead_work")
    return runner.wait_until_idle(timeout) if runner is not None else True


class InProcessRunner:
    """The embedded default's job runner: one thread per process, started lazily (after any
    fork), that runs each job after the response. A failed job is logged with its ids and run
    again after each of JOB_RETRY_INTERVALS, as RQ's retries would; after the last it stays
    pending, and the sweeps (at start-up and once more) or `flask leads requeue` pick it up.
    Retries live in this process's memory only: a restart forgets them and the sweep takes
    over."""

    def __init__(self, app: Flask):
        self.app = app
        self.jobs: queue.Queue[tuple[str, tuple[int, ...], int]] = queue.Queue()
        self.owner_pid: int | None = None
        self.start_lock = threading.Lock()

    def submit(self, job_name: str, *ids: int) -> None:
        """Queue one job for this process's thread."""
        self.ensure_started()
        self.jobs.put((job_name, ids, 0))

    def ensure_started(self) -> None:
        """Start the thread and the sweeps once in each process (a forked child gets its own)."""
        if self.owner_pid == os.getpid():
            return
        with self.start_lock:
            if self.owner_pid == os.getpid():
                return
            self.jobs = queue.Queue()  # a forked child starts with its own, empty queue
            self.jobs.put((SWEEP_PENDING_WORK, (), 0))
            self.later(SWEEP_AGAIN_AFTER_SECONDS, (SWEEP_PENDING_WORK, (), 0))
            threading.Thread(target=self.run, name="lead-work", daemon=True).start()
            self.owner_pid = os.getpid()
            atexit.register(self.wait_until_idle, EXIT_GRACE_SECONDS)

    def later(self, seconds: float, job: tuple[str, tuple[int, ...], int]) -> None:
        """Put a job on the queue after `seconds` (a daemon timer: it dies with the process)."""
        timer = threading.Timer(seconds, self.jobs.put, [job])
        timer.daemon = True
        timer.start()

    def run(self) -> None:
        """The thread: each job in its own app context, one at a time, for ever."""
        while True:
            job_name, ids, attempt = self.jobs.get()
            try:
                with self.app.app_context():
                    import_attribute(job_name)(*ids)
            except Exception:
                self.retry_or_give_up(job_name, ids, attempt)
            finally:
                self.jobs.task_done()

    def retry_or_give_up(self, job_name: str, ids: tuple[int, ...], attempt: int) -> None:
        """Log a failed job and queue its next try after the next of JOB_RETRY_INTERVALS, or
        say it stays pending once they are used up."""
        intervals = self.app.config["JOB_RETRY_INTERVALS"]
        if attempt < len(intervals):
            self.app.logger.exception(
                "%s%s failed; retrying in %s s (retry %d of %d).",
                job_name, ids, intervals[attempt], attempt + 1, len(intervals),
            )  # fmt: skip
            self.later(intervals[attempt], (job_name, ids, attempt + 1))
        else:
            self.app.logger.exception("%s%s failed; it stays pending.", job_name, ids)

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued job has run (a CLI command, tests, a graceful exit); a
        retry still waiting for its interval is not queued yet."""
        with self.jobs.all_tasks_done:
            return self.jobs.all_tasks_done.wait_for(
                lambda: not self.jobs.unfinished_tasks, timeout
            )
