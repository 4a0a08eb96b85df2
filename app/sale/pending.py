"""Work a lead is still owed, found from the leads' own records and handed to the queue again:
by the sweep, on a schedule (the health check's timer with Redis, deploy/watchbuyers-health
.timer; each process's own runner without it, at start-up and every JOB_SWEEP_SECONDS), and
by `flask leads requeue`, which an operator may run at any time.

What is owed is always written down before it is queued (a work column still empty, a state
change or seller action whose e-mail is not recorded, a lost-link request row, a purchase not
settled on every configured ad platform or without its documents, a payout's bank event not
applied, call to the bank not made or staff e-mail not sent), so finding it again needs
nothing from the queue: a worker killed mid-job, a Redis flushed or restarted, a crash, or a
job whose retries ran out leaves its work owed, and the next sweep queues it. The sweep leaves
alone what a runner has in hand (queued, waiting for a retry, running), so it never doubles
work the jobs' own records would have to absorb. An e-mail already claimed is not owed
(app/leads/email_claims.py): one whose send is unsure is put before staff instead, never sent
again.
"""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import current_app
from redis.exceptions import RedisError

from app import queue
from app.conversions import records as conversions
from app.leads import email_claims, history, links, store
from app.leads.db import now, transaction
from app.replica import copies, erasure_log
from app.sale import erasure, lifecycle
from app.sale.purchase import bank_payouts, documents, payout, register_asks

STALE_AFTER = timedelta(minutes=2)  # in-process work of a live process is done well before


class QueueDown(RuntimeError):
    """Redis could not take the work; what was not queued stays on record for next time."""


@dataclass
class Requeued:
    """What was handed to the queue, for `flask leads requeue` to report."""

    leads: list[int] = field(default_factory=list)
    seller_emails: list[tuple[int, int]] = field(default_factory=list)
    staff_alerts: list[tuple[int, int]] = field(default_factory=list)
    link_requests: list[int] = field(default_factory=list)
    erasure_links: list[int] = field(default_factory=list)
    payout_checks: list[int] = field(default_factory=list)
    erasures: list[int] = field(default_factory=list)
    purchases: list[int] = field(default_factory=list)
    documents: list[int] = field(default_factory=list)
    file_copies: list[int] = field(default_factory=list)
    erasure_entries: list[int] = field(default_factory=list)
    unsure_emails: list[int] = field(default_factory=list)
    register_asks: list[int] = field(default_factory=list)
    payout_events: list[int] = field(default_factory=list)
    payouts: list[int] = field(default_factory=list)
    payout_alerts: list[tuple[int, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any(vars(self).values())

    def count(self) -> int:
        """How many jobs were queued."""
        return sum(len(queued) for queued in vars(self).values())


def enqueue_or_raise(job_name: str, *ids: int) -> None:
    """Queue one job, or raise QueueDown so nothing more is tried against a dead Redis."""
    if not queue.enqueue(job_name, *ids):
        raise QueueDown("Redis is unreachable; nothing more was queued.")


# What else is owed, by the Requeued field that reports it, its job and where it is on record;
# each finder yields the job's ids (one id, or a tuple of them). The documents come first: the
# "paid" e-mail attaches the stored files and waits for them.
OWED = (
    ("documents", queue.MAKE_PURCHASE_DOCUMENTS, documents.leads_owed_documents),
    ("seller_emails", queue.SEND_SELLER_EMAIL,
     lambda: history.unsent_seller_emails(tuple(lifecycle.SELLER_EMAILS))),
    ("staff_alerts", queue.ALERT_STAFF, history.unalerted_seller_events),
    ("link_requests", queue.SEND_STATUS_LINKS, links.waiting_link_requests),
    ("erasure_links", queue.SEND_ERASURE_LINK, erasure.links_to_send),
    ("payout_checks", queue.SEND_PAYOUT_CHECK, payout.checks_to_send),
    ("erasures", queue.ERASE_AT_SELLERS_REQUEST, erasure.confirmed_erasures),
    ("purchases", queue.REPORT_PURCHASE, conversions.unreported_purchases),
    ("file_copies", queue.COPY_FILES, copies.leads_owing),
    ("erasure_entries", queue.COPY_FILES, erasure_log.leads_owing),
    ("unsure_emails", queue.REPORT_UNSURE_EMAIL, email_claims.unsure_to_report),
    ("register_asks", queue.ASK_REGISTER, register_asks.open_questions),
    ("payout_events", queue.APPLY_PAYOUT_EVENT, bank_payouts.events_to_apply),
    ("payouts", queue.SEND_PAYOUT, bank_payouts.payouts_owed),
    ("payout_alerts", queue.ALERT_PAYOUT, bank_payouts.alerts_owed),
)  # fmt: skip


# The finders that can leave out work newer than a cutoff (without Redis, another live
# process's), by the keyword each takes it by.
SINCE = {"documents": "changed_before", "purchases": "bought_before",
         "file_copies": "since_before", "unsure_emails": "claimed_before",
         "register_asks": "asked_before"}  # fmt: skip
TIMED = {"leads", *SINCE}


def owed_jobs(cutoff: str | None = None) -> Iterator[tuple[str, str, tuple[int, ...]]]:
    """Every job the records say is owed, as (Requeued field, job name, ids): each lead's
    unfinished work, then OWED. With `cutoff` (a stored time), leads made before it only, and
    the purchases, documents and copies owed since before it."""
    for lead in store.leads_with_pending_work(created_before=cutoff):
        yield "leads", queue.PROCESS_LEAD, (lead["id"],)
    for name, job_name, find in OWED:
        since = {SINCE[name]: cutoff} if cutoff and name in SINCE else {}
        for ids in find(**since):
            yield name, job_name, ids if isinstance(ids, tuple) else (ids,)


def requeue_all() -> Requeued:
    """Queue every lead's unfinished work, the seller e-mails and staff alerts not sent yet, the
    lost-link requests not answered yet, the erasure links and confirmed erasures not done yet,
    the purchases not yet reported to every ad platform, the purchase documents not yet made,
    staff's e-mails about unsure ones, the register questions not answered and what payouts
    owe, whatever the queue holds already. Raises QueueDown if Redis refuses."""
    return queue_each(owed_jobs())


def queue_each(owed: Iterable[tuple[str, str, tuple[int, ...]]]) -> Requeued:
    """Queue each owed job, reported by its Requeued field (a lone id as itself)."""
    done = Requeued()
    for name, job_name, ids in owed:
        enqueue_or_raise(job_name, *ids)
        getattr(done, name).append(ids if len(ids) > 1 else ids[0])
    return done


@contextmanager
def sweep_lock(leads_db: str) -> Iterator[bool]:
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


def sweep() -> Requeued:
    """Queue every job owed that no runner has in hand (queue.in_flight, read after the
    records, so a job that ends meanwhile is queued again, never one that starts meanwhile
    missed), unless another process is sweeping. Without Redis, other processes' jobs cannot be
    seen: only work owed for longer than STALE_AFTER is queued. Raises QueueDown if Redis
    refuses."""
    with sweep_lock(current_app.config["LEADS_DB"]) as allowed:
        if not allowed:
            return Requeued()
        owed = list(owed_jobs())
        since = note_owed(owed)
        due = owed if queue.on_redis() else owed_a_while(owed, since)
        try:
            in_hand = queue.in_flight()
        except RedisError as error:
            raise QueueDown(f"Redis is unreachable ({error}); nothing was queued.") from error
        fresh = {}  # one job for a lead's copies, however many kinds of them it owes
        for name, job_name, ids in due:
            if (job_name, ids) not in in_hand:
                fresh.setdefault((job_name, ids), name)
        for job_name, ids in fresh:
            current_app.logger.info("Sweep: queuing %s%s, owed and in no runner's hand.",
                                    job_name, ids)  # fmt: skip
        return queue_each((name, job_name, ids) for (job_name, ids), name in fresh.items())


def note_owed(owed: list[tuple[str, str, tuple[int, ...]]]) -> dict[tuple, str]:
    """Record when each owed job was first seen owed, forgetting those no longer owed; when
    each was (the table the health check reads too)."""
    keys = {(job_name, json.dumps(ids)) for _, job_name, ids in owed}
    seen_now = now()
    with transaction() as db:
        known = {(row["job"], row["ids"]): row["first_seen"]
                 for row in db.execute("SELECT * FROM owed_work")}  # fmt: skip
        db.executemany("DELETE FROM owed_work WHERE job = ? AND ids = ?", known.keys() - keys)
        db.executemany("INSERT OR IGNORE INTO owed_work VALUES (?, ?, ?)",
                       [(*key, seen_now) for key in keys - known.keys()])  # fmt: skip
    return {(job, tuple(json.loads(ids))): known.get((job, ids), seen_now) for job, ids in keys}


def owed_a_while(owed: list[tuple[str, str, tuple[int, ...]]], since: dict) -> list:
    """The jobs owed for longer than STALE_AFTER: by their record's own time where the finder
    knows it (a lead's, a purchase's...), else since a sweep first saw them owed."""
    cutoff = (datetime.now(UTC) - STALE_AFTER).isoformat(timespec="seconds")
    timed = {(job, ids) for name, job, ids in owed_jobs(cutoff) if name in TIMED}
    return [
        (name, job, ids)
        for name, job, ids in owed
        if (job, ids) in timed or (name not in TIMED and since[(job, ids)] < cutoff)
    ]
