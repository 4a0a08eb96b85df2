"""An entry's staleness at its boundary: set exactly PRICE_GUIDE_STALE_DAYS days ago it is still
fresh, a day earlier it is stale (ages are whole days of the business's calendar)."""

from __future__ import annotations

from datetime import timedelta

from app.prices import guide
from tests.data.prices import add_entry, set_days_ago
from tests.helpers import business_today


def test_an_entry_exactly_the_stale_days_old_is_fresh_and_a_day_older_is_stale(app):
    days = app.config["PRICE_GUIDE_STALE_DAYS"]
    at_limit = set_days_ago(app, add_entry(app), days)
    past_it = set_days_ago(app, add_entry(app, reference="124060"), days + 1)
    with app.app_context():
        entries = {entry["id"]: entry for entry in guide.entries()}
        assert guide.age_in_days(entries[at_limit]) == days
        assert not guide.is_stale(entries[at_limit])
        assert guide.is_stale(entries[past_it])
        tomorrow = business_today() + timedelta(days=1)
        assert guide.is_stale(entries[at_limit], tomorrow)
