"""The staff e-mail about a carrier's exception on a parcel of the sale by mail (returned to
sender, a failed delivery, held for pickup...): once per exception on the lead's timeline, as
the other staff alerts are. It names the lead and what happened, never the tracking number or
the label, which stay on the staff pages."""

from __future__ import annotations

from flask import current_app

from app.leads import history, store
from app.shipping.shipment_state import EXCEPTIONS, Leg
from worker import mail

LEGS = {Leg.INBOUND: "on its way to us", Leg.RETURN: "on its way back to the seller"}


def send_exception_alert(lead_id: int, event_id: int) -> str:
    """E-mail staff the exception `event_id` of lead `lead_id`, once."""
    if history.email_sent(event_id, kind="staff_alerted"):
        return "already sent"
    event = history.get_event(event_id)
    if event is None or event["lead_id"] != lead_id or event["kind"] != "shipment_exception":
        raise LookupError(f"Lead {lead_id} has no parcel exception {event_id}.")
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no alert.", lead_id)
        return "not configured"
    lead = store.get_lead(lead_id)
    context = {
        "lead": lead,
        "leg": LEGS[event["data"]["leg"]],
        "what": EXCEPTIONS[event["data"]["status"]],
        "site_url": current_app.config["SITE_URL"].rstrip("/"),
    }
    subject = f"Parcel of lead #{lead_id} ({lead['reference']}): {context['what']}"
    mail.deliver(mail.to_staff(subject, "emails/shipment_exception.txt", context))
    history.record_email(lead_id, event_id, "shipment_exception", kind="staff_alerted")
    return "sent"
