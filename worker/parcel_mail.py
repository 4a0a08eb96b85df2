"""The seller's e-mails about their parcel on its way to us (app/shipping/notices.py): when the
carrier first has it, and when it is delivered to us. Each is a seller letter as the others are
(worker/seller_mail.py: text and HTML, a status link of its own), owed by the parcel's state
when the job runs and recorded once per parcel and step, so a repeated or late event sends
nothing more. It names no tracking number and links no label: those stay on the status page."""

from __future__ import annotations

from flask import current_app

from app.leads import links, store
from app.leads.display import watch_name
from app.shipping import labels, notices
from app.shipping.shipment_state import Leg
from worker import mail
from worker.seller_mail import Letter, letter_message


def in_transit_letter(lead: dict) -> Letter:
    """The carrier has the parcel: it is covered, and what happens when it reaches us."""
    watch = watch_name(lead)
    return Letter(
        subject=f"Your {watch} is on its way to us",
        heading="Your parcel is on its way",
        paragraphs=[
            f"The carrier has scanned the parcel with your {watch}: it is on its way to us, "
            "covered by our shipping policy from this first scan until we sign for it.",
            "Please keep the counter receipt until your status page shows that we have your "
            "watch. You can follow the parcel there.",
            "When it arrives, we weigh it against its label, photograph the seal and the box as "
            "received and open it on record with the serial number in frame. We e-mail you "
            "as soon as we have it.",
        ],
        facts=[("Reference", lead["reference"])],
        link_label="Follow your parcel",
    )


def delivered_letter(lead: dict) -> Letter:
    """The parcel is delivered to us: what happens next."""
    watch = watch_name(lead)
    return Letter(
        subject=f"We have your {watch}",
        heading="Your parcel has reached us",
        paragraphs=[
            f"The carrier has delivered the parcel with your {watch} to us, and we signed for "
            "it. You no longer need to keep the counter receipt.",
            "We open it on record: weighed against its label, the seal and the box photographed "
            "as received, the serial number in frame. Our watchmakers then authenticate your "
            "watch, usually within 24 to 48 hours of its arrival, and we e-mail you our final "
            "offer.",
            "If you decide not to sell, we send your watch back, insured and tracked, at our "
            "expense.",
        ],
        facts=[("Reference", lead["reference"])],
        link_label="Follow your sale",
    )


LETTERS = {notices.IN_TRANSIT: in_transit_letter, notices.DELIVERED: delivered_letter}


def send_parcel_mail(shipment_id: int) -> str:
    """E-mail the seller the step their parcel is owed word of, once (none for a return
    parcel, an erased lead, or a step already told)."""
    parcel = labels.get(shipment_id)
    if parcel["leg"] != Leg.INBOUND:
        return "no e-mail for a return parcel here"
    step = notices.owed(parcel)
    if step is None:
        return "nothing owed"
    lead = store.get_lead(parcel["lead_id"])
    if lead is None or lead["erased_at"]:
        return "lead erased"
    if not mail.smtp_configured():
        current_app.logger.warning("Lead %s: SMTP_HOST not set, no parcel e-mail.", lead["id"])
        return "not configured"
    key = f"lead-{lead['id']}-parcel-{shipment_id}-{step}"
    url = links.issue_status_link(lead["id"])
    mail.deliver(letter_message(lead, LETTERS[step](lead), key, url))
    notices.mark_sent(shipment_id, step)
    return f"sent {step}"
