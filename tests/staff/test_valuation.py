"""The lead page's valuation card: the guide's range for the watch as the seller described it,
what the seller was shown, our past purchases of the same reference, and a suggested quote
already in the quote form; a stale or ambiguous match suggests nothing."""

from __future__ import annotations

import json
import re

from app.leads.db import transaction
from tests.data.prices import add_entry
from tests.helpers import buy_lead, save_sample_lead

EXCELLENT_BOXED = {
    "watch_model": "Submariner 126610LN",
    "watch_condition": "Excellent - Like new",
    "has_box": 1,
    "has_papers": 1,
}


def lead_page(staff, client, lead_id: int) -> str:
    return staff.request(client, "GET", f"/staff/leads/{lead_id}").get_data(as_text=True)


def quote_amounts(html: str) -> tuple[str, str]:
    def value(name):
        tag = re.search(rf'<input[^>]*name="quote-{name}"[^>]*>', html).group(0)
        found = re.search(r'value="([^"]*)"', tag)
        return found.group(1) if found else ""

    return value("amount_low"), value("amount_high")


def test_the_card_shows_the_guides_range_and_the_quote_form_starts_from_it(app, staff, signed_in):
    add_entry(app)
    lead_id = save_sample_lead(app, **EXCELLENT_BOXED)
    html = lead_page(staff, signed_in, lead_id)
    assert "Guide: $10,000–$11,350" in html and "in excellent condition with box and papers" in html
    assert "Suggested preliminary quote:" in html
    assert quote_amounts(html) == ("10000", "11350")


def test_our_past_purchases_of_the_reference_are_listed_and_no_others(app, staff, signed_in):
    add_entry(app)
    bought = save_sample_lead(app)
    buy_lead(app, bought, amount=9900)  # authenticated as 126610LN
    other = save_sample_lead(app)
    buy_lead(app, other, amount=4100)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE purchases SET model_reference = '124060' WHERE lead_id = ?", (other,))
    html = lead_page(staff, signed_in, save_sample_lead(app, **EXCELLENT_BOXED))
    listed = re.search(r"data-past-purchases>(.*?)</ul>", html, re.S).group(1)
    assert "$9,900" in listed and "$4,100" not in listed


def test_a_stale_entry_is_marked_and_suggests_nothing(app, staff, signed_in):
    entry_id = add_entry(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE price_guide SET set_on = '2020-01-01' WHERE id = ?", (entry_id,))
    html = lead_page(staff, signed_in, save_sample_lead(app, **EXCELLENT_BOXED))
    assert "Stale: sellers are not shown it" in html
    assert "Suggested preliminary quote" not in html and quote_amounts(html) == ("", "")


def candidates_line(html: str) -> tuple[str, dict[str, str]]:
    """The card's words for an unmatched model text, and each candidate's link by reference."""
    line = re.search(r"<p[^>]*data-candidates>(.*?)</p>", html, re.S)[1]
    anchors = re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', line)
    links = {text: href for href, text in anchors}
    return re.sub(r"<[^>]+>", "", line), links


def test_digits_that_begin_several_references_name_them_and_suggest_nothing(app, staff, signed_in):
    first = add_entry(app)
    second = add_entry(app, reference="126610LV", names="Starbucks")
    html = lead_page(staff, signed_in, save_sample_lead(app, watch_model="126610"))
    said, links = candidates_line(html)
    assert said.startswith(
        "“126610” is the start of 2 references in the guide: 126610LN, 126610LV."
    )
    assert links == {"126610LN": f"/staff/prices/{first}", "126610LV": f"/staff/prices/{second}"}
    assert quote_amounts(html) == ("", "")


def test_digits_that_begin_one_reference_say_so_and_link_its_entry(app, staff, signed_in):
    entry_id = add_entry(app, brand="Patek Philippe", reference="5167A-001", names="Aquanaut")
    lead_id = save_sample_lead(app, watch_brand="Patek Philippe", watch_model="5167")
    said, links = candidates_line(lead_page(staff, signed_in, lead_id))
    assert said.startswith("“5167” is the start of one reference in the guide: 5167A-001.")
    assert "could be any" not in said and links == {"5167A-001": f"/staff/prices/{entry_id}"}


def test_a_name_two_entries_share_names_both(app, staff, signed_in):
    add_entry(app)
    add_entry(app, reference="126610LV", names="Submariner Date; Starbucks")
    lead_id = save_sample_lead(app, watch_model="Submariner Date")
    said, _ = candidates_line(lead_page(staff, signed_in, lead_id))
    assert said.startswith(
        "“Submariner Date” could be any of 2 entries in the guide: 126610LN, 126610LV."
    )


def test_words_that_are_only_part_of_one_entrys_name_say_so(app, staff, signed_in):
    add_entry(app)  # Submariner Date; Black Sub
    lead_id = save_sample_lead(app, watch_model="Submariner")
    said, _ = candidates_line(lead_page(staff, signed_in, lead_id))
    assert said.startswith(
        "“Submariner” is only part of the name of one entry in the guide: 126610LN."
    )


def test_the_range_the_seller_was_shown_is_on_the_card(app, staff, signed_in):
    shown = {"low": 9500, "high": 10800, "line": "…", "basis": "…", "entry": 1,
             "reference": "126610LN", "set_on": "2026-11-20"}  # fmt: skip
    lead_id = save_sample_lead(app, instant_range=json.dumps(shown))
    html = lead_page(staff, signed_in, lead_id)
    assert "Shown to the seller with the form:" in html and "$9,500–$10,800" in html
