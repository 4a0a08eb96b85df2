"""The optional market-data provider, played by a local HTTP server that answers, fails, rate
limits, stalls and redirects on purpose: prices kept for staff with the drift flagged, every
failure recorded while the run goes on, the key never sent where a redirect points, the run
ended at its deadline, nothing asked when unset, and the seller's range untouched by any of it."""

from __future__ import annotations

import json

import pytest

from app.leads.db import get_db
from app.prices import guide, market
from tests.data.prices import SUB_LINE, add_entry
from worker import jobs

KEY = "market-key-123"


@pytest.fixture
def market_app(make_app, market_provider):
    return make_app(
        MARKET_DATA_URL=market_provider.url, MARKET_DATA_API_KEY=KEY, MARKET_DATA_TIMEOUT="0.5"
    )


@pytest.fixture
def hurried_app(make_app, market_provider):
    """market_app with a run that must end 0.3 s after it starts."""
    return make_app(
        MARKET_DATA_URL=market_provider.url,
        MARKET_DATA_API_KEY=KEY,
        MARKET_DATA_TIMEOUT="0.5",
        MARKET_DATA_DEADLINE="0.3",
    )


def run(app) -> str:
    with app.app_context():
        return jobs.fetch_market_prices()


def kept(app) -> dict[str, dict]:
    with app.app_context():
        rows = get_db().execute("SELECT * FROM market_prices").fetchall()
    return {row["reference_key"]: dict(row) for row in rows}


def test_nothing_is_asked_while_no_provider_is_set(app, market_provider):
    add_entry(app)
    assert run(app) == "no provider (MARKET_DATA_URL is empty)"
    assert market_provider.asked == [] and kept(app) == {}


def test_each_reference_is_asked_with_the_key_and_its_price_kept_for_staff(
    market_app, market_provider
):
    add_entry(market_app)  # 9,500-10,800: mid 10,150, 20% under 12,700
    add_entry(market_app, reference="124060", names="Submariner No Date", low=9000, high=11000)
    assert run(market_app) == "2 fetched"
    assert {ask["reference"] for ask in market_provider.asked} == {"126610LN", "124060"}
    assert all(
        ask["auth"] == f"Bearer {KEY}" and ask["brand"] == "Rolex" for ask in market_provider.asked
    )
    assert kept(market_app)["126610LN"]["price"] == 12700
    with market_app.app_context():
        beside = {entry["reference"]: market.beside(entry, market.prices_of([entry]))
                  for entry in guide.entries()}  # fmt: skip
    assert (beside["126610LN"]["drift"], beside["126610LN"]["flagged"]) == (-20, False)
    assert (beside["124060"]["drift"], beside["124060"]["flagged"]) == (25, False)  # at the limit
    market_provider.prices["124060"] = 7000  # our mid-range is now 43% above the market
    run(market_app)
    with market_app.app_context():
        entry = [e for e in guide.entries() if e["reference"] == "124060"][0]
        assert market.beside(entry, market.prices_of([entry]))["flagged"]


def test_failures_are_recorded_and_the_run_goes_on(market_app, market_provider):
    for reference in ("FAIL1", "LIMIT1", "SLOW1", "JUNK1", "WAIT1", "126610LN"):
        add_entry(market_app, reference=reference, names="")
    summary = run(market_app)
    assert summary.startswith("2 fetched, 4 failed")
    found = kept(market_app)
    assert found["LIMIT1"]["price"] == 5000  # waited the second it asked, then answered
    assert found["126610LN"]["price"] == 12700
    assert found["FAIL1"]["error"] == "HTTP 500"
    assert found["SLOW1"]["error"] == "no answer in time"
    assert found["JUNK1"]["error"] == "an answer without a price"
    assert found["WAIT1"]["error"].startswith("rate limited")


def test_a_redirect_is_an_error_and_the_key_never_reaches_its_target(market_app, market_provider):
    add_entry(market_app, reference="MOVED1", names="")
    assert (
        run(market_app) == "0 fetched, 1 failed (Rolex MOVED1: a redirect (HTTP 302), not followed)"
    )
    assert kept(market_app)["MOVED1"]["error"] == "a redirect (HTTP 302), not followed"
    assert market_provider.elsewhere_auth == []  # not asked at all, so no key went there


def test_any_exception_is_recorded_against_its_reference_and_the_run_goes_on(
    market_app, market_provider
):
    for reference in ("DEEP1", "WORKS1"):  # asked in this order: the guide's
        add_entry(market_app, reference=reference, names="")
    assert run(market_app).startswith("1 fetched, 1 failed")
    found = kept(market_app)
    assert found["DEEP1"]["error"] == "an unexpected error (RecursionError)"
    assert found["WORKS1"]["price"] == 5000


def test_references_left_at_the_deadline_are_recorded_as_not_asked_and_the_command_says_so(
    hurried_app, market_provider
):
    for reference in ("126610LN", "SLOW1", "TOOLATE1"):  # the stall outlasts the deadline
        add_entry(hurried_app, reference=reference, names="")
    result = hurried_app.test_cli_runner().invoke(args=["prices", "market"])
    assert "1 fetched, 1 failed (Rolex SLOW1: no answer in time), 1 not asked" in result.output
    assert "deadline" in result.output
    assert [ask["reference"] for ask in market_provider.asked] == ["126610LN", "SLOW1"]
    found = kept(hurried_app)
    assert found["TOOLATE1"]["error"] == market.NOT_ASKED
    assert found["126610LN"]["price"] == 12700


def test_a_failure_keeps_the_last_price(market_app, market_provider):
    add_entry(market_app)
    run(market_app)
    market_provider.prices.clear()
    with market_app.app_context():
        market.record("Rolex", "126610LN", None, "HTTP 503")
    row = kept(market_app)["126610LN"]
    assert row["price"] == 12700 and row["error"] == "HTTP 503"


def test_the_sellers_range_is_the_guides_whatever_the_provider_says(market_app, market_provider):
    add_entry(market_app)
    run(market_app)
    answer = market_app.test_client().get(
        "/sell/range?watchBrand=Rolex&watchModel=126610LN&watchCondition=Very+Good+-+Minor+wear"
        "&hasBox=y&hasPapers=y"
    )
    shown = answer.get_json()["range"]
    assert shown["line"] == SUB_LINE and "12,700" not in json.dumps(shown)
