"""The stolen-watch register asked by API (app/sale/purchase/register_asks.py): the job that
asks and records the answer, and the e-mail that tells staff when a person must act: a flagged
watch (the sale is on hold), or no usable answer after every retry or an unknown one (check
the register by hand). One e-mail per question, recorded on the lead's timeline; none replies to
the seller."""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, history, store
from app.leads.db import get_db
from app.leads.display import local_time
from app.sale.purchase import register_asks
from worker import mail

WHAT_TO_DO = {
    "flagged": (
        "Stolen-watch register: FLAGGED, the sale is on hold",
        "The register reports this watch. Do not buy it, return it or tell the seller why, and "
        "do not answer the seller from this e-mail: their status page and e-mails read as for "
        "any sale until you choose, on the lead's purchase panel, to tell them only that it is "
        "on hold pending checks. Follow the register's instructions (its reference is on the "
        "lead's purchase panel and in the register row).",
    ),
    "failed": (
        "Stolen-watch register: no answer, check by hand",
        "The register gave no usable answer after every retry. Search it on its own website and "
        "record the check with its certificate on the lead's purchase panel.",
    ),
    "unknown": (
        "Stolen-watch register: cannot say, check by hand",
        "The register could not say whether this serial number is reported. Search it on its "
        "own website and record the check with its certificate on the lead's purchase panel.",
    ),
}


def ask_register(ask_id: int) -> str:
    """Ask the register the question `ask_id` and record its answer (a failed try raises, for
    RQ to retry); then, when a person must act, e-mail staff once."""
    outcome = register_asks.put_to_register(ask_id)
    ask = register_asks.get(ask_id)
    if ask["outcome"] in WHAT_TO_DO:
        return f"{outcome}; {alert_staff(ask)}"
    return outcome


def alert_staff(ask: dict) -> str:
    """E-mail staff what the question's outcome asks of them, unless it was already sent."""
    answered = (
        get_db()
        .execute(
            "SELECT id, at FROM lead_events WHERE lead_id = ? AND kind = 'register_answered' "
            "AND json_extract(data, '$.ask') = ?",
            (ask["lead_id"], ask["id"]),
        )
        .fetchone()
    )
    if answered is None or history.email_sent(answered["id"], kind="staff_alerted"):
        return "staff already alerted"
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set.", ask["lead_id"])
        return "staff not alerted: mail not configured"
    title, what_to_do = WHAT_TO_DO[ask["outcome"]]
    lead = store.get_lead(ask["lead_id"])
    details = [("What to do", what_to_do)]
    when = local_time(answered["at"])
    sent = mail.send_once(
        email_kinds.STAFF_ALERT.key(answered["id"]),
        lead["id"],
        lambda: mail.staff_alert(lead, title, when, details, reply_to_seller=False),
        lambda: history.record_email(
            lead["id"], answered["id"], "register_alert", kind="staff_alerted"
        ),
    )
    return "staff alerted" if sent == mail.Outcome.SENT else f"staff alert {sent}"
