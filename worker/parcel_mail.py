"""The seller's e-mails about their parcel (app/shipping/notices.py): on its way to us, when
its label is ready on the status page, when the carrier first has it, and when it is delivered
to us; on its way back (the free return), when the carrier has it and when it is delivered
back. Each is a seller letter as the others are (worker/seller_mail.py: text and HTML, a status
link of its own), owed by the parcel's state when the job runs and recorded once per parcel and
step, so a repeated or late event sends nothing more. It names no tracking number and links no
label: those stay on the status page."""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, links, store
from app.leads.display import watch_name
from app.leads.state import State
from app.shipping import labels, notices
from app.shipping.shipment_state import Leg
from worker import mail
from worker.seller_mail import Letter, letter_message

# Each e-mail's words: {watch}, {days} (MAILIN_LABEL_VOID_DAYS) and {phone} are the lead's.
LABEL_READY_WORDS = {
    "subject": "Your prepaid label for your {watch} is ready",
    "heading": "Your label is ready",
    "paragraphs": (
        "Your prepaid, insured label for your {watch} is on your status page, ready to print on "
        "a 4 x 6 inch label or on letter paper. For your security it is there only: this e-mail "
        "carries no label and no tracking number.",
        "Pack the watch as the shipping conditions you agreed to say: two boxes with padding "
        "between them, and nothing on the outside about watches, a brand or a value. Hand the "
        "parcel to a staffed counter of the carrier, never a drop box or a locker, and keep the "
        "counter receipt.",
        "Our own shipping policy covers the parcel from the carrier's first scan until we sign "
        "for it. A label not used within {days} days is cancelled; ask us for a new one if you "
        "still want to sell.",
    ),
    "link_label": "Print your label",
}
# ... and each parcel's, by its direction and the step it is owed word of.
PARCEL_WORDS = {
    (Leg.INBOUND, notices.IN_TRANSIT): {
        "subject": "Your {watch} is on its way to us",
        "heading": "Your parcel is on its way",
        "paragraphs": (
            "The carrier has scanned the parcel with your {watch}: it is on its way to us, "
            "covered by our shipping policy from this first scan until we sign for it.",
            "Please keep the counter receipt until your status page shows that we have your "
            "watch. You can follow the parcel there.",
            "When it arrives, we weigh it, photograph the seal and the box as received and open "
            "it on record with the serial number in frame. We e-mail you as soon as we have it.",
        ),
        "link_label": "Follow your parcel",
    },
    (Leg.INBOUND, notices.DELIVERED): {
        "subject": "We have your {watch}",
        "heading": "Your parcel has reached us",
        "paragraphs": (
            "The carrier has delivered the parcel with your {watch} to us, and we signed for "
            "it. You no longer need to keep the counter receipt.",
            "We open it on record: weighed, the seal and the box photographed as received, the "
            "serial number in frame. Our watchmakers then authenticate your watch, usually "
            "within 24 to 48 hours of its arrival, and we e-mail you our final offer.",
            "If you decide not to sell, we send your watch back, insured and tracked, at our "
            "expense.",
        ),
        "link_label": "Follow your sale",
    },
    (Leg.RETURN, notices.IN_TRANSIT): {
        "subject": "Your {watch} is on its way back to you",
        "heading": "Your watch is on its way back",
        "paragraphs": (
            "We have handed the parcel with your {watch} to the carrier, at our expense. Our "
            "shipping policy covers it until you sign for it.",
            "An adult must sign for it on delivery. If nobody is in, the carrier leaves a notice "
            "saying how to have it delivered again or collect it. You can follow the parcel, "
            "with its tracking number, on your status page.",
            "If the outer box arrives damaged or looks opened, please keep the box and all the "
            "packaging and call us on {phone} the same day.",
        ),
        "link_label": "Follow your parcel",
    },
    (Leg.RETURN, notices.DELIVERED): {
        "subject": "Your {watch} is back with you",
        "heading": "Your watch has been delivered",
        "paragraphs": (
            "The carrier has delivered the parcel with your {watch} to you. This ends your sale "
            "with us: thank you for letting us make you an offer.",
            "If the box arrived damaged or opened, or anything is not as you sent it, please "
            "keep the box and all the packaging and call us on {phone} today.",
        ),
        "link_label": "See your sale",
    },
}


def letter(lead: dict, words: dict) -> Letter:
    """One of the e-mails above, its words filled in for the lead."""
    config = current_app.config
    values = {"watch": watch_name(lead), "days": config["MAILIN_LABEL_VOID_DAYS"],
              "phone": config["SITE_PHONE"]}  # fmt: skip
    return Letter(
        subject=words["subject"].format(**values),
        heading=words["heading"],
        paragraphs=[paragraph.format(**values) for paragraph in words["paragraphs"]],
        facts=[],
        link_label=words["link_label"],
    )


def label_ready_letter(lead: dict) -> Letter:
    """The label is bought: it is on the status page (and only there), and how to send it."""
    return letter(lead, LABEL_READY_WORDS)


def send_label_mail(shipment_id: int) -> str:
    """E-mail the seller that their parcel's label is ready on the status page, once per parcel
    (none for a return parcel, a label already used or told of, a lead moved on or erased)."""
    parcel = labels.get(shipment_id)
    if not notices.label_mail_owed(parcel):
        return "nothing owed"
    lead = store.get_lead(parcel["lead_id"])
    if lead is None or lead["erased_at"] or lead["state"] != State.ACCEPTED:
        return "lead moved on or erased"
    if not mail.smtp_configured():
        current_app.logger.warning("Lead %s: SMTP_HOST not set, no label e-mail.", lead["id"])
        return "not configured"
    key = f"lead-{lead['id']}-parcel-{shipment_id}-{notices.LABEL_READY}"
    sent = mail.send_once(
        email_kinds.LABEL_READY.key(shipment_id),
        lead["id"],
        lambda: letter_message(
            lead, label_ready_letter(lead), key, links.issue_status_link(lead["id"])
        ),
        lambda: notices.mark_label_mail_sent(shipment_id),
    )
    return f"{sent} label_ready"


def send_parcel_mail(shipment_id: int) -> str:
    """E-mail the seller the step their parcel, either way, is owed word of, once (none for
    an erased lead or a step already told)."""
    parcel = labels.get(shipment_id)
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
    words = PARCEL_WORDS[parcel["leg"], step]
    sent = mail.send_once(
        email_kinds.PARCEL.key(shipment_id, step),
        lead["id"],
        lambda: letter_message(lead, letter(lead, words), key, links.issue_status_link(lead["id"])),
        lambda: notices.mark_sent(shipment_id, step),
    )
    return f"{sent} {step}"
