"""The staff e-mails about a parcel of the sale by mail: a carrier's exception (returned to
sender, a failed delivery, held for pickup...), and what a parcel needs a person for when no
carrier says so (app/shipping/attention.py: a refund not given, a pickup never answered, a
return over the policy's limit). Each once per event on the lead's timeline, as the other staff
alerts are. They name the lead and what happened, never the tracking number or the label, which
stay on the staff pages."""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, history, store
from app.shipping.shipment_state import EXCEPTIONS, Leg
from worker import mail

LEGS = {Leg.INBOUND: "on its way to us", Leg.RETURN: "on its way back to the seller"}


def send_exception_alert(lead_id: int, event_id: int) -> str:
    """E-mail staff the exception `event_id` of lead `lead_id`, once."""

    def told(data: dict) -> tuple[str, str]:
        """The carrier's exception in staff's words: the subject's and the e-mail's."""
        return EXCEPTIONS[data["status"]], EXCEPTIONS[data["status"]]

    return alert_once(lead_id, event_id, "shipment_exception", told)


def send_attention_alert(lead_id: int, event_id: int) -> str:
    """E-mail staff what a parcel of lead `lead_id` needs a person for (event `event_id`), once."""
    return alert_once(
        lead_id, event_id, "shipment_attention", lambda data: (data["title"], data["why"])
    )


def alert_once(lead_id: int, event_id: int, kind: str, told) -> str:
    """The e-mail about the lead's parcel event `event_id` of `kind`, from emails/<kind>.txt,
    sent once; `told(data)` gives its subject's words and what happened. What the job did."""
    if history.email_sent(event_id, kind="staff_alerted"):
        return "already sent"
    event = history.get_event(event_id)
    if event is None or event["lead_id"] != lead_id or event["kind"] != kind:
        raise LookupError(f"Lead {lead_id} has no {kind.replace('_', ' ')} {event_id}.")
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no alert.", lead_id)
        return "not configured"
    lead, (headline, what) = store.get_lead(lead_id), told(event["data"])
    context = {
        "lead": lead,
        "leg": LEGS[event["data"]["leg"]],
        "what": what,
        "site_url": current_app.config["SITE_URL"].rstrip("/"),
    }
    subject = f"Parcel of lead #{lead_id} ({lead['reference']}): {headline}"
    return mail.send_once(
        email_kinds.STAFF_ALERT.key(event_id),
        lead_id,
        lambda: mail.to_staff(subject, f"emails/{kind}.txt", context),
        lambda: history.record_email(lead_id, event_id, kind, kind="staff_alerted"),
    )
