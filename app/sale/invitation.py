"""The appointment as an iCalendar event: attached to the appointment e-mail and offered for
download on the seller's status page, the same event both ways.

It is a copy for the seller's own calendar (METHOD:PUBLISH), not a meeting request: a REQUEST
must name its attendees, and this file names no one but the business, so a forwarded or synced
calendar file carries neither the seller's name nor their e-mail address."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from flask import current_app
from icalendar import Calendar, Event, vCalAddress

from app.leads.display import watch_name
from app.sale import lifecycle

APPOINTMENT_LENGTH = timedelta(hours=1)
METHOD = "PUBLISH"  # a copy of the event, by e-mail and as a download alike


def invitation(lead: dict, data: dict, start: datetime) -> bytes:
    """The appointment for the seller's calendar (PUBLISH, no attendee: no personal data). Its
    UID is the lead's, and its SEQUENCE grows with each booking, so a rebooked appointment
    replaces the first in the seller's calendar."""
    config = current_app.config
    calendar = Calendar()
    calendar.add("prodid", f"-//{config['SITE_NAME']}//Appointments//EN")
    calendar.add("version", "2.0")
    calendar.add("method", METHOD)
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
    calendar.add_component(event)
    calendar.add_missing_timezones(first_date=start.date(), last_date=start.date() + timedelta(1))
    return calendar.to_ical()
