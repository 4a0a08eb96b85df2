"""The sell page's intro says what the form will do: a range as soon as the guide recognises
the model or reference while the guide covers the advertised brands (the home page's "Get
Instant Valuation" flag), and only the 24-hour reply otherwise, either way the flag turns."""

from __future__ import annotations

import re
from datetime import timedelta

from app.leads.db import transaction
from tests.data.prices import cover, refreshed
from tests.helpers import business_today, page_html

RANGE = (
    "As soon as our buy-price guide recognises the model or reference you type, the form shows "
    "the range we typically pay for it, confirmed after we authenticate the watch."
)
REPLY = "gets back to you with a preliminary quote within 24 hours."


def intro(client) -> str:
    return re.search(r"<p[^>]*data-sell-intro[^>]*>(.*?)</p>", page_html(client, "/sell"))[1]


def test_without_coverage_the_intro_promises_the_reply_and_no_range(client):
    said = intro(client)
    assert said.endswith(REPLY) and "range" not in said


def test_with_coverage_the_intro_promises_the_range_then_the_reply_otherwise(app, client):
    cover(app)
    assert refreshed(app)
    said = intro(client)
    assert RANGE in said and said.endswith(
        "Otherwise a specialist reviews your submission and " + REPLY
    )


def test_the_intro_drops_the_range_when_coverage_lapses(app, client):
    cover(app)
    assert refreshed(app) and RANGE in intro(client)
    stale = business_today() - timedelta(days=app.config["PRICE_GUIDE_STALE_DAYS"] + 1)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE price_guide SET set_on = ?", (stale.isoformat(),))
    assert not refreshed(app)
    said = intro(client)
    assert "range" not in said and said.endswith(REPLY)
