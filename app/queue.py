"""The one way the web app hands work to the worker: `enqueue(job_name, *ids)`.

Jobs are named by their dotted path in worker/jobs.py and take ids only, never personal data
(job arguments sit in Redis and its failed-job registry). Each job waits in one of QUEUES. With
REDIS_URL set, Flask-RQ binds them and `flask rq worker --with-scheduler QUEUE` runs each,
retried with backoff. Without it (the embedded default), the same functions run on one
background thread per queue and process, after the answer has gone: no job ever runs on a
request's thread, and a failed one is retried after each of JOB_RETRY_INTERVALS as RQ would.
The app never imports `worker`, and
this module imports none of the app's features: dependencies point one way (worker -> app).
Whoever enqueues has already committed its record of the work, so an outage only delays it:
see the sweep on its schedule and `flask leads requeue` (app/sale/pending.py).
"""

from __future__ import annotations

import atexit
import os
import queue
import threading
import time
from collections import Counter

from flask import Flask, current_app, has_request_context
from redis.exceptions import RedisError
from rq import Retry
from rq.defaults import DEFAULT_FAILURE_TTL
from rq.utils import as_text, import_attribute

from app.extensions import rq
from app.redis_guard import rest, resting

JOB_TIMEOUT = 300
EXIT_GRACE_SECONDS = 20  # within gunicorn's graceful_timeout
RETRY_OVERDUE_SECONDS = 60  # a live scheduler moves a due retry within a second or two
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
CHECK_HEALTH = "worker.jobs.check_health"
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
# The lanes jobs wait in, each run by its own worker (deploy/watchbuyers-worker@.service) or,
# without Redis, its own thread: the replica's copies wait on the object storage, and the calls
# to outside services (the bank, the label provider, the register, the market data) wait on
# them, up to their time-outs; any of them may be slow, and none may hold up the next lead's
# e-mails, which wait in the default lane.
QUEUES = ("default", "copies", "providers")
CALLS_A_PROVIDER = (SEND_PAYOUT, APPLY_PAYOUT_EVENT, BUY_LABEL, BOOK_PICKUP, ASK_REGISTER,
                    FETCH_MARKET_PRICES)  # fmt: skip
LANES = {COPY_FILES: "copies", **dict.fromkeys(CALLS_A_PROVIDER, "providers")}


def init_app(app: Flask) -> None:
    """Bind Flask-RQ when REDIS_URL is set (its connection is derived in app.config);
    otherwise give the app its in-process runner, started on first use in each process."""
    if app.config["REDIS_URL"]:
        app.config.setdefault("RQ_QUEUES", list(QUEUES))
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
    background thread. False if Redis could not take it, or, for a request, rests after failing
    just now (app/redis_guard.py: not even tried, so a dead Redis never holds a seller); the
    caller's record of the work (a pending column, an unanswered event, a request row) is what
    the sweep and `flask leads requeue` find."""
    runner = current_app.extensions.get("lead_work")
    if runner is not None:
        runner.submit(job_name, *ids)
        return True
    if has_request_context() and resting(current_app):  # a command or a job tries each time
        current_app.logger.warning("%s%s not queued (Redis failed just now).", job_name, ids)
        return False
    try:
        lane = rq.get_queue(lane_of(job_name))
        lane.enqueue(job_name, *ids, retry=retry_policy(), job_timeout=JOB_TIMEOUT)
    except RedisError as error:
        rest(current_app, error, f"{job_name}{ids} not queued")
        return False
    return True


def in_flight() -> set[tuple[str, tuple[int, ...]]]:
    """The jobs (name, ids) some runner has in hand: queued, waiting for a retry a scheduler
    will run, or running (on Redis, by a worker whose heartbeat still holds: RQ moves a dead
    worker's job on when asked, here). The sweep leaves their work to them."""
    runner = current_app.extensions.get("lead_work")
    if runner is not None:
        return runner.in_hand()
    found = set()
    for lane in rq.queues.values():
        ids = [*lane.get_job_ids(), *lane.intermediate_queue.get_job_ids(), *retries_due(lane)]
        for registry in (lane.deferred_job_registry, lane.started_job_registry):
            ids += registry.get_job_ids()  # the started registry's cleanup runs after the above
        jobs = lane.job_class.fetch_many(ids, connection=lane.connection)
        found |= {(job.func_name, tuple(job.args)) for job in jobs if job is not None}
    return found


def retries_due(lane) -> list[str]:
    """The jobs waiting in `lane` for a retry that a scheduler can still be counted on to run:
    not yet due, or due less than RETRY_OVERDUE_SECONDS ago. A retry later than that has no
    scheduler (its worker was killed with its scheduler, whose lock a restarted worker takes
    only at its ten-minute maintenance), so its work is the sweep's; should the retry run
    after all, the job's own records make it do nothing more."""
    registry = lane.scheduled_job_registry
    overdue = set(registry.get_jobs_to_schedule(int(time.time()) - RETRY_OVERDUE_SECONDS))
    return [job_id for job_id in registry.get_job_ids() if job_id not in overdue]


def redis_error() -> str | None:
    """Why Redis does not answer (None when it does, or when there is no Redis)."""
    if not on_redis():
        return None
    try:
        rq.queue.connection.ping()
    except RedisError as error:
        return str(error)
    return None


def failed_since(seconds: float) -> list[tuple[str, tuple, str]]:
    """The jobs whose last try failed within the last `seconds` (their retries used up, or
    abandoned by a dead worker): name, ids and the error's last line, from RQ's failed-job
    registries (each job kept there DEFAULT_FAILURE_TTL, so its score says when it failed)."""
    found = []
    for lane in rq.queues.values():
        since = time.time() - seconds + DEFAULT_FAILURE_TTL
        ids = lane.connection.zrangebyscore(lane.failed_job_registry.key, since, "+inf")
        for job in lane.job_class.fetch_many([as_text(i) for i in ids], lane.connection):
            if job is not None:
                result = job.latest_result()
                lines = (result.exc_string or "").strip().splitlines() if result else []
                found.append((job.func_name, tuple(job.args), lines[-1][:200] if lines else ""))
    return found


def on_redis() -> bool:
    """Whether jobs go to Redis, where every process's are seen (else only this one's)."""
    return "lead_work" not in current_app.extensions


def lane_of(job_name: str) -> str:
    """The queue a job waits in (QUEUES)."""
    return LANES.get(job_name, QUEUES[0])


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
    """The embedded default's job runner: one thread per lane (QUEUES) and process, started
    lazily (after any fork), that runs each job after the response. A failed job is logged
    with its ids and run again after each of JOB_RETRY_INTERVALS, as RQ's retries would; after
    the last it stays pending for the sweep, which runs at start-up and every
    JOB_SWEEP_SECONDS, leaving alone what the runner has in hand. Retries live in this
    process's memory only: a restart forgets them and the sweep takes over."""

    def __init__(self, app: Flask):
        self.app = app
        self.lanes: dict[str, queue.Queue[tuple[str, tuple[int, ...], int]]] = {}
        self.held: Counter[tuple[str, tuple[int, ...]]] = Counter()
        self.owner_pid: int | None = None
        self.start_lock = threading.Lock()
        self.held_lock = threading.Lock()

    def submit(self, job_name: str, *ids: int) -> None:
        """Queue one job on its lane's thread; it is in hand until it ends or gives up."""
        self.ensure_started()
        with self.held_lock:
            self.held[(job_name, ids)] += 1
        self.put((job_name, ids, 0))

    def in_hand(self) -> set[tuple[str, tuple[int, ...]]]:
        """The jobs queued, running or waiting for a retry here."""
        with self.held_lock:
            return {job for job, count in self.held.items() if count > 0}

    def put(self, job: tuple[str, tuple[int, ...], int]) -> None:
        """Put a job (name, ids, attempt) on its lane."""
        self.lanes[lane_of(job[0])].put(job)

    def ensure_started(self) -> None:
        """Start the threads and the sweeps once in each process (a forked child gets its
        own)."""
        if self.owner_pid == os.getpid():
            return
        with self.start_lock:
            if self.owner_pid == os.getpid():
                return
            self.lanes = {name: queue.Queue() for name in QUEUES}  # a fork's own, empty ones
            self.held = Counter({(SWEEP_PENDING_WORK, ()): 1})
            self.put((SWEEP_PENDING_WORK, (), 0))  # what a crash left, first
            for name, jobs in self.lanes.items():
                threading.Thread(target=self.run, args=(jobs,), name=f"jobs-{name}",
                                 daemon=True).start()  # fmt: skip
            if self.app.config["JOB_SWEEP_SECONDS"]:
                threading.Thread(target=self.sweep, name="jobs-sweep", daemon=True).start()
            self.owner_pid = os.getpid()
            atexit.register(self.wait_until_idle, EXIT_GRACE_SECONDS)

    def sweep(self) -> None:
        """Queue the sweep every JOB_SWEEP_SECONDS, unless the last one is still in hand."""
        while True:
            time.sleep(self.app.config["JOB_SWEEP_SECONDS"])
            if (SWEEP_PENDING_WORK, ()) not in self.in_hand():
                self.submit(SWEEP_PENDING_WORK)

    def later(self, seconds: float, job: tuple[str, tuple[int, ...], int]) -> None:
        """Put a job on its lane after `seconds` (a daemon timer: it dies with the process)."""
        timer = threading.Timer(seconds, self.put, [job])
        timer.daemon = True
        timer.start()

    def run(self, jobs: queue.Queue) -> None:
        """A lane's thread: each job in its own app context, one at a time, for ever."""
        while True:
            job_name, ids, attempt = jobs.get()
            retried = False
            try:
                with self.app.app_context():
                    import_attribute(job_name)(*ids)
            except Exception:
                retried = self.retry_or_give_up(job_name, ids, attempt)
            finally:
                if not retried:
                    with self.held_lock:
                        self.held[(job_name, ids)] -= 1
                jobs.task_done()

    def retry_or_give_up(self, job_name: str, ids: tuple[int, ...], attempt: int) -> bool:
        """Log a failed job and queue its next try after the next of JOB_RETRY_INTERVALS (True),
        or say it stays pending for the sweep once they are used up (False)."""
        intervals = self.app.config["JOB_RETRY_INTERVALS"]
        if attempt < len(intervals):
            self.app.logger.exception(
                "%s%s failed; retrying in %s s (retry %d of %d).",
                job_name, ids, intervals[attempt], attempt + 1, len(intervals),
            )  # fmt: skip
            self.later(intervals[attempt], (job_name, ids, attempt + 1))
            return True
        self.app.logger.exception("%s%s failed; it stays pending for the sweep.", job_name, ids)
        return False

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued job of every lane has run (a CLI command, tests, a
        graceful exit); a retry still waiting for its interval is not queued yet."""
        deadline = None if timeout is None else time.monotonic() + timeout
        lanes = list(self.lanes.values())
        while any(jobs.unfinished_tasks for jobs in lanes):  # a job may queue on another lane
            for jobs in lanes:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                with jobs.all_tasks_done:
                    if not jobs.all_tasks_done.wait_for(lambda j=jobs: not j.unfinished_tasks,
                                                        left):  # fmt: skip
                        return False
        return True
