"""A lead's events (store.lead_events) as the staff timeline reads them: who, what, details.

Entries carry plain strings; templates escape them. The seller's own timeline (the status page)
will be another view of the same events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.leads import lifecycle
from app.leads.display import appointment_start, clock, display_date, local_time, quote_amount, usd

WORK_DONE = {
    "photos_processed": "Photos checked and cleaned",
    "staff_notified": "Lead e-mailed to staff",
    "conversions_sent": "Conversion events sent",
}
EMAILS = {
    "quote": "preliminary quote",
    "appointment": "appointment, with calendar invitation",
    "offer": "final offer",
    "completed": "payment receipt",
    "closed": "enquiry closed",
}
TONES = {"seller": "seller", "system": "system"}


@dataclass
class Entry:
    at: str
    when: str
    actor: str
    title: str
    tone: str  # seller, system or staff: how the entry is marked
    details: list[tuple[str, str]] = field(default_factory=list)
    text: str = ""  # a note or message in someone's own words


def actor_name(actor: str, staff_names: dict[str, str]) -> str:
    if actor in ("seller", "system"):
        return actor.capitalize()
    return staff_names.get(actor, actor)


def state_title(data: dict) -> str:
    before, after = data["from"], data["to"]
    if after == "accepted":
        return "Seller accepted the quote" + (" (by phone)" if data.get("via") == "phone" else "")
    if after == "closed":
        return f"Closed: {lifecycle.CLOSE_REASONS.get(data.get('reason'), 'no reason')}"
    if before == "closed":
        return "Reopened"
    titles = {
        "contacted": ("Marked contacted", "Marked contacted"),
        "quoted": ("Preliminary quote sent", "Quote revised"),
        "appointment": ("Appointment booked", "Appointment rebooked"),
        "offered": ("Final offer recorded", "Final offer revised"),
        "bought": ("Bought", "Bought"),
    }
    return titles[after][before == after]


def state_details(data: dict) -> list[tuple[str, str]]:
    after = data["to"]
    if after == "quoted":
        return [("Amount", quote_amount(data)), ("Valid until", display_date(data["valid_until"]))]
    if after == "appointment":
        start = appointment_start(data)
        return [
            ("When", f"{display_date(data['date'])}, {clock(start)}"),
            ("Kind", lifecycle.APPOINTMENT_MODES.get(data["mode"], data["mode"])),
            ("Place", data.get("place", "(erased)")),
        ]
    if after == "offered":
        return [("Amount", usd(data["amount"]))]
    if after == "bought":
        return [("Paid", usd(data["amount"])), ("Payment date", display_date(data["paid_on"]))]
    return []


def describe(event: dict) -> tuple[str, list[tuple[str, str]], str]:
    """(title, details, own words) for one event."""
    kind, data = event["kind"], event["data"]
    if kind == "submitted":
        return "Submitted on the website", [("Photos", str(data.get("photos", 0)))], ""
    if kind == "work_done":
        return WORK_DONE.get(data["work"], data["work"]), [], ""
    if kind == "state_changed":
        words = data.get("message") or data.get("note") or ""
        return state_title(data), state_details(data), words
    if kind == "note":
        return "Note", [], data.get("note", "(erased)")
    if kind == "email_sent":
        return f"E-mail to the seller: {EMAILS.get(data['template'], data['template'])}", [], ""
    if kind == "erased":
        return "Personal data erased", [("Photos removed", str(data.get("photos", 0)))], ""
    return kind.replace("_", " ").capitalize(), [], ""


def entries(events: list[dict], staff_names: dict[str, str]) -> list[Entry]:
    """The timeline, newest first."""
    timeline = []
    for event in reversed(events):
        title, details, text = describe(event)
        timeline.append(
            Entry(
                at=event["at"],
                when=local_time(event["at"]),
                actor=actor_name(event["actor"], staff_names),
                title=title,
                tone=TONES.get(event["actor"], "staff"),
                details=details,
                text=text,
            )
        )
    return timeline
