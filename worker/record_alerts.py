"""E-mails to staff about a purchase record no configured key opens (the transaction register
left it out, app/sale/purchase/register.py): the law requires it in the register, so a person
must bring the key back. One e-mail per lead and day, recorded on the lead's timeline."""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, history, store
from app.leads.db import now
from app.leads.display import business_today, local_time
from worker import mail

ALERTED = "record_unreadable_alerted"  # the timeline event of one day's e-mail to staff
TITLE = "Purchase record does not open: left out of the register"
WHAT_TO_DO = (
    "A value of this purchase opens with none of the keys in PURCHASE_DATA_KEY. Put back the "
    "key it was written under (after the current one), check with flask purchases check-keys, "
    "then export the register again."
)


def send_unreadable_alert(lead_id: int) -> str:
    """E-mail staff that the lead's purchase record does not open, unless they were today."""
    today = business_today()
    if history.alerted_on(lead_id, ALERTED, today):
        return "already alerted today"
    if not mail.is_configured():
        current_app.logger.warning(
            "STAFF_EMAIL/SMTP_HOST not set, unreadable purchase %s.", lead_id
        )
        return "not configured"
    lead = store.get_lead(lead_id)
    details = [("What to do", WHAT_TO_DO)]
    sent = mail.send_once(
        email_kinds.UNREADABLE.key(lead_id, today.isoformat()),
        lead_id,
        lambda: mail.staff_alert(lead, TITLE, local_time(now()), details),
        lambda: history.record_alert_on(lead_id, ALERTED, today),
    )
    return "alerted" if sent == mail.Outcome.SENT else sent
