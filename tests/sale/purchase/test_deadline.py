"""The payment's deadline: a signed sale is due by the end of the business day it was signed on
(BUSINESS_DAY_ENDS in BUSINESS_TIMEZONE), or of the next day when signed after it; nothing is
late before today's business day has ended."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from app.config import ConfigError
from app.sale.purchase import deadline
from tests.helpers import put_purchase_on_record, save_sample_lead

NEW_YORK = ZoneInfo("America/New_York")


def test_a_sale_signed_before_the_days_end_is_due_that_evening_and_after_it_the_next(app):
    with app.app_context():
        assert app.config["BUSINESS_DAY_ENDS"] == "17:00"  # the default
        morning = deadline.due_by("2026-11-20T15:00:00+00:00")  # 10:00 in New York
        evening = deadline.due_by("2026-11-20T23:30:00+00:00")  # 18:30 in New York
        just_before = deadline.due_by("2026-11-20T21:59:59+00:00")  # 16:59:59
    assert morning == datetime(2026, 11, 20, 17, 0, tzinfo=NEW_YORK)
    assert evening == datetime(2026, 11, 21, 17, 0, tzinfo=NEW_YORK)
    assert just_before == morning


def test_the_day_ends_when_the_setting_says_in_the_business_time_zone(make_app):
    app = make_app(BUSINESS_DAY_ENDS="18:30", BUSINESS_TIMEZONE="America/Los_Angeles")
    with app.app_context():
        due = deadline.due_by("2026-11-21T01:00:00+00:00")  # 17:00 on the 20th in Los Angeles
        ends = deadline.day_end(deadline.day_of(datetime(2026, 11, 21, 1, 0, tzinfo=UTC)))
    assert due == ends == datetime(2026, 11, 20, 18, 30, tzinfo=ZoneInfo("America/Los_Angeles"))


def test_nothing_is_late_before_todays_business_day_has_ended(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id, signed_on=date(2026, 11, 20))  # at 10:00 in New York
        before = deadline.late_leads(datetime(2026, 11, 20, 16, 59, tzinfo=NEW_YORK))
        at_the_end = deadline.late_leads(datetime(2026, 11, 20, 17, 0, tzinfo=NEW_YORK))
        next_morning = deadline.late_leads(datetime(2026, 11, 21, 9, 0, tzinfo=NEW_YORK))
    assert before == [] and next_morning == []  # today's alerts wait for today's end
    [late] = at_the_end
    assert late.lead_id == lead_id and late.lacking == []
    assert late.due_by == datetime(2026, 11, 20, 17, 0, tzinfo=NEW_YORK)


@pytest.mark.parametrize("value", ["5pm", "17", "24:00", "17:60", ""])
def test_a_day_end_that_is_not_a_time_of_day_is_refused_at_start(make_app, value):
    with pytest.raises(ConfigError, match="BUSINESS_DAY_ENDS"):
        make_app(BUSINESS_DAY_ENDS=value)
