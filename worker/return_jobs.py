"""The free insured return's jobs (app/shipping/returns.py): a closed sale by mail's return parcel
opened (its label is bought by worker/label_jobs.py, as the inbound's is), and the staff e-mail
that a watch is held and must not be returned. The e-mail names the lead only; why a watch is
held is on the staff pages, never in a job's arguments."""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, history, store
from app.shipping import returns
from worker import mail


def open_return_parcel(lead_id: int) -> str:
    """Open the closed lead's return parcel (or hold the watch), once."""
    return returns.open_return(lead_id)


def send_hold_alert(lead_id: int, event_id: int) -> str:
    """E-mail staff that the watch of lead `lead_id` is held and must not be returned, once."""
    if history.email_sent(event_id, kind="staff_alerted"):
        return "already sent"
    event = history.get_event(event_id)
    if event is None or event["lead_id"] != lead_id or event["kind"] != "shipment_return_held":
        raise LookupError(f"Lead {lead_id} has no held return {event_id}.")
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no alert.", lead_id)
        return "not configured"
    lead = store.get_lead(lead_id)
    context = {"lead": lead, "site_url": current_app.config["SITE_URL"].rstrip("/")}
    subject = f"HELD, do not return: the watch of lead #{lead_id} ({lead['reference']})"
    return mail.send_once(
        email_kinds.STAFF_ALERT.key(event_id),
        lead_id,
        lambda: mail.to_staff(subject, "emails/return_held.txt", context),
        lambda: history.record_email(lead_id, event_id, "return_held", kind="staff_alerted"),
    )
