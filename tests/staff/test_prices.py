"""The buy-price guide in the staff area: entries added, changed and removed, each audited;
bad ranges and spreadsheet formulas refused with a message and nothing saved; the CSV export
with every formula neutralised; the import checked row by row and written all or none; and
the list searched, filtered, sorted and paged by its query string, whatever that holds; and
nothing of it for anyone signed out."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from app.leads.db import get_db, transaction
from app.prices import guide
from tests.data.prices import add_entry, set_days_ago
from tests.helpers import business_today, form_token
from worker import jobs

ENTRY = {
    "brand": "Rolex",
    "reference": "126610ln",
    "names": "Submariner Date\nBlack Sub",
    "low": "9,500",
    "high": "$10,800",
    "excellent": "5",
    "good": "-10",
    "fair": "-25",
    "needs_service": "",
    "no_box": "-5",
    "no_papers": "-8",
}
HEADER = ",".join(guide.FIELDS)


def stored(app) -> list[dict]:
    with app.app_context():
        return [dict(row) for row in get_db().execute("SELECT * FROM price_guide ORDER BY id")]


def audited(app, action: str) -> list[dict]:
    with app.app_context(), transaction() as db:
        rows = db.execute("SELECT data FROM audit WHERE action = ? ORDER BY id", (action,))
        return [json.loads(row["data"] or "{}") for row in rows]


def upload(staff, client, text: str):
    token = form_token(staff.request(client, "GET", "/staff/prices").get_data(as_text=True))
    data = {"csrf_token": token, "file": (io.BytesIO(text.encode()), "guide.csv")}
    return staff.request(client, "POST", "/staff/prices/import", data=data,
                         content_type="multipart/form-data")  # fmt: skip


def test_staff_add_an_entry_set_today_in_their_name_and_audited(app, staff, signed_in):
    answer = staff.post(signed_in, "/staff/prices/new", ENTRY)
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/staff/prices")
    [entry] = stored(app)
    assert entry["reference"] == "126610LN" and entry["names"] == "Submariner Date; Black Sub"
    assert (entry["low"], entry["high"], entry["needs_service"]) == (9500, 10800, None)
    assert entry["set_on"] == business_today().isoformat() and entry["set_by"].startswith("staff:")
    assert audited(app, "price_entry_saved")[-1]["reference"] == "126610LN"
    listing = staff.request(signed_in, "GET", "/staff/prices").get_data(as_text=True)
    assert "126610LN" in listing and "$9,500–$10,800" in listing and "0 days ago" in listing


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"low": "12000"}, "High is below low."),
        ({"low": "-500"}, "Enter whole dollars between 1 and 10,000,000."),
        ({"low": "50", "high": "90"}, "A range starts at $100 at least."),
        ({"high": "95000"}, "High is more than 3 times low"),
        ({"excellent": "80"}, "Enter a whole percentage from -50 to 50."),
        ({"no_box": "5"}, "Enter a whole percentage from -90 to 0."),
        ({"reference": '=HYPERLINK("http://x")'}, "Use letters, digits, spaces and . / - only."),
        ({"names": "@SUM(A1)"}, "may use letters, digits"),
        ({"names": "Sub\n-2+3"}, "may use letters, digits"),
    ],
)
def test_a_bad_entry_is_refused_with_its_message_and_nothing_saved(
    app, staff, signed_in, changes, message
):
    answer = staff.post(signed_in, "/staff/prices/new", ENTRY | changes)
    assert answer.status_code == 422
    assert message.replace('"', "&#34;") in answer.get_data(as_text=True)
    assert stored(app) == []


def test_the_same_reference_typed_another_way_is_refused(app, staff, signed_in):
    staff.post(signed_in, "/staff/prices/new", ENTRY)
    again = staff.post(signed_in, "/staff/prices/new", ENTRY | {"reference": "126610 LN"})
    assert again.status_code == 422 and "already in the guide" in again.get_data(as_text=True)
    assert len(stored(app)) == 1


def test_changing_an_entry_sets_it_today_and_removing_it_is_audited(app, staff, signed_in):
    staff.post(signed_in, "/staff/prices/new", ENTRY)
    [entry] = stored(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE price_guide SET set_on = '2026-01-02'")
    path = f"/staff/prices/{entry['id']}"
    assert staff.post(signed_in, path, ENTRY | {"high": "11000"}).status_code == 302
    [changed] = stored(app)
    assert changed["high"] == 11000 and changed["set_on"] == business_today().isoformat()
    token = form_token(staff.request(signed_in, "GET", path).get_data(as_text=True))
    removed = staff.request(signed_in, "POST", f"{path}/remove", data={"csrf_token": token})
    assert removed.status_code == 302 and stored(app) == []
    assert audited(app, "price_entry_deleted") == [
        {"brand": "Rolex", "reference": "126610LN", "low": 9500, "high": 11000}
    ]


def test_the_export_neutralises_anything_a_spreadsheet_would_run(app, staff, signed_in):
    staff.post(signed_in, "/staff/prices/new", ENTRY)
    with app.app_context(), transaction() as db:  # written before the rules, or by hand
        db.execute("UPDATE price_guide SET names = '=HYPERLINK(\"http://evil\")'")
    download = staff.request(signed_in, "GET", "/staff/prices.csv")
    assert download.status_code == 200 and download.mimetype == "text/csv"
    [header, row] = list(csv.reader(io.StringIO(download.get_data(as_text=True))))
    assert header[: len(guide.FIELDS)] == list(guide.FIELDS)
    assert row[2].startswith("'=")
    assert audited(app, "price_guide_exported") == [{"rows": 1}]


def test_an_import_adds_and_updates_entries_all_at_once(app, staff, signed_in):
    staff.post(signed_in, "/staff/prices/new", ENTRY)
    text = (
        f"{HEADER}\n"
        "Rolex,126610 LN,Submariner Date,9800,11000,5,-10,-25,,-5,-8\n"
        "Rolex,126610LV,Submariner Date; Starbucks,10500,12000,5,-10,-25,-40,-5,-8\n"
    )
    answer = upload(staff, signed_in, text)
    assert answer.status_code == 302
    entries = {entry["reference"]: entry for entry in stored(app)}
    assert set(entries) == {"126610LN", "126610LV"}
    assert entries["126610LN"]["low"] == 9800 and entries["126610LV"]["needs_service"] == -40
    assert audited(app, "price_guide_imported") == [{"rows": 2}]


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        (
            "Rolex,126610LV,Sub,12000,10500,5,-10,-25,,-5,-8",
            "Row 3, High (USD): High is below low.",
        ),
        ("Rolex,=1+1,Sub,9000,10500,5,-10,-25,,-5,-8", "Row 3, Reference: Use letters"),
        ("Rolex,126610LV,@SUM(A1),9000,10500,5,-10,-25,,-5,-8", "Row 3, Model names"),
        ("Rolex,126610LV,Sub,9000,10500,=5+5,-10,-25,,-5,-8", "Row 3, Excellent"),
        ("Other,126610LV,Sub,9000,10500,5,-10,-25,,-5,-8", "Row 3, Brand: Not a valid choice."),
        ("Rolex,126610-ln,Sub,9000,10500,5,-10,-25,,-5,-8", "Row 3: the same entry as row 2."),
    ],
)
def test_an_import_with_one_bad_row_imports_nothing_and_names_the_row(
    app, staff, signed_in, rows, problem
):
    text = f"{HEADER}\nRolex,126610LN,Sub,9000,10500,5,-10,-25,,-5,-8\n{rows}\n"
    answer = upload(staff, signed_in, text)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422 and "Nothing was imported." in html
    assert problem in html
    assert stored(app) == [] and audited(app, "price_guide_imported") == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("brand,reference\nRolex,1\n", "The file has no column names, low, high"),
        (f"{HEADER},secret\n", "Unknown column secret."),
        (f"{HEADER}\n", "The file has no rows under its header."),
    ],
)
def test_a_file_that_is_not_the_guide_is_refused(app, staff, signed_in, text, problem):
    answer = upload(staff, signed_in, text)
    assert answer.status_code == 422 and problem in answer.get_data(as_text=True)
    assert stored(app) == []


def test_nobody_signed_out_reads_or_changes_the_guide(app, client, staff, signed_in):
    staff.post(signed_in, "/staff/prices/new", ENTRY)
    closed = [("GET", "/staff/prices"), ("GET", "/staff/prices.csv"),
              ("GET", "/staff/prices/new"), ("POST", "/staff/prices/import")]  # fmt: skip
    for method, path in closed:
        answer = staff.request(client, method, path)
        assert answer.status_code in (302, 303, 400), path
        assert b"126610LN" not in answer.data and b"9500" not in answer.data
    assert len(stored(app)) == 1


def test_the_list_shows_the_market_price_beside_each_range_and_flags_a_drift(
    app, staff, signed_in, market_provider
):
    app.config.update(MARKET_DATA_URL=market_provider.url, MARKET_DATA_API_KEY="k")
    staff.post(signed_in, "/staff/prices/new", ENTRY)  # 9,500-10,800: mid 20% under 12,700
    with app.app_context():
        assert jobs.fetch_market_prices() == "1 fetched"
    listing = staff.request(signed_in, "GET", "/staff/prices").get_data(as_text=True)
    assert "Market $12,700 · ours -20%</span>" in listing
    market_provider.prices["126610LN"] = 7500
    with app.app_context():
        jobs.fetch_market_prices()
    listing = staff.request(signed_in, "GET", "/staff/prices").get_data(as_text=True)
    assert "Market $7,500 · ours +35% · drifted" in listing


def listed_references(html: str) -> list[str]:
    return re.findall(r'data-entry="([^"]+)"', html)


def test_the_list_shows_fifty_entries_a_page_with_plain_links_to_the_rest(app, staff, signed_in):
    for number in range(60):
        add_entry(app, reference=f"{100000 + number}", names=f"Model {number}")
    first = staff.request(signed_in, "GET", "/staff/prices").get_data(as_text=True)
    assert len(listed_references(first)) == 50 and "Page 1 of 2" in first
    assert 'rel="next" href="/staff/prices?page=2"' in first and "60 entries" in first
    second = staff.request(signed_in, "GET", "/staff/prices?page=2").get_data(as_text=True)
    assert listed_references(second) == [f"{100050 + number}" for number in range(10)]
    past_the_end = staff.request(signed_in, "GET", "/staff/prices?page=9").get_data(as_text=True)
    assert "Page 2 of 2" in past_the_end
    searched = staff.request(signed_in, "GET", "/staff/prices?q=model+7&sort=highest")
    html = searched.get_data(as_text=True)
    assert listed_references(html) == ["100007"] and "1 entry matching “model 7”" in html
    assert 'action="/staff/prices"' in html and 'method="get"' in html


def test_the_filters_and_sorts_are_kept_across_pages(app, staff, signed_in):
    for number in range(55):
        set_days_ago(app, add_entry(app, reference=f"{100000 + number}"), 200 + number)
    add_entry(app, reference="126610LN")
    html = staff.request(signed_in, "GET", "/staff/prices?show=stale&sort=oldest")
    html = html.get_data(as_text=True)
    assert "55 entries: stale, oldest range first" in html and "126610LN" not in html
    assert listed_references(html)[0] == "100054"
    assert 'href="/staff/prices?show=stale&amp;sort=oldest&amp;page=2"' in html


@pytest.mark.parametrize(
    "query",
    ["page=abc", "page=%C2%B2", "page=-1", "page=99999999999999999999", "sort=low;DROP",
     "show=%3Cscript%3Ealert(1)%3C/script%3E", "show=stale&show=drifted", "q=" + "x" * 500,
     "q=%00%25_"],
)  # fmt: skip
def test_a_bad_query_string_is_ignored_never_a_500(app, staff, signed_in, query):
    add_entry(app)
    answer = staff.request(signed_in, "GET", f"/staff/prices?{query}")
    assert answer.status_code == 200
    assert "alert(1)" not in answer.get_data(as_text=True)


def test_a_search_that_finds_nothing_says_so_with_a_way_back(app, staff, signed_in):
    add_entry(app)
    html = staff.request(signed_in, "GET", "/staff/prices?q=nautilus").get_data(as_text=True)
    assert "No entry matches." in html and "Show every entry" in html
    assert listed_references(html) == []
