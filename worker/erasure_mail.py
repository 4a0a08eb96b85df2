"""The two e-mails of an erasure the seller asked for (app/sale/erasure.py), in the seller
e-mails' own layout (worker/seller_mail.py): the link that confirms it, sent to the address on
file, and the last e-mail, sent just before that address is blanked. After a sale both say what
the law makes us keep, and until when."""

from __future__ import annotations

import secrets
from email.message import EmailMessage

from app.leads.display import watch_name
from app.leads.state import State
from app.sale.erasure import CONFIRM_WITHIN_WORDS, after_sale
from worker.seller_mail import Letter, letter_message

WHAT_GOES = "your name, contact details, messages and photos"
WHAT_STAYS = (
    "We keep a record without personal details: your reference, the watch's brand and model, "
    "the dates and the outcome."
)


def asked_when(lead: dict) -> str:
    """When the seller asked: on withdrawing, or after selling us the watch (bought)."""
    if lead["state"] == State.BOUGHT:
        return f"after selling us your {watch_name(lead)}"
    return f"when you withdrew your {watch_name(lead)}"


def what_changes(lead: dict) -> tuple[str, str]:
    """What the erasure deletes, and what it keeps: after a sale, the record the law requires,
    until its date."""
    return after_sale(lead) or (WHAT_GOES, WHAT_STAYS)


def confirm_erasure_message(lead: dict, confirm_url: str) -> EmailMessage:
    """The link that confirms the seller's erasure request: only who reads this mailbox can
    erase, not whoever holds a status link."""
    goes, stays = what_changes(lead)
    letter = Letter(
        subject="Confirm: delete your details and photos",
        heading="Confirm the deletion of your details",
        paragraphs=[
            f"You asked us to delete your details {asked_when(lead)}. To confirm, follow the "
            f"link below within {CONFIRM_WITHIN_WORDS}: it works once.",
            f"We will then delete {goes}, for good. {stays}",
            "If you did not ask for this, ignore this e-mail: nothing is deleted without the link.",
        ],
        facts=[],
        link_label="Delete my details and photos",
        link_note="This link is yours alone and works once: please do not forward it.",
    )
    key = f"lead-{lead['id']}-erasure-{secrets.token_hex(8)}"  # each link is a new message
    return letter_message(lead, letter, key, confirm_url)


def erased_message(lead: dict) -> EmailMessage:
    """The confirmation the withdrawal page promised: sent while the address still exists, the
    erasure follows at once. No link: nothing is left to open. After a sale, it is the seller's
    note of what we keep and until when."""
    goes, stays = what_changes(lead)
    letter = Letter(
        subject="We are deleting your details",
        heading="Your details are being deleted",
        paragraphs=[
            f"As you confirmed, we are deleting {goes} now. {stays}",
            "The links in our earlier e-mails stop working, and this is the last e-mail we "
            "send you: once your address is deleted, we have no way to write to you.",
        ],
        facts=[],
    )
    return letter_message(lead, letter, f"lead-{lead['id']}-erased", status_url="")
