"""The appointment as an iCalendar event: attached to the appointment e-mail and offered for
download on the seller's status page, the same event both ways."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from flask import current_app
from icalendar import Calendar, Event, vCalAddress

from app.leads import lifecycle
from app.leads.display import watch_name

APPOINTMENT_LENGTH = timedelta(hours=1)


def invitation(lead: dict, data: dict, start: datetime, method: str = "REQUEST") -> bytes:
    """An iCalendar invitation for the appointment (REQUEST by e-mail, PUBLISH as a download).
    Its UID is the lead's, and its SEQUENCE grows with each booking, so a rebooked appointment
    replaces the first in the seller's calendar."""
    config = current_app.config
    calendar = Calendar()
    calendar.add("prodid", f"-//{config['SITE_NAME']}//Appointments//EN")
    calendar.add("version", "2.0")
    calendar.add("method", method)
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
