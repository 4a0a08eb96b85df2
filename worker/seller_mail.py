"""The e-mails a seller gets when staff move their lead on: quote, appointment (with an .ics
invitation), final offer, completed (their receipt) and closed.

Each e-mail is a `Letter` (what it says) rendered by one pair of templates, plain text and HTML
(autoescaped; no remote images, so nothing is fetched when it is opened). The Message-ID is
derived from the event it announces, so in the rare case a send is repeated (the worker died
between sending and recording) mail clients see one message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.headerregistry import Address
from email.message import EmailMessage
from urllib.parse import urlsplit

from flask import current_app
from icalendar import Calendar, Event, vCalAddress

from app.leads import lifecycle
from app.leads.display import appointment_start, clock, display_date, quote_amount, usd
from worker.mail import render

APPOINTMENT_LENGTH = timedelta(hours=1)


@dataclass
class Letter:
    subject: str
    heading: str
    paragraphs: list[str]
    facts: list[tuple[str, str]]
    note: str = ""  # the staff member's own message, shown as theirs
    calendar: bytes | None = None


def watch_name(lead: dict) -> str:
    return " ".join(part for part in (lead["watch_brand"], lead["watch_model"]) if part)


def first_name(lead: dict) -> str:
    return lead["full_name"].split()[0] if lead["full_name"].strip() else "there"


def contact_line() -> str:
    config = current_app.config
    return (
        f"Questions? Reply to this e-mail or call us on {config['SITE_PHONE']}, "
        "quoting your reference."
    )


def quote_letter(lead: dict, data: dict, revised: bool) -> Letter:
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
            "The final offer follows an in-person authentication by a certified watchmaker, "
            "at our office or by insured collection. There are no fees for the valuation.",
            f"To go ahead, reply to this e-mail or call us before "
            f"{display_date(data['valid_until'])}, when this quote expires.",
        ],
        facts=[
            ("Preliminary quote", quote_amount(data)),
            ("Valid until", display_date(data["valid_until"])),
        ],
        note=data.get("message", ""),
    )


def appointment_letter(lead: dict, data: dict, revised: bool) -> Letter:
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
    return Letter(
        subject=f"Your {'revised ' if revised else ''}final offer for your {watch_name(lead)}",
        heading="Your revised final offer" if revised else "Your final offer",
        paragraphs=[
            f"Your {watch_name(lead)} has been authenticated. Our final offer is "
            f"{usd(data['amount'])}.",
            "If you accept, we complete the paperwork with you and pay by bank transfer the "
            "same day. If you decide not to sell, we return your watch at our expense.",
        ],
        facts=[("Final offer", usd(data["amount"]))],
        note=data.get("message", ""),
    )


def completed_letter(lead: dict, data: dict, revised: bool) -> Letter:
    return Letter(
        subject=f"Payment sent for your {watch_name(lead)}",
        heading="Payment sent: thank you",
        paragraphs=[
            f"We have paid {usd(data['amount'])} for your {watch_name(lead)} by bank transfer "
            f"on {display_date(data['paid_on'])}. Keep this e-mail as your receipt.",
            "Thank you for selling with us.",
        ],
        facts=[
            ("Amount paid", usd(data["amount"])),
            ("Payment date", display_date(data["paid_on"])),
            ("Method", "Bank transfer"),
        ],
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
    "completed": completed_letter,
    "closed": closed_letter,
}


def invitation(lead: dict, data: dict, start: datetime) -> bytes:
    """An iCalendar REQUEST for the appointment. Its UID is the lead's, and its SEQUENCE grows
    with each booking, so a rebooked appointment replaces the first in the seller's calendar."""
    config = current_app.config
    calendar = Calendar()
    calendar.add("prodid", f"-//{config['SITE_NAME']}//Appointments//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "REQUEST")
    event = Event()
    event.add("uid", f"appointment-{lead['reference']}@{urlsplit(config['SITE_URL']).hostname}")
    event.add("sequence", int(data.get("sequence", 0)))
    event.add("dtstamp", datetime.now(UTC))
    event.add("dtstart", start)
    event.add("dtend", start + APPOINTMENT_LENGTH)
    event.add("summary", f"Watch authentication with {config['SITE_NAME']}")
    event.add("location", data["place"])
    event.add(
        "description",
        f"{lifecycle.APPOINTMENT_MODES[data['mode']]} for your {watch_name(lead)} "
        f"(reference {lead['reference']}). Questions: {config['SITE_PHONE']}.",
    )
    event.add("status", "CONFIRMED")
    organizer = vCalAddress(f"mailto:{config['SITE_EMAIL']}")
    organizer.params["cn"] = config["SITE_NAME"]
    event.add("organizer", organizer)
    attendee = vCalAddress(f"mailto:{lead['email']}")
    attendee.params["cn"] = lead["full_name"]
    attendee.params["role"] = "REQ-PARTICIPANT"
    event.add("attendee", attendee)
    calendar.add_component(event)
    calendar.add_missing_timezones(first_date=start.date(), last_date=start.date() + timedelta(1))
    return calendar.to_ical()


def compose(lead: dict, event: dict, template: str) -> Letter:
    data = event["data"]
    revised = data.get("from") == data.get("to")
    return LETTERS[template](lead, data | {"sequence": event["id"]}, revised)


def build_message(lead: dict, event: dict, template: str) -> EmailMessage:
    config = current_app.config
    letter = compose(lead, event, template)
    context = {
        "letter": letter,
        "lead": lead,
        "greeting": f"Hello {first_name(lead)},",
        "reference": lead["reference"],
        "status_url": lifecycle.seller_status_url(lead),
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
    message["Message-ID"] = f"<lead-{lead['id']}-event-{event['id']}@{host}>"
    message.set_content(render("emails/seller_letter.txt", context))
    message.add_alternative(render("emails/seller_letter.html", context), subtype="html")
    if letter.calendar:
        message.add_attachment(
            letter.calendar,
            maintype="text",
            subtype="calendar",
            filename="appointment.ics",
            params={"method": "REQUEST"},
        )
    return message
