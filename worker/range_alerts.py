"""The staff e-mail about unusual use of the instant range (app/sell/range_limits.py): queued
once a day at most, by the request that claimed the day. The request cannot pass what it saw
(jobs take ids only), so the e-mail names both causes and points to the log that says which."""

from __future__ import annotations

from email.message import EmailMessage

from flask import current_app

from app.leads import email_kinds
from app.leads.db import utc_day
from worker import mail


def volume_message() -> EmailMessage:
    """The alert: what counts as unusual, where to look, what to do."""
    config = current_app.config
    context = {
        "day": utc_day(),
        "per_client": config["SELL_RANGE_RATELIMIT"].replace(";", ", "),
        "per_day": f"{config['SELL_RANGE_ALERT_PER_DAY']:,}",
    }
    subject = "Unusual use of the instant price range"
    return mail.to_staff(subject, "emails/range_volume_alert.txt", context)


def send_volume_alert() -> str:
    """E-mail staff the day's alert, once (the request that queued it claimed the day)."""
    if not mail.is_configured():
        current_app.logger.warning("STAFF_EMAIL/SMTP_HOST not set, no instant range alert.")
        return "not configured"
    return mail.send_once(email_kinds.RANGE_VOLUME.key(utc_day()), None, volume_message)
