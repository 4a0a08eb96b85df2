"""E-mails to staff about their own accounts: an account's failed sign-in attempts reached the
ceiling (app/staff/throttle.py), so sign-in to it is stopped for the rest of the hour and a
person should look. Never carries anything typed: only the account, what was tried and when.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from email.message import EmailMessage

from flask import current_app

from app.leads import audit, email_kinds
from app.leads.display import local_time
from app.staff import queries, throttle
from worker import mail

CEILING_REACHED = "sign_in_ceiling_reached"
ALERT_SENT = "ceiling_alert_sent"


def ceiling_message(entry: dict, staff: dict) -> EmailMessage:
    """The alert for one ceiling reached, naming the account and what to do."""
    config = current_app.config
    until = datetime.fromisoformat(entry["data"]["until"])
    context = {
        "staff": staff,
        "entry": entry,
        "when": local_time(entry["at"]),
        "since": local_time((until - timedelta(seconds=throttle.CEILING_WINDOW)).isoformat()),
        "until": local_time(until.isoformat()),
        "site_url": config["SITE_URL"].rstrip("/"),
    }
    subject = f"Staff sign-in stopped for {staff['email']}"
    return mail.to_staff(subject, "emails/sign_in_ceiling.txt", context)


def send_ceiling_alert(entry_id: int) -> str:
    """E-mail staff about the ceiling entry `entry_id`, once (the sending is audited too)."""
    entry = audit.entry(entry_id)
    if entry is None or entry["action"] != CEILING_REACHED or entry["staff_id"] is None:
        raise LookupError(f"Audit entry {entry_id} is no ceiling reached by an account.")
    if audit.followed_up(ALERT_SENT, entry_id):
        return "already sent"
    if not mail.is_configured():
        current_app.logger.warning("STAFF_EMAIL/SMTP_HOST not set, no sign-in alert.")
        return "not configured"
    staff = queries.staff_by_id(entry["staff_id"])
    return mail.send_once(
        email_kinds.SIGN_IN_CEILING.key(entry_id),
        None,
        lambda: ceiling_message(entry, staff),
        lambda: audit.record(ALERT_SENT, staff["id"], data={"entry": entry_id}),
    )
