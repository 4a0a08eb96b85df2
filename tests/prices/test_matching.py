"""Matching what sellers really type to one guide entry, or to none: the examples sellers type,
then properties (hypothesis) over references typed with any case, spacing and words around
them, digit runs that only begin references, and text that names no entry."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.prices.matching import Catalog, catalogs

ROLEX = [
    {"id": 1, "brand": "Rolex", "reference": "126610LN", "names": "Submariner Date; Black Sub"},
    {"id": 2, "brand": "Rolex", "reference": "126610LV", "names": "Submariner Date; Starbucks"},
    {"id": 3, "brand": "Rolex", "reference": "124060", "names": "Submariner; Submariner No Date"},
    {"id": 4, "brand": "Rolex", "reference": "126710BLRO", "names": "GMT-Master II; Pepsi"},
    {"id": 5, "brand": "Rolex", "reference": "126710BLNR", "names": "GMT-Master II; Batman"},
]
PATEK = [{"id": 6, "brand": "Patek Philippe", "reference": "5711/1A-010", "names": "Nautilus"}]
CATALOG = Catalog("Rolex", ROLEX)
ONE_MATCH = settings(max_examples=60, deadline=None, database=None)


def reference_of(text: str) -> str | None:
    entry = CATALOG.match(text).entry
    return entry["reference"] if entry else None


@pytest.mark.parametrize(
    ("typed", "reference"),
    [
        ("sub 126610 ln", "126610LN"),
        ("Rolex Submariner Date 126610LN", "126610LN"),
        ("126610-lv starbucks", "126610LV"),
        ("Submariner no date", "124060"),
        ("submariner no-date 2021", "124060"),
        ("Submariner Date Starbucks", "126610LV"),
        ("GMT Master II Pepsi", "126710BLRO"),
        ("ref. 126710 BLNR, full set", "126710BLNR"),
    ],
)
def test_what_sellers_type_names_the_one_entry(typed, reference):
    assert reference_of(typed) == reference


@pytest.mark.parametrize(
    "typed",
    [
        "126610",  # LN or LV
        "Submariner Date",  # LN or LV
        "Submariner",  # any of them
        "GMT-Master II",  # Pepsi or Batman
        "1266100",  # glued digits name nothing
        "126610LNX",
        "Daytona 116500LN",  # not in the guide
        "",
        "my watch",
    ],
)
def test_an_ambiguous_or_unknown_text_names_no_entry(typed):
    assert reference_of(typed) is None


def test_a_reference_with_separators_of_its_own_matches_typed_either_way():
    patek = Catalog("Patek Philippe", PATEK)
    for typed in ("5711/1A-010", "5711 1a 010", "Nautilus 57111A010", "5711/1a"):
        found = patek.match(typed)
        assert (found.entry is not None) == (typed != "5711/1a"), typed


def test_entries_are_matched_within_their_brand_only():
    both = catalogs(ROLEX + PATEK)
    assert both["Patek Philippe"].match("126610LN").entry is None
    assert both["Rolex"].match("5711/1A-010").entry is None


def spaced(reference: str, data) -> str:
    """The reference as a seller might type it: any case, separators between any characters."""
    out = []
    for character in reference:
        if character.isalnum():
            out.append(data.draw(st.sampled_from([character.lower(), character.upper()])))
            out.append(data.draw(st.sampled_from(["", "", " ", "-", "."])))
    return "".join(out).strip(" -.")


WORDS = st.sampled_from(
    ["Rolex", "my", "watch", "2019", "full set", "box", "papers", "ref", "great"]
)


@ONE_MATCH
@given(st.sampled_from(ROLEX), st.lists(WORDS, max_size=3), st.lists(WORDS, max_size=3), st.data())
def test_a_reference_typed_any_way_among_other_words_names_its_entry(entry, before, after, data):
    typed = " ".join([*before, spaced(entry["reference"], data), *after])
    assert reference_of(typed) == entry["reference"], typed


@ONE_MATCH
@given(st.sampled_from(["126610", "12661", "1267", "126710"]), st.lists(WORDS, max_size=3))
def test_digits_that_only_begin_references_name_none(run, around):
    assert reference_of(" ".join([*around, run])) is None


def test_digits_that_only_begin_references_are_kept_with_the_references_they_begin():
    found = CATALOG.match("ref 126610 full set")
    assert found.entry is None and found.begun == ("126610",)
    assert [entry["reference"] for entry in found.candidates] == ["126610LN", "126610LV"]
    assert CATALOG.match("Submariner Date").begun == ()


@ONE_MATCH
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_any_text_names_at_most_one_entry_of_the_brand_and_never_fails(text):
    found = CATALOG.match(text)
    assert found.entry is None or found.entry in ROLEX
    assert found.how in {"reference", "name", "ambiguous", "none"}
    if found.entry is None and found.how == "ambiguous":
        assert len(found.candidates) >= 1
