"""The home page's promise: "Get Instant Valuation" only while the guide covers every advertised
brand with enough fresh entries, the cached and frozen home page following the flag; and the
development's sample entries, loaded where samples are shown and never counted in production."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from app.leads.db import transaction
from app.prices import coverage, guide
from tests.data.prices import add_entry, cover, refreshed
from tests.helpers import business_today, page_html

INSTANT, FREE = "Get Instant Valuation", "Get Your Free Valuation"


def test_the_promise_is_made_only_while_the_guide_covers_the_advertised_brands(app, client):
    assert FREE in page_html(client, "/") and INSTANT not in page_html(client, "/")
    cover(app, per_brand=app.config["INSTANT_VALUATION_MIN_ENTRIES"] - 1)
    assert not refreshed(app)
    cover(app)
    assert refreshed(app)
    home = page_html(client, "/")  # the cached page was keyed by the flag: drawn again
    assert INSTANT in home and FREE not in home.split("<main", 1)[1].split("</section>", 1)[0]

    stale = business_today() - timedelta(days=app.config["PRICE_GUIDE_STALE_DAYS"] + 1)
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE price_guide SET set_on = ? WHERE brand = 'Cartier'", (stale.isoformat(),)
        )
    assert not refreshed(app)  # as the daily run finds it
    assert INSTANT not in page_html(client, "/")


def test_a_flip_removes_the_frozen_home_page_and_leaves_the_others(app):
    pages = Path(app.config["PAGES_DIR"])
    (pages / "sell-rolex-watch").mkdir(parents=True, exist_ok=True)
    for name in ("index.html", "index.html.gz", "sell-rolex-watch/index.html"):
        (pages / name).write_text("frozen")
    cover(app)
    assert refreshed(app)
    assert not (pages / "index.html").exists() and not (pages / "index.html.gz").exists()
    assert (pages / "sell-rolex-watch" / "index.html").exists()


def test_the_samples_load_where_shown_and_cover_nothing_in_production(make_app, tmp_path):
    path = str(tmp_path / "instance" / "leads.db")
    development = make_app(LEADS_DB=path)
    result = development.test_cli_runner().invoke(args=["prices", "samples"])
    assert result.exit_code == 0 and "Put 35 sample entries" in result.output
    with development.app_context():
        assert all(entry["sample"] for entry in guide.entries())
        assert coverage.is_on()  # seven brands, five samples each

    hidden = make_app(LEADS_DB=path, SHOW_SAMPLE_CONTENT="0")
    result = hidden.test_cli_runner().invoke(args=["prices", "samples"])
    assert "No sample entries" in result.output
    with hidden.app_context():
        assert guide.entries() == []
        coverage.refresh()
        assert not coverage.is_on()


def test_a_real_entry_is_never_replaced_by_a_sample(make_app, tmp_path):
    app = make_app(LEADS_DB=str(tmp_path / "leads.db"))
    add_entry(app, high=11111)
    app.test_cli_runner().invoke(args=["prices", "samples"])
    with app.app_context():
        [real] = [entry for entry in guide.entries() if entry["reference"] == "126610LN"]
    assert real["high"] == 11111 and not real["sample"]


def test_content_check_lists_the_sample_entries(app, runner):
    result = runner.invoke(args=["content", "check"])
    assert "prices/samples.toml entries[0]" in result.output
