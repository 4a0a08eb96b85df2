"""Work a lead is still owed, found from the leads' own records and handed to the queue again:
by `flask leads requeue` after a Redis or mail outage, and by each process's start-up sweep
without Redis after a crash.

What is owed is always written down before it is queued (a work column still empty, a state
change or seller action whose e-mail is not recorded, a lost-link request row, a purchase not
settled on every configured ad platform or without its documents, a payout's bank event not
applied, call to the bank not made or staff e-mail not sent), so finding it again needs nothing
from the queue. An e-mail already claimed is not owed (app/leads/email_claims.py): one
whose send is unsure is put before staff instead, never sent again.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import current_app

from app import queue
from app.conversions import records as conversions
from app.leads import email_claims, history, links, store
from app.replica import copies, erasure_log
from app.sale import erasure, lifecycle
from app.sale.purchase import bank_payouts, documents, payout

STALE_AFTER = timedelta(minutes=2)  # in-process work of a live process is done well before


class QueueDown(RuntimeError):
    """Redis could not take the work; what was not queued stays on record for next time."""


@dataclass
class Requeued:
    """What was handed to the queue, for `flask leads requeue` to report."""

    leads: list[dict] = field(default_factory=list)
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
    payout_events: list[int] = field(default_factory=list)
    payouts: list[int] = field(default_factory=list)
    payout_alerts: list[tuple[int, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any(vars(self).values())


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
    ("payout_events", queue.APPLY_PAYOUT_EVENT, bank_payouts.events_to_apply),
    ("payouts", queue.SEND_PAYOUT, bank_payouts.payouts_owed),
    ("payout_alerts", queue.ALERT_PAYOUT, bank_payouts.alerts_owed),
)  # fmt: skip


def requeue_all() -> Requeued:
    """Queue every lead's unfinished work, the seller e-mails and staff alerts not sent yet, the
    lost-link requests not answered yet, the erasure links and confirmed erasures not done yet,
    the purchases not yet reported to every ad platform, the purchase documents not yet made,
    staff's e-mails about unsure ones and what payouts owe. Raises QueueDown if Redis refuses."""
    done = Requeued()
    for lead in store.leads_with_pending_work():
        enqueue_or_raise(queue.PROCESS_LEAD, lead["id"])
        done.leads.append(lead)
    for name, job_name, find in OWED:
        for ids in find():
            enqueue_or_raise(job_name, *(ids if isinstance(ids, tuple) else (ids,)))
            getattr(done, name).append(ids)
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


def sweep_stale_leads() -> int:
    """Queue the work of leads made more than STALE_AFTER ago that is still not done, the
    purchase reports and documents of leads bought (or corrected) that long ago, and staff's
    e-mails about e-mails a crash left unsure, unless another process is sweeping (newer work
    may be a live process's, left alone); how many jobs were queued."""
    with sweep_lock(current_app.config["LEADS_DB"]) as allowed:
        if not allowed:
            return 0
        cutoff = (datetime.now(UTC) - STALE_AFTER).isoformat(timespec="seconds")
        stale = store.leads_with_pending_work(created_before=cutoff)
        for lead in stale:
            current_app.logger.info("Lead %s: picking up its pending work.", lead["id"])
            queue.enqueue(queue.PROCESS_LEAD, lead["id"])
        bought = conversions.unreported_purchases(bought_before=cutoff)
        for lead_id in bought:
            current_app.logger.info("Lead %s: picking up its purchase report.", lead_id)
            queue.enqueue(queue.REPORT_PURCHASE, lead_id)
        owed = documents.leads_owed_documents(changed_before=cutoff)
        for lead_id in owed:
            current_app.logger.info("Lead %s: picking up its purchase documents.", lead_id)
            queue.enqueue(queue.MAKE_PURCHASE_DOCUMENTS, lead_id)
        to_copy = copies.leads_owing(since_before=cutoff)
        for lead_id in to_copy:
            current_app.logger.info("Lead %s: picking up its replica copies.", lead_id)
            queue.enqueue(queue.COPY_FILES, lead_id)
        unsure = email_claims.unsure_to_report(claimed_before=cutoff)
        for claim_id in unsure:
            current_app.logger.info(
                "E-mail claim %s: unsure whether it went; staff told.", claim_id
            )
            queue.enqueue(queue.REPORT_UNSURE_EMAIL, claim_id)
        return len(stale) + len(bought) + len(owed) + len(to_copy) + len(unsure)
