"""How long what we hold is kept (DESIGN.md, "The purchase on record"), and the SQL of the daily
run that applies it: bank details PAYOUT_DETAILS_DAYS after payment, leads that never became
purchases after LEAD_RETENTION_MONTHS without activity, and purchase records once past their
retain_until (PURCHASE_RETENTION_YEARS after payment); also what a bought lead keeps when its
seller has the rest erased. worker/retention.py applies the rules, one lead per transaction,
each recorded in the audit log and on the lead's timeline.

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
from app.leads import store
from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.display import business_today
from app.leads.history import append_event
from app.sale.purchase import files, record

RETENTION = "retention"  # the daily run's name in daily_runs
CHECK_EVERY_SECONDS = 600
# The purchase record's personal fields, blanked once it is past retain_until: the paperwork's
# (the seller's identity, ID, bank details and signature record) and the register certificate.
# The outcome stays (reference, watch, dates, price, payment, register result, when it was
# signed and checked and the declaration's hash), so the dashboard's figures do not change.
OUTCOME_COLUMNS = ("declaration_sha256", "signed_at", "id_verified_by", "id_verified_at")
PERSONAL_FIELDS = (
    *(column for column in record.PAPERWORK_COLUMNS if column not in OUTCOME_COLUMNS),
    "register_certificate",
)
# Timeline data that named the seller's ID or account, even by its last 4: dropped with the record.
PERSONAL_EVENT_KEYS = ("id_last4", "account_last4")


def claim_today(name: str) -> bool:
    """Claim today's (UTC) run of `name`: True for the one caller that claims it first, in any
    process; False if it was already claimed today."""
    today = datetime.now(UTC).date().isoformat()
    with transaction() as db:
        cursor = db.execute(
            "INSERT INTO daily_runs (name, ran_on) VALUES (?, ?) ON CONFLICT (name) "
            "DO UPDATE SET ran_on = excluded.ran_on WHERE daily_runs.ran_on < excluded.ran_on",
            (name, today),
        )
    return cursor.rowcount == 1


def give_back(name: str) -> None:
    """Release today's claim of a run that could not be queued (Redis down), so the next check,
    in whichever process, claims and queues it again."""
    with transaction() as db:
        db.execute(
            "DELETE FROM daily_runs WHERE name = ? AND ran_on = ?",
            (name, datetime.now(UTC).date().isoformat()),
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
    themselves (tests/test_retention.py) and must not find one they did not queue."""
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
        "SELECT id AS lead_id, state, last_activity_at FROM leads WHERE state != 'bought' "
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


def erase_payout_details(db: sqlite3.Connection, lead_id: int, actor: str) -> bool:
    """Inside the caller's transaction: the routing and account numbers gone (the holder's name
    and the account's last 4 stay, for the record of the payment), with the event that says
    so; False if they were already erased."""
    erased = record.update(
        db,
        lead_id,
        {"routing_number_enc": None, "account_number_enc": None, "payout_erased_at": now()},
        condition="payout_erased_at IS NULL",
    )
    if erased:
        append_event(db, lead_id, actor, "payout_details_erased")
    return erased


def forget_after_sale(db: sqlite3.Connection, lead_id: int, actor: str) -> list[str]:
    """A bought lead's purchase, inside the transaction erasing the lead at its seller's
    request: the bank details and the ID's photos go (the register needs the ID's details,
    not its images); the record and its documents stay until retain_until. The names of the
    files to delete once committed."""
    erase_payout_details(db, lead_id, actor)
    return files.remove(db, lead_id, files.ID_PHOTOS)


def erase_record(db: sqlite3.Connection, lead_id: int) -> list[str]:
    """Inside the caller's transaction, once its lead is marked erased: every personal field of
    the purchase record blanked and every purchase file's row dropped, with the event that says
    so; the names of the files to delete once committed (none if it was already erased)."""
    values = dict.fromkeys(PERSONAL_FIELDS) | {"record_erased_at": now()}
    if not record.update(db, lead_id, values, condition="record_erased_at IS NULL"):
        return []
    store.forget_event_keys(db, lead_id, PERSONAL_EVENT_KEYS)
    append_event(db, lead_id, "system", "purchase_record_erased")
    return files.remove(db, lead_id, files.KINDS)


def erase_kept_record(lead_id: int) -> bool:
    """The purchase record of a lead already erased at its seller's request, once past its
    retain_until: erase_record in a transaction of its own, then its files; False if another
    run erased it first."""
    with immediate_transaction() as db:
        if record.get(lead_id)["record_erased_at"]:
            return False
        names = erase_record(db, lead_id)
    files.remove_files(names)
    return True
