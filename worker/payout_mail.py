"""The e-mail that asks a seller to confirm the payout account they signed for
(app/sale/purchase/payout.py), in the seller e-mails' own layout (worker/seller_mail.py): sent
to the address on file, so whoever else holds a status link cannot have a payment sent to their
own account unseen."""

from __future__ import annotations

import secrets
from email.message import EmailMessage

from app.leads.display import usd, watch_name
from app.sale.purchase.paperwork import agreed_price
from app.sale.purchase.payout import CONFIRM_WITHIN_WORDS
from worker.seller_mail import Letter, letter_message


def confirm_payout_message(lead: dict, confirm_url: str) -> EmailMessage:
    """The account by its last 4 digits, the link that confirms it, and what to do if the
    paperwork was not signed by the seller."""
    price = agreed_price(lead["id"])
    letter = Letter(
        subject="Confirm the account we pay for your watch",
        heading="Is this your account?",
        paragraphs=[
            f"The sale paperwork for your {watch_name(lead)} was just signed, asking us to pay "
            f"{usd(price or 0)} into the bank account ending {lead['account_last4']}.",
            f"If that is your account, confirm it with the link below within "
            f"{CONFIRM_WITHIN_WORDS}: we send no money until you do.",
            "If you did not sign, or the account is not yours, open the same link and choose "
            "“This wasn't me”: we cancel that paperwork, switch off every link to your status "
            "page and call you.",
        ],
        facts=[("Account", f"ending {lead['account_last4']}"), ("Amount", usd(price or 0))],
        link_label="Confirm or refuse the account",
        link_note="This link is yours alone and works once: please do not forward it.",
    )
    key = f"lead-{lead['id']}-payout-{secrets.token_hex(8)}"  # each link is a new message
    return letter_message(lead, letter, key, confirm_url)
