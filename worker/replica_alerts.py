"""The replication check deploy/watchbuyers-replication.timer runs every minute (`flask
leads replication check`): copy what is still owed, then e-mail staff, at most once an hour,
when the replica is behind, its storage does not answer, a copy keeps failing, or the bucket
would keep deleted data longer than the privacy policy says (app/replica/monitor.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from flask import current_app

from app.leads import db, email_kinds
from app.leads.display import local_time
from app.replica import copies, erasure_log, monitor, objects
from worker import mail

CATCH_UP_AFTER = timedelta(minutes=1)  # newer debts are the writing job's, still at work


def catch_up() -> int:
    """Sync every lead with a copy or deletion owed for over a minute, and store the erasure
    entries the bucket does not hold yet; how many files moved."""
    cutoff = (datetime.now(UTC) - CATCH_UP_AFTER).isoformat(timespec="seconds")
    done = copies.sync_owing(since_before=cutoff)
    store_erasure_entries()
    return len(done.copied) + len(done.deleted)


def store_erasure_entries() -> None:
    """Store the erasure entries still owed; a storage failure is left to the report (the
    entries stay owed for the next check)."""
    try:
        stored = erasure_log.upload_owed()
    except objects.ReplicaError as error:
        current_app.logger.warning("Replica: erasure entries not stored (%s).", error)
        return
    if stored:
        current_app.logger.info("Replica: %s erasure entries stored.", stored)


def alert_message(problems: list[str], report: monitor.Report) -> EmailMessage:
    """The staff e-mail: what is wrong, what the replica holds, and where to look."""
    context = {
        "problems": problems,
        "lines": report.lines(),
        "when": local_time(db.now()),
    }
    subject = "The off-site replica needs attention"
    return mail.to_staff(subject, "emails/replication_alert.txt", context)


def check_replication() -> str:
    """Look at the replica first (an answer from the storage ends any rest, so the copies go
    at once after an outage), catch up owed copies, then alert staff if the replica still has
    a problem (the records read again; the storage is asked once)."""
    report = monitor.report()
    moved = catch_up()
    monitor.read_records(report)
    problems = report.problems()
    if not problems:
        return f"replica healthy; {moved} files caught up"
    current_app.logger.warning("Replica: %s.", "; ".join(problems))
    if not mail.is_configured():
        return "problems, but mail is not configured: " + "; ".join(problems)
    hour = datetime.now(UTC).strftime("%Y-%m-%dT%H")
    sent = mail.send_once(
        email_kinds.REPLICA.key(hour), None, lambda: alert_message(problems, report)
    )
    if sent == mail.Outcome.CLAIMED:
        return "problems; staff already alerted this hour"
    told = "staff alerted" if sent == mail.Outcome.SENT else f"staff alert {sent}"
    return f"problems; {told}: " + "; ".join(problems)
