"""E-mails to staff about signed sales still unpaid when the business day ends
(app/sale/purchase/deadline.py): the site promises payment the same day the seller accepts the
final offer, so a person should look. One e-mail per lead and business day, recorded on the
lead's timeline; a lead paid in time, or closed, is no longer late and gets none."""

from __future__ import annotations

from datetime import date
from email.message import EmailMessage

from flask import current_app

from app.leads import email_kinds, history, store
from app.leads.display import local_time, usd
from app.sale.purchase import deadline
from app.sale.purchase.paperwork import agreed_price
from worker import mail

TITLE = "Still unpaid at the end of the business day"
NOTHING_LACKING = "nothing: every check is done, only the payment is left to send"


def late_message(lead: dict, late: deadline.Late, day: date) -> EmailMessage:
    """The alert for one late lead: when it was signed and due, the price, and what is still
    missing before it can be paid (or that only the payment is)."""
    details = [
        ("Signed", local_time(late.signed_at)),
        ("Due by", local_time(late.due_by.isoformat())),
        ("Price", usd(agreed_price(lead["id"]) or 0)),
        ("Missing", "; ".join(late.lacking) or NOTHING_LACKING),
    ]
    return mail.staff_alert(lead, TITLE, local_time(deadline.day_end(day).isoformat()), details)


def send_late_alerts() -> str:
    """E-mail staff about each late lead not yet alerted today, once today's business day has
    ended; left for the next run while mail is not configured."""
    at = deadline.now()
    late = deadline.late_leads(at)
    if not late:
        return "none late"
    if not mail.is_configured():
        current_app.logger.warning("STAFF_EMAIL/SMTP_HOST not set, %s late payments.", len(late))
        return "not configured"
    day, sent = deadline.day_of(at), 0
    for each in late:
        if history.alerted_on(each.lead_id, deadline.ALERTED, day):
            continue
        sent += (
            mail.send_once(
                email_kinds.LATE_PAYMENT.key(each.lead_id, day.isoformat()),
                each.lead_id,
                lambda each=each: late_message(store.get_lead(each.lead_id), each, day),
                lambda each=each: history.record_alert_on(each.lead_id, deadline.ALERTED, day),
            )
            == mail.Outcome.SENT
        )
    current_app.logger.info("Late payments: %s late, %s alerted now.", len(late), sent)
    return f"{len(late)} late, {sent} alerted now"
