"""The e-mails a seller gets: the confirmation after they submit (with their private status
link), then one each time their lead moves on: quote, appointment (with an .ics invitation),
final offer, offer accepted (the paperwork to sign), completed (their receipt and bill of sale
attached) and closed.

Each e-mail carries a status link of its own (app/leads/links.py): a token is stored only as a
hash, so no e-mail can repeat an earlier one's link, and each issues a fresh one instead, which
leaves the links the seller already has working.

Each e-mail is a `Letter` (what it says) rendered by one pair of templates, plain text and HTML
(autoescaped; no remote images, so nothing is fetched when it is opened). The Message-ID is
derived from the event it announces; each e-mail is sent at most once (mail.send_once), and one
whose send is unsure is looked up in the relay's log by it.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from urllib.parse import urlsplit

from flask import current_app

from app.leads import handover
from app.leads.display import appointment_start, clock, quote_amount, usd, watch_name
from app.prices import index
from app.rendering.dates import display_date
from app.sale import lifecycle
from app.sale.invitation import METHOD, invitation
from app.sale.purchase import paperwork, payment
from worker import sale_words
from worker.mail import render


@dataclass
class Letter:
    """What one seller e-mail says; the seller_letter templates lay it out."""

    subject: str
    heading: str
    paragraphs: list[str]
    facts: list[tuple[str, str]]
    note: str = ""  # the staff member's own message, shown as theirs
    calendar: bytes | None = None
    link_label: str = "Follow your sale"  # the link's words; no link when the URL is ""
    link_note: str = (
        "This link is yours alone: anyone who has it can see your enquiry, so please do not "
        "forward it."
    )


def first_name(lead: dict) -> str:
    """The name to greet the seller by: the first word of their name, else 'there'."""
    return lead["full_name"].split()[0] if lead["full_name"].strip() else "there"


def contact_line() -> str:
    """The closing line of every seller e-mail: reply or call, quoting the reference."""
    config = current_app.config
    return (
        f"Questions? Reply to this e-mail or call us on {config['SITE_PHONE']}, "
        "quoting your reference."
    )


def yes_no(value) -> str:
    """'Yes' or 'No' for a fact such as the box or papers coming with the watch."""
    return "Yes" if value else "No"


def guide_words(lead: dict) -> list[str]:
    """The range our guide gave with the form, as the seller was shown it (none: nothing)."""
    if not (shown := index.as_shown(lead)):
        return []
    return [f"Our buy-price guide, when you sent the form: {shown['line']} {shown['basis']}"]


def guide_fact(lead: dict) -> list[tuple[str, str]]:
    """The guide's range as one fact line, beside a quote ('$9,500 to $10,800')."""
    if not (shown := index.as_shown(lead)):
        return []
    return [("Our price guide's range", f"{usd(shown['low'])} to {usd(shown['high'])}")]


def confirmation_letter(lead: dict, photo_count: int) -> Letter:
    """What the seller sent, what happens next and when (the site's 24-hour promise), and the
    guide's range if it gave one."""
    watch = watch_name(lead)
    return Letter(
        subject=f"We have your {watch}: what happens next",
        heading="We have your watch details",
        paragraphs=[
            f"Thank you for sending us your {watch}. Your reference is {lead['reference']}.",
            *handover.seller_words(lead),
            *guide_words(lead),
            "A specialist will review your details and photos and get back to you within 24 "
            "hours with a preliminary quote, or with a question if we need more.",
            sale_words.confirmation_next(lead),
            "The link below shows where your sale stands. There you can also add a photo you "
            "forgot, ask us a question, answer our quote or withdraw.",
        ],
        facts=[
            ("Watch", watch),
            ("Year", str(lead["watch_year"] or "Not given")),
            ("Condition", lead["watch_condition"]),
            ("Box", yes_no(lead["has_box"])),
            ("Papers", yes_no(lead["has_papers"])),
            ("Photos", str(photo_count)),
            *guide_fact(lead),
        ],
    )


def quote_letter(lead: dict, data: dict, revised: bool) -> Letter:
    """The preliminary quote (or its revision), and how to go ahead before it expires."""
    watch = watch_name(lead)
    opening = (
        f"We have revised our preliminary quote for your {watch}: it is now {quote_amount(data)}."
        if revised
        else f"Thank you for sending us the details and photos of your {watch}. Our "
        f"preliminary quote is {quote_amount(data)}."
    )
    return Letter(
        subject=f"Your {'revised ' if revised else ''}preliminary quote for your {watch}",
        heading="Your revised preliminary quote" if revised else "Your preliminary quote",
        paragraphs=[
            opening,
            *sale_words.quote_next(lead, data),
            f"To go ahead, reply to this e-mail or call us before "
            f"{display_date(data['valid_until'])}, when this quote expires.",
        ],
        facts=[
            ("Preliminary quote", quote_amount(data)),
            *guide_fact(lead),
            ("Valid until", display_date(data["valid_until"])),
        ],
        note=data.get("message", ""),
    )


def appointment_letter(lead: dict, data: dict, revised: bool) -> Letter:
    """The authentication appointment (or its move), with an .ics invitation attached."""
    start = appointment_start(data)
    office = data["mode"] == "office"
    where = (
        f"Bring your watch, with its box and papers if you have them, to {data['place']}."
        if office
        else f"Our insured courier will collect your watch from {data['place']}; please have "
        "it ready with its box and papers if you have them."
    )
    return Letter(
        subject=f"Your authentication appointment{' has moved' if revised else ''}: "
        f"{display_date(data['date'])}",
        heading="Your appointment has moved" if revised else "Your authentication appointment",
        paragraphs=[
            f"A certified watchmaker will authenticate your {watch_name(lead)}: movement, case "
            "and dial, and timekeeping, followed by a market valuation and our final offer.",
            where,
            "The attached invitation (appointment.ics) adds the appointment to your calendar. "
            "To change it, reply to this e-mail or call us.",
        ],
        facts=[
            ("Date", display_date(data["date"])),
            ("Time", clock(start)),
            ("Kind", lifecycle.APPOINTMENT_MODES[data["mode"]]),
            ("Place", data["place"]),
        ],
        note=data.get("message", ""),
        calendar=invitation(lead, data, start),
    )


def offer_letter(lead: dict, data: dict, revised: bool) -> Letter:
    """The final offer after authentication (or its revision)."""
    return Letter(
        subject=f"Your {'revised ' if revised else ''}final offer for your {watch_name(lead)}",
        heading="Your revised final offer" if revised else "Your final offer",
        paragraphs=[
            f"{sale_words.offer_opening(lead)} Our final offer is {usd(data['amount'])}, valid "
            f"until {display_date(data['valid_until'])}.",
            "Accept or decline it on your status page, where you can also see what the "
            "authentication found. If you accept, you sign the short sale paperwork there and "
            f"we pay {payment.same_day_words()}. If you decide not to sell, we return your "
            "watch at our expense.",
        ],
        facts=[
            ("Final offer", usd(data["amount"])),
            ("Valid until", display_date(data["valid_until"])),
        ],
        note=data.get("message", ""),
    )


def paperwork_letter(lead: dict, data: dict, revised: bool) -> Letter:
    """The final offer accepted: the paperwork to sign on the status page, what to have ready."""
    return Letter(
        subject=f"Next step for your {watch_name(lead)}: the sale paperwork",
        heading="Your sale paperwork",
        paragraphs=[
            f"Thank you for accepting our final offer for your {watch_name(lead)}. One step "
            "remains before we pay you: the sale paperwork, which you complete and sign on your "
            "status page (the link below).",
            "Please have ready a government photo ID that is still valid (a driver's license, "
            "a state ID card or a passport), with a photo of its front and of its back, and the "
            "routing and account numbers of the US bank account we should pay. Enter them only "
            "on your status page: never send them by e-mail.",
            sale_words.before_payment(lead),
        ],
        facts=[("Final offer", usd(paperwork.agreed_price(lead["id"]) or 0))],
        link_label="Complete the paperwork",
    )


def completed_letter(lead: dict, data: dict, revised: bool) -> Letter:
    """The payment: what was paid, when and how, with the receipt and the bill of sale."""
    return Letter(
        subject=f"Payment sent for your {watch_name(lead)}",
        heading="Payment sent: thank you",
        paragraphs=[
            payment.sent_words(data, watch_name(lead)),
            "Your receipt and the bill of sale are attached to this e-mail as PDF files. Keep "
            "them with your records; you can also download them from the link below.",
            "Thank you for selling with us.",
        ],
        facts=payment.sent_facts(data),
        note=data.get("message", ""),
    )


CLOSING_WORDS = {
    "seller_declined": "As you asked, we have closed your enquiry about your {watch}.",
    "not_a_fit": "We have looked carefully at your {watch} and are not able to make an offer "
    "for it at this time. Thank you for considering us.",
    "no_response": "We have not heard back from you, so we have closed your enquiry about your "
    "{watch} for now.",
    "withdrawn": "You have withdrawn your {watch}, so we have closed your enquiry.",
}


def closed_letter(lead: dict, data: dict, revised: bool) -> Letter:
    """Why the enquiry was closed, and how to pick it up again; for a sale on hold pending
    checks, only that."""
    if sale_words.on_hold(lead):
        subject = f"An update on your {watch_name(lead)}"  # and no staff note, whatever it says
        return Letter(subject, "Your sale is on hold", [sale_words.ON_HOLD], [])
    return Letter(
        subject=f"Your enquiry about your {watch_name(lead)} is closed",
        heading="Your enquiry is closed",
        paragraphs=[
            CLOSING_WORDS[data["reason"]].format(watch=watch_name(lead)),
            "If you change your mind, reply to this e-mail or call us and we will pick it up "
            "again.",
        ],
        facts=[],
        note=data.get("message", ""),
    )


LETTERS = {
    "quote": quote_letter,
    "appointment": appointment_letter,
    "offer": offer_letter,
    "paperwork": paperwork_letter,
    "completed": completed_letter,
    "closed": closed_letter,
}


def compose(lead: dict, event: dict, template: str) -> Letter:
    """The Letter for one state-change event; a change into the same state is a revision."""
    data = sale_words.sendable(lead, event["data"])
    revised = data.get("from") == data.get("to")
    return LETTERS[template](lead, data | {"sequence": event["id"]}, revised)


def build_message(
    lead: dict, event: dict, template: str, status_url: str, pdfs: list[tuple[str, bytes]]
) -> EmailMessage:
    """The e-mail announcing one state change, with a status link of its own and any PDFs as
    (file name, bytes); its Message-ID is derived from the event."""
    key = f"lead-{lead['id']}-event-{event['id']}"
    return letter_message(lead, compose(lead, event, template), key, status_url, pdfs)


def confirmation_message(lead: dict, photo_count: int, status_url: str) -> EmailMessage:
    """The confirmation after a submission, carrying the status link it was issued for."""
    letter = confirmation_letter(lead, photo_count)
    return letter_message(lead, letter, f"lead-{lead['id']}-confirmation", status_url)


def new_link_message(lead: dict, status_url: str) -> EmailMessage:
    """A new status link, asked for on the lost-link form."""
    letter = Letter(
        subject=f"Your link to follow the sale of your {watch_name(lead)}",
        heading="Your new status link",
        paragraphs=[
            f"You asked for the link to follow the sale of your {watch_name(lead)}. Here it "
            "is. The links in our earlier e-mails no longer work: use this one from now on.",
            "If you did not ask for it, someone typed your address on our site. Nothing else "
            "has changed, and only you receive this link.",
        ],
        facts=[],
    )
    key = f"lead-{lead['id']}-link-{secrets.token_hex(8)}"  # each link is a new message
    return letter_message(lead, letter, key, status_url)


def letter_message(
    lead: dict, letter: Letter, message_key: str, status_url: str, pdfs: Sequence = ()
) -> EmailMessage:
    """The letter as an e-mail (text, HTML, any invitation and PDFs); its Message-ID from
    `message_key`."""
    config = current_app.config
    context = {
        "letter": letter,
        "lead": lead,
        "greeting": f"Hello {first_name(lead)},",
        "reference": lead["reference"],
        "status_url": status_url,
        "contact": contact_line(),
        "site_name": config["SITE_NAME"],
        "site_phone": config["SITE_PHONE"],
        "site_url": config["SITE_URL"],
    }
    host = urlsplit(config["SITE_URL"]).hostname or "localhost"
    message = EmailMessage()
    message["Subject"] = " ".join(f"{letter.subject} ({lead['reference']})".split())
    message["From"] = Address(config["SITE_NAME"], addr_spec=config["MAIL_FROM"])
    message["To"] = lead["email"]
    message["Reply-To"] = config["SITE_EMAIL"]
    message["Message-ID"] = f"<{message_key}@{host}>"
    message.set_content(render("emails/seller_letter.txt", context))
    message.add_alternative(render("emails/seller_letter.html", context), subtype="html")
    if letter.calendar:
        message.add_attachment(
            letter.calendar,
            maintype="text",
            subtype="calendar",
            filename="appointment.ics",
            params={"method": METHOD},
        )
    for file_name, pdf in pdfs:
        message.add_attachment(pdf, maintype="application", subtype="pdf", filename=file_name)
    return message
