"""The two e-mails of an erasure the seller asked for (app/leads/erasure.py), in the seller
e-mails' own layout (worker/seller_mail.py): the link that confirms it, sent to the address on
file, and the last e-mail, sent just before that address is blanked."""

from __future__ import annotations

import secrets
from email.message import EmailMessage

from app.leads.display import watch_name
from app.leads.erasure import CONFIRM_WITHIN_WORDS
from worker.seller_mail import Letter, letter_message

WHAT_GOES = "your name, contact details, messages and photos"
WHAT_STAYS = (
    "We keep a record without personal details: your reference, the watch's brand and model, "
    "the dates and the outcome."
)


def confirm_erasure_message(lead: dict, confirm_url: str) -> EmailMessage:
    """The link that confirms the seller's erasure request: only who reads this mailbox can
    erase, not whoever holds a status link."""
    letter = Letter(
        subject="Confirm: delete your details and photos",
        heading="Confirm the deletion of your details",
        paragraphs=[
            f"You asked us to delete your details when you withdrew your {watch_name(lead)}. "
            f"To confirm, follow the link below within {CONFIRM_WITHIN_WORDS}: it works once.",
            f"We will then delete {WHAT_GOES}, for good. {WHAT_STAYS}",
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
    erasure follows at once. No link: nothing is left to open."""
    letter = Letter(
        subject="We are deleting your details",
        heading="Your details are being deleted",
        paragraphs=[
            f"As you confirmed, we are deleting {WHAT_GOES} now. {WHAT_STAYS}",
            "The links in our earlier e-mails stop working, and this is the last e-mail we "
            "send you: once your address is deleted, we have no way to write to you.",
        ],
        facts=[],
    )
    return letter_message(lead, letter, f"lead-{lead['id']}-erased", status_url="")
