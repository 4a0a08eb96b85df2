"""How lead values read to people, the same in the staff inbox and in the seller's e-mails:
US dollars, en-AU long dates, appointment times in the business's time zone, lead ages."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from flask import current_app

from app.leads.state import State
from app.rendering.dates import display_date

FIRST_REPLY_PROMISE = timedelta(hours=24)  # the site promises a reply within 24 hours


def watch_name(lead: dict) -> str:
    """The watch as people name it: brand, then model if one was given."""
    return " ".join(part for part in (lead["watch_brand"], lead["watch_model"]) if part)


def usd(amount) -> str:
    """Whole US dollars with thousands separators, e.g. '$8,000'."""
    return f"${int(amount):,}"


def usd_cents(cents: int) -> str:
    """An amount in integer cents as people read money, e.g. '$9,500.00' (never a float)."""
    dollars, rest = divmod(int(cents), 100)
    return f"${dollars:,}.{rest:02d}"


def quote_amount(data: dict) -> str:
    """A quote's amount or range, e.g. '$8,000' or '$8,000 to $9,500'."""
    low, high = int(data["amount_low"]), int(data["amount_high"])
    return usd(low) if low == high else f"{usd(low)} to {usd(high)}"


def business_zone() -> ZoneInfo:
    """The business's time zone (BUSINESS_TIMEZONE), in which staff enter appointments."""
    return ZoneInfo(current_app.config["BUSINESS_TIMEZONE"])


def business_today() -> date:
    """Today on the business's calendar, which every date staff and sellers enter is on: the
    server's own date (UTC) is already tomorrow on a New York evening."""
    return datetime.now(business_zone()).date()


def appointment_start(data: dict) -> datetime:
    """The appointment's date and time (entered in the business's zone) as an aware datetime."""
    day = date.fromisoformat(data["date"])
    time = datetime.strptime(data["time"], "%H:%M").time()
    return datetime.combine(day, time, tzinfo=business_zone())


def clock(moment: datetime) -> str:
    """'2:30 pm EST': the time as people read it, with its zone."""
    return f"{moment:%-I:%M} {moment:%p}".lower() + f" {moment:%Z}"


def stored_time(iso: str) -> datetime:
    """A stored timestamp; the store writes UTC, so one without an offset is UTC too."""
    moment = datetime.fromisoformat(iso)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def business_day(iso: str) -> date:
    """The day on the business's calendar of a stored UTC timestamp."""
    return stored_time(iso).astimezone(business_zone()).date()


def local_time(iso: str) -> str:
    """A stored UTC timestamp as '3 December 2026, 2:30 pm EST' in the business's zone."""
    moment = stored_time(iso).astimezone(business_zone())
    return f"{display_date(moment.date().isoformat())}, {clock(moment)}"


def local_day(iso: str) -> str:
    """A stored UTC timestamp's day as '3 December 2026' in the business's zone."""
    return display_date(stored_time(iso).astimezone(business_zone()).date().isoformat())


def age(iso: str, now: datetime | None = None) -> timedelta:
    """How long ago a stored timestamp was, as of `now` (default: the current time)."""
    return (now or datetime.now(UTC)) - stored_time(iso)


def short_age(iso: str, now: datetime | None = None) -> str:
    """'just now', '12 min ago', '5 h ago', '3 d ago': how long ago, at a glance."""
    seconds = max(0, int(age(iso, now).total_seconds()))
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    return f"{seconds // 86400} d ago"


def awaiting_first_reply(lead: dict, now: datetime | None = None) -> bool:
    """A new lead older than the promised 24 hours, with nobody having replied yet."""
    return lead["state"] == State.NEW and age(lead["created_at"], now) > FIRST_REPLY_PROMISE
