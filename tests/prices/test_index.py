"""The seller's instant range from the guide: adjusted for the grade, box and papers and rounded
as the business says it; none for a stale entry, a grade the entry sets nothing for, or a text
that names no single entry; and every change seen at the next lookup."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.leads.db import transaction
from app.prices import guide, index
from tests.data.prices import SUB, SUB_LINE, add_entry
from tests.helpers import business_today, database_at_version

VERY_GOOD, EXCELLENT, NEEDS_SERVICE = (
    "Very Good - Minor wear",
    "Excellent - Like new",
    "Needs Service/Repair",
)


def lookup(app, model="126610LN", condition=VERY_GOOD, box=True, papers=True):
    with app.app_context():
        return index.instant_range("Rolex", model, condition, box, papers)


def test_the_range_for_the_guides_own_case_is_the_entry_as_set(app):
    add_entry(app)
    shown = lookup(app)
    assert (shown.low, shown.high) == (9500, 10800)
    assert shown.line == SUB_LINE
    assert "From our buy-price guide, set" in shown.basis and "authenticate" in shown.basis


@pytest.mark.parametrize(
    ("condition", "box", "papers", "span", "words"),
    [
        (EXCELLENT, True, True, (10000, 11350), "in excellent condition with box and papers"),
        (VERY_GOOD, False, True, (9050, 10250), "with papers, without box"),
        (VERY_GOOD, True, False, (8750, 9950), "with box, without papers"),
        ("Fair - Significant wear", False, False, (6250, 7100), "without box or papers"),
    ],
)
def test_each_answer_adjusts_the_range_and_says_so(app, condition, box, papers, span, words):
    add_entry(app)
    shown = lookup(app, condition=condition, box=box, papers=papers)
    assert (shown.low, shown.high) == span and words in shown.line


def test_no_number_where_the_guide_does_not_stand_behind_one(app):
    entry_id = add_entry(app)
    assert lookup(app, condition=NEEDS_SERVICE) is None  # no adjustment set for the grade
    assert lookup(app, model="126610") is None  # could be another variant
    assert lookup(app, model="Daytona") is None
    with app.app_context():
        assert index.instant_range("Omega", "126610LN", VERY_GOOD, True, True) is None
    stale_day = business_today() - timedelta(days=app.config["PRICE_GUIDE_STALE_DAYS"] + 1)
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE price_guide SET set_on = ? WHERE id = ?", (stale_day.isoformat(), entry_id)
        )
    assert lookup(app) is None


def test_a_change_to_the_guide_is_seen_at_the_next_lookup(app):
    assert lookup(app) is None
    entry_id = add_entry(app)
    assert lookup(app).high == 10800
    with app.app_context():
        guide.save(SUB | {"high": 11200}, "staff:2", entry_id)
    assert lookup(app).high == 11200
    with app.app_context():
        guide.delete(entry_id)
    assert lookup(app) is None


def test_sample_entries_are_never_shown_in_production(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    development = make_app(LEADS_DB=path)
    add_entry(development)
    with development.app_context(), transaction() as db:
        db.execute("UPDATE price_guide SET sample = 1")
    assert lookup(development).high == 10800
    production_like = make_app(LEADS_DB=path, SHOW_SAMPLE_CONTENT="0")
    assert lookup(production_like) is None
    with production_like.app_context():
        assert guide.entries() == []


def test_entries_older_than_their_reference_keys_get_them_and_match(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 26)  # the step before the reference keys
    for reference in ("5711/1A-010", "RM011", "126610LN"):
        db.execute(
            "INSERT INTO price_guide (brand, reference, low, high, set_by, set_on) "
            "VALUES ('Rolex', ?, 9500, 10800, 'staff:1', ?)",
            (reference, business_today().isoformat()),
        )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)
    with app.app_context():
        keys = {entry["reference"]: entry["reference_key"] for entry in guide.entries()}
        assert keys == {"5711/1A-010": "57111A010", "RM011": "RM011", "126610LN": "126610LN"}
        assert index.instant_range("Rolex", "5711 1a 010", VERY_GOOD, True, True) is not None
