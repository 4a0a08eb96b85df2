"""Every date staff and sellers enter is on the business's calendar (BUSINESS_TIMEZONE), not the
server's: on a New York evening the server's UTC date is already tomorrow. Each test runs the app
in a zone whose date differs from UTC's at this moment, so the two calendars disagree now."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from wtforms.validators import ValidationError

from app.forms.fields import not_in_future, not_in_past
from app.leads.display import business_today
from app.staff.lead_forms import BoughtForm
from app.status.purchase_view import has_expired
from tests.data.paperwork import VALID, checked_form

AHEAD, BEHIND = "Pacific/Kiritimati", "Etc/GMT+12"  # UTC+14 and UTC-12


def zone_apart_from_utc() -> str:
    """A zone whose date is not UTC's right now: UTC+14 is a day ahead from 10:00 UTC, UTC-12 a
    day behind until 12:00 UTC, so one of them always is."""
    return AHEAD if datetime.now(UTC).hour >= 10 else BEHIND


@pytest.fixture
def zone():
    return zone_apart_from_utc()


@pytest.fixture
def calendar_app(make_app, zone):
    return make_app(BUSINESS_TIMEZONE=zone)


def zone_today(zone: str) -> date:
    """The zone's date, worked out here rather than by the code under test."""
    return datetime.now(ZoneInfo(zone)).date()


def field(day: date) -> SimpleNamespace:
    """What a WTForms validator reads of a date field."""
    return SimpleNamespace(data=day)


def test_business_today_is_the_zones_date_not_the_servers(calendar_app, zone):
    with calendar_app.app_context():
        today = business_today()
    assert today == zone_today(zone)
    assert today != datetime.now(UTC).date()


def test_staff_can_enter_the_business_today_and_not_its_tomorrow(calendar_app, zone):
    today = zone_today(zone)
    with calendar_app.app_context():
        not_in_future(None, field(today))
        not_in_past(None, field(today))
        with pytest.raises(ValidationError, match="still to come"):
            not_in_future(None, field(today + timedelta(days=1)))
        with pytest.raises(ValidationError, match="has passed"):
            not_in_past(None, field(today - timedelta(days=1)))


def test_the_payment_date_defaults_to_the_business_today(calendar_app, zone):
    with calendar_app.test_request_context("/"):
        assert BoughtForm().paid_on.data == zone_today(zone)


def test_an_offer_stays_open_through_its_last_day_on_the_business_calendar(calendar_app, zone):
    today = zone_today(zone)
    with calendar_app.app_context():
        assert not has_expired({"valid_until": today.isoformat()})
        assert has_expired({"valid_until": (today - timedelta(days=1)).isoformat()})


def test_the_sellers_id_may_expire_on_the_business_today(calendar_app, zone):
    today = zone_today(zone)
    with calendar_app.test_request_context():
        form = checked_form(calendar_app, VALID | {"id_expires_on": today.isoformat()})
        assert form.id_expires_on.errors == []
        yesterday = (today - timedelta(days=1)).isoformat()
        form = checked_form(calendar_app, VALID | {"id_expires_on": yesterday})
        assert "expired" in form.id_expires_on.errors[0]
