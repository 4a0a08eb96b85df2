"""The staff list's SQL over the guide: a search finds an entry by brand, by reference typed any
way or by name; the stale filter draws the line where guide.is_stale does; the drifted filter
keeps the entries the list marks drifted; each sort orders the page; the count matches."""

from __future__ import annotations

import pytest

from app.leads.db import immediate_transaction
from app.prices import guide, listing, market
from tests.data.prices import add_entry, set_days_ago
from tests.helpers import business_today


def found(app, sort: str = "brand", **filters) -> list[str]:
    """The references of the first page matching `filters`, in `sort`'s order."""
    with app.app_context():
        rows = listing.find_entries(filters | {"today": business_today()}, sort, 50, 0)
        assert listing.count_entries(filters | {"today": business_today()}) == len(rows)
        return [row["reference"] for row in rows]


def keep_market_price(app, reference: str, price: int) -> None:
    with app.app_context(), immediate_transaction() as db:
        db.execute(
            "INSERT INTO market_prices (brand, reference_key, price) VALUES ('Rolex', ?, ?)",
            (guide.key(reference), price),
        )


@pytest.mark.parametrize(
    ("text", "references"),
    [
        ("rolex", ["124060", "126610LN"]),
        ("omega", ["310.30.42"]),
        ("126610-ln", ["126610LN"]),
        ("310 30", ["310.30.42"]),
        ("black sub", ["126610LN"]),
        ("no date", ["124060"]),
        ("100%_", []),
    ],
)
def test_a_search_finds_brand_reference_typed_any_way_or_name(app, text, references):
    add_entry(app)
    add_entry(app, reference="124060", names="Submariner No Date")
    add_entry(app, brand="Omega", reference="310.30.42", names="Speedmaster Professional")
    assert found(app, text=text) == references


def test_the_stale_filter_keeps_entries_a_day_past_the_limit_not_those_at_it(app):
    days = app.config["PRICE_GUIDE_STALE_DAYS"]
    set_days_ago(app, add_entry(app), days)
    set_days_ago(app, add_entry(app, reference="124060"), days + 1)
    assert found(app, stale=True) == ["124060"]


def test_the_drifted_filter_keeps_the_entries_beyond_the_limit_either_way(app):
    add_entry(app)  # 9,500-10,800: mid 10,150
    add_entry(app, reference="124060", low=9000, high=11000)  # mid 10,000
    add_entry(app, reference="114060", low=9000, high=11000)
    add_entry(app, reference="116610LN", low=9000, high=11000)
    keep_market_price(app, "126610LN", 12700)  # ours 20% under: within 25
    keep_market_price(app, "124060", 8000)  # ours 25% over: at the limit, not beyond
    keep_market_price(app, "114060", 7000)  # ours 43% over
    keep_market_price(app, "116610LN", 20000)  # ours 50% under
    assert found(app, drifted=True) == ["114060", "116610LN"]
    with app.app_context():
        shown = {entry["reference"]: market.beside(entry, market.prices_of([entry]))["flagged"]
                 for entry in guide.entries()}  # fmt: skip
    assert [reference for reference, flagged in sorted(shown.items()) if flagged] == [
        "114060", "116610LN"
    ]  # fmt: skip


def test_a_half_percent_drift_rounds_away_from_zero_in_the_list_and_its_filter(app):
    app.config["MARKET_DRIFT_PERCENT"] = 12
    add_entry(app, reference="124060", low=2250, high=2250)  # 12.5% over 2,000, exactly
    keep_market_price(app, "124060", 2000)
    assert found(app, drifted=True) == ["124060"]
    with app.app_context():
        [entry] = guide.entries()
        shown = market.beside(entry, market.prices_of([entry]))
    assert (shown["drift"], shown["flagged"]) == (13, True)


@pytest.mark.parametrize(
    ("sort", "references"),
    [
        ("brand", ["310.30.42", "124060", "126610LN"]),
        ("reference", ["124060", "126610LN", "310.30.42"]),
        ("oldest", ["310.30.42", "124060", "126610LN"]),
        ("newest", ["126610LN", "124060", "310.30.42"]),
        ("lowest", ["310.30.42", "124060", "126610LN"]),
        ("highest", ["126610LN", "124060", "310.30.42"]),
    ],
)
def test_each_sort_orders_the_page(app, sort, references):
    add_entry(app)
    set_days_ago(app, add_entry(app, reference="124060", low=9000, high=11000), 10)
    omega = add_entry(app, brand="Omega", reference="310.30.42", low=4000, high=4500)
    set_days_ago(app, omega, 20)
    assert found(app, sort) == references
