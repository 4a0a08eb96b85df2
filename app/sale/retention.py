"""How long what we hold is kept (docs/backups.md, "Retention"), and the SQL of the daily
run that applies it: bank details PAYOUT_DETAILS_DAYS after payment, leads that never became
purchases after LEAD_RETENTION_MONTHS without activity, and purchase records once past their
retain_until (PURCHASE_RETENTION_YEARS after payment). The rules are applied one lead per
transaction, each recorded in the audit log and on the lead's timeline; what the purchase record
loses each time is app/sale/purchase/record.py's. A lead that fails is logged and the others go
on; the run then raises, so RQ retries it, and what was done is no longer due. Log lines name
leads by id only.

When it runs: once a day (UTC), claimed in `daily_runs` by a conditional UPSERT, so of all the
web processes, workers and commands sharing leads.db only one wins each day. The trigger needs
no process of its own: on the requests Flask answers (page-cache hits and nginx's frozen pages
never reach it; forms, status and staff pages do), each web process checks at most once every
CHECK_EVERY_SECONDS (kept in memory, so a request costs a comparison) and, if it wins the day,
queues worker.jobs.apply_retention like any other job: on Redis, where `flask rq worker
--with-scheduler` runs it and retries it with backoff, or on the process's own job thread. Not
RQ's cron or a system timer: each is one more process or unit to install and keep alive, and
the site's processes already see every day. The rules are cut-off dates, so a day with no such
request, or a run that failed, is caught up in full by the next run; `flask purchases
retention` runs it at once (from cron too, if wanted).
"""

from __future__ import annotations

import calendar
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta

from flask import Flask, current_app

from app import queue
from app.leads import audit, erasure_record
from app.leads.db import (
    claim_today,
    get_db,
    immediate_transaction,
    transaction,
    truncate_wal,
    utc_day,
)
from app.leads.display import business_today
from app.leads.state import State
from app.prices import coverage
from app.replica import copies
from app.sale import erasure
from app.sale.lifecycle import TransitionError
from app.sale.purchase import drafts, record

RETENTION = "retention"  # the daily run's name in daily_runs
CHECK_EVERY_SECONDS = 600


def give_back(name: str) -> None:
    """Release today's claim of a run that could not be queued (Redis down), so the next check,
    in whichever process, claims and queues it again."""
    with transaction() as db:
        db.execute(
            "DELETE FROM daily_runs WHERE name = ? AND ran_on = ?",
            (name, utc_day()),
        )


def queue_if_due() -> bool:
    """Claim today's retention run and queue it; whether this process did. A busy database is
    left for the next check."""
    try:
        if not claim_today(RETENTION):
            return False
    except sqlite3.OperationalError as error:
        current_app.logger.warning("Retention not claimed (%s); checking again later.", error)
        return False
    if queue.enqueue(queue.APPLY_RETENTION):
        return True
    give_back(RETENTION)
    return False


class DailyCheck:
    """The before_request hook that starts the daily run: at most one claim per process every
    CHECK_EVERY_SECONDS, by whichever request comes first (the others do not wait for it)."""

    def __init__(self):
        self.next_check = 0.0
        self.lock = threading.Lock()

    def __call__(self) -> None:
        if time.monotonic() < self.next_check or not self.lock.acquire(blocking=False):
            return
        try:
            self.next_check = time.monotonic() + CHECK_EVERY_SECONDS
            queue_if_due()
        finally:
            self.lock.release()


def init_app(app: Flask) -> None:
    """Check for the day's run on requests; not in the test suite, whose apps run the job
    themselves (tests/sale/test_retention.py) and must not find one they did not queue."""
    if not app.testing:
        app.before_request(DailyCheck())


def months_before(moment: datetime, months: int) -> datetime:
    """The same time `months` calendar months earlier (the month's last day if it is shorter)."""
    year, month = divmod(moment.year * 12 + moment.month - 1 - months, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def rows(sql: str, *params) -> list[dict]:
    """A retention query's rows as dicts."""
    return [dict(row) for row in get_db().execute(sql, params)]


def payouts_due() -> list[dict]:
    """Purchases paid PAYOUT_DETAILS_DAYS ago or more whose bank details are still kept."""
    paid_by = business_today() - timedelta(days=current_app.config["PAYOUT_DETAILS_DAYS"])
    return rows(
        "SELECT lead_id, paid_on FROM purchases WHERE payout_erased_at IS NULL "
        "AND record_erased_at IS NULL AND paid_on <= ? ORDER BY lead_id",
        paid_by.isoformat(),
    )


def inactive_leads() -> list[dict]:
    """Leads that never became purchases, not erased, without activity for
    LEAD_RETENTION_MONTHS (a person's action, the seller's or staff's, is activity)."""
    months = current_app.config["LEAD_RETENTION_MONTHS"]
    cutoff = months_before(datetime.now(UTC), months).isoformat(timespec="seconds")
    return rows(
        f"SELECT id AS lead_id, state, last_activity_at FROM leads WHERE state != '{State.BOUGHT}' "
        "AND erased_at IS NULL AND last_activity_at < ? ORDER BY id",
        cutoff,
    )


def records_due() -> list[dict]:
    """Purchase records past their retain_until, not erased yet, with whether their lead's
    personal data is already erased (its seller asked)."""
    return rows(
        "SELECT purchases.lead_id, retain_until, leads.erased_at IS NOT NULL AS lead_erased "
        "FROM purchases JOIN leads ON leads.id = purchases.lead_id "
        "WHERE record_erased_at IS NULL AND retain_until < ? ORDER BY purchases.lead_id",
        business_today().isoformat(),
    )


# The run: each rule applied to what is due, one lead per transaction, each audited


class RetentionIncomplete(RuntimeError):
    """Some leads' retention failed (each is logged); raised so the run is retried."""


def erase_due_payout_details(due: dict) -> bool:
    """One purchase's bank details, PAYOUT_DETAILS_DAYS after its payment: erased and audited
    in one transaction."""
    with immediate_transaction() as db:
        if not record.erase_payout_details(db, due["lead_id"], "system"):
            return False
        days = current_app.config["PAYOUT_DETAILS_DAYS"]
        data = {"paid_on": due["paid_on"], "after_days": days}
        audit.record("payout_details_erased", None, due["lead_id"], data=data)
    return True


def erase_inactive_lead(due: dict) -> bool:
    """A lead that never became a purchase, LEAD_RETENTION_MONTHS without activity: closed if
    open, then erased; left alone if someone acted on it meanwhile."""
    try:
        photos = erasure.erase_inactive(due["lead_id"], due["state"])
    except TransitionError:
        return False
    data = {
        "photos": photos,
        "inactive_since": due["last_activity_at"][:10],
        "after_months": current_app.config["LEAD_RETENTION_MONTHS"],
    }
    audit.record("lead_erased", None, due["lead_id"], data=data)
    return True


def erase_purchase_record(due: dict) -> bool:
    """A purchase record past its retain_until: blanked with its files, and its lead erased too
    unless its seller already had that done."""
    if due["lead_erased"]:
        if not record.erase_kept_record(due["lead_id"]):
            return False
        erasure_record.log(due["lead_id"], erasure.WHOLE_RECORD, "system")
        copies.sync_later(due["lead_id"])  # its files' copies and its entry, as any erasure
    else:
        try:
            erasure.erase_sale(due["lead_id"], "system", whole_record=True)
        except TransitionError:  # erased at its seller's request meanwhile: next run
            return False
    data = {"retain_until": due["retain_until"]}
    audit.record("purchase_record_erased", None, due["lead_id"], data=data)
    return True


# Each rule: what the summary calls what it erased, what is due, and how one of them is done.
RULES = (
    ("bank details", payouts_due, erase_due_payout_details),
    ("leads", inactive_leads, erase_inactive_lead),
    ("purchase records", records_due, erase_purchase_record),
)


def apply_rules() -> str:
    """Apply every rule to whatever is due, then empty the WAL (its frames still hold what was
    blanked); a summary of what was erased."""
    erased: dict[str, int] = {}
    failed: list[int] = []
    for name, find_due, erase in RULES:
        erased[name] = 0
        for due in find_due():
            try:
                erased[name] += erase(due)
            except Exception:
                failed.append(due["lead_id"])
                current_app.logger.exception("Lead %s: retention (%s) failed.", failed[-1], name)
    erased["paperwork drafts"] = drafts.remove_expired()
    coverage.refresh()  # guide entries go stale with time, and the home page's promise with them
    truncate_wal()
    summary = "erased: " + ", ".join(f"{name} {count}" for name, count in erased.items())
    current_app.logger.info("Retention %s.", summary)
    if failed:
        raise RetentionIncomplete(f"Retention {summary}; failed for leads {failed}.")
    return summary
