"""The inbox's search and filters, straight against the leads store on a real SQLite file."""

from __future__ import annotations

import csv
import io

import pytest

from app.leads import export, search, store
from app.leads.db import transaction
from app.leads.schema.progress_tables import SEARCH_COLUMNS, search_values
from app.sale import erasure, lifecycle
from tests.helpers import FORMULA_OPENINGS, database_at_version, save_sample_lead


def ids(app, **filters) -> list[int]:
    with app.app_context():
        return [lead["id"] for lead in search.find_leads(filters)]


def test_search_matches_name_email_phone_reference_and_model(app):
    jane = save_sample_lead(app)
    omar = save_sample_lead(
        app,
        full_name="Omar 100%_Sure",
        email="omar@mail.example",
        phone="+1 (646) 555-0142",
        watch_model="Speedmaster",
        watch_brand="Omega",
    )
    with app.app_context():
        reference = store.get_lead(omar)["reference"]
    assert ids(app, text="jane") == [jane]
    assert ids(app, text="MAIL.EXAMPLE") == [omar]
    assert ids(app, text="speedmaster") == [omar]
    assert ids(app, digits="6465550142") == [omar]
    assert ids(app, reference=reference) == [omar]
    assert ids(app, text="100%_") == [omar]
    assert ids(app, text="%") == [omar]  # a literal percent sign, not "anything"
    assert ids(app, text="nobody") == []
    assert ids(app) == [omar, jane]  # newest first


def test_filters_combine_and_counts_ignore_the_state_filter(app):
    first = save_sample_lead(app, watch_brand="Omega", utm_source=None)
    second = save_sample_lead(app, watch_brand="Omega", utm_source="facebook")
    third = save_sample_lead(app, watch_brand="Rolex", utm_source="facebook")
    with app.app_context():
        lifecycle.transition(second, "contacted", "staff:1", {}, "new")
        counts = search.count_by_state({"brand": "Omega", "state": "contacted"})
        choices = search.filter_choices()
    assert ids(app, brand="Omega") == [second, first]
    assert ids(app, source="facebook") == [third, second]
    assert ids(app, source="") == [first]
    assert ids(app, brand="Omega", state="new") == [first]
    assert counts == {"new": 1, "contacted": 1}
    assert choices == {"brands": ["Omega", "Rolex"], "sources": ["facebook"]}


def test_date_range_is_inclusive(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        day = store.get_lead(lead_id)["created_at"][:10]
    assert ids(app, created_from=day, created_to=day) == [lead_id]
    assert ids(app, created_from="2999-01-01") == []
    assert ids(app, created_to="2000-01-01") == []


def test_photo_lookup_needs_the_right_lead_and_an_unguessable_id(app):
    photos = [{"original_name": "a.jpg", "upload_name": "u1"}]
    first = save_sample_lead(app, photos=photos)
    second = save_sample_lead(app, photos=[{"original_name": "b.jpg", "upload_name": "u2"}])
    with app.app_context():
        [mine] = store.lead_photos(first)
        [theirs] = store.lead_photos(second)
        assert len(mine["public_id"]) >= 22 and mine["public_id"] != theirs["public_id"]
        assert store.lead_photo(first, mine["public_id"])["upload_name"] == "u1"
        assert store.lead_photo(first, theirs["public_id"]) is None
        assert store.lead_photo(first, str(mine["id"])) is None


def test_photos_saved_before_public_ids_get_one_on_migration(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 3)
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, reference) VALUES ('A', 'a@example.com', "
        "'1', 'Omega', 'Good', 0, 0, 'USA Website', 'e', '2025-01-01T00:00:00', 'USWB-AAAAAA')"
    )
    db.execute(
        "INSERT INTO lead_photos (lead_id, position, original_name, upload_name) "
        "VALUES (1, 1, 'a.jpg', 'u')"
    )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)  # migrated as the app starts
    with app.app_context():
        [photo] = store.lead_photos(1)
    assert photo["public_id"] and len(photo["public_id"]) >= 22


def test_csv_cells_never_start_a_spreadsheet_formula(app):
    save_sample_lead(
        app, full_name='=HYPERLINK("http://evil.example","x")', phone="+1 212 555 0100"
    )
    buffer = io.StringIO()
    with app.app_context():
        export.write_csv(buffer, search.find_leads({}))
    [row] = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert row["full_name"] == '\'=HYPERLINK("http://evil.example","x")'
    assert row["phone"] == "'+1 212 555 0100"
    assert row["reference"].startswith("USWB-") and row["state"] == "new"


@pytest.mark.parametrize("opening", FORMULA_OPENINGS.values(), ids=FORMULA_OPENINGS.keys())
def test_a_cell_opening_with_any_formula_character_is_exported_as_text(app, opening):
    save_sample_lead(app, full_name=f"{opening}cmd|' /C calc'!A0", watch_model=f"{opening}1+1")
    buffer = io.StringIO()
    with app.app_context():
        export.write_csv(buffer, search.find_leads({}))
    [row] = list(csv.DictReader(io.StringIO(buffer.getvalue(), newline="")))
    assert row["full_name"] == f"'{opening}cmd|' /C calc'!A0"
    assert row["watch_model"] == f"'{opening}1+1"


# At 100,000 leads (bench/insights.py): the search index, the indexed filters and
# the streamed export.


def test_a_search_of_three_characters_or_more_finds_them_anywhere_through_the_index(app):
    grace = save_sample_lead(app, full_name="Grace Hopper", email="gh@navy.example")
    omega = save_sample_lead(app, watch_brand="Omega", watch_model="Speedmaster Moonwatch")
    assert ids(app, text="oPPe") == [grace]  # inside a word, any case
    assert ids(app, text="navy.ex") == [grace]
    assert ids(app, text="moonwatch") == [omega]
    assert ids(app, text='say "hi"') == []  # quotes are text, not the index's syntax
    assert ids(app, text="OR") == []  # two characters: read lead by lead, nothing by that name
    with app.app_context(), transaction() as db:
        where, params = search.filter_clause({"text": "hopper"})
        plan = db.execute(f"EXPLAIN QUERY PLAN SELECT id FROM leads{where}", params).fetchall()
    assert "leads_search" in " ".join(row[3] for row in plan)


def test_an_erased_lead_leaves_nothing_of_its_details_in_the_search_index(app):
    kept = save_sample_lead(app, full_name="Jane Kept", phone="(212) 555-0100")
    erased = save_sample_lead(
        app, full_name="Quentin Zeppelinovich", email="qz@example.org", phone="(917) 555-0199"
    )
    assert ids(app, text="zeppelin") == [erased] and ids(app, digits="9175550199") == [erased]
    with app.app_context():
        lifecycle.transition(erased, "closed", "staff:1", {"reason": "no_response"}, "new")
        erasure.erase(erased, "staff:1")
    assert ids(app, text="zeppelin") == [] and ids(app, digits="9175550199") == []
    assert ids(app, text="Jane Kept") == [kept]
    # The index holds exactly what a fresh index of the leads as they now are would: no page of
    # it keeps the erased details as entries waiting to be merged away.
    with app.app_context(), transaction() as db:
        db.execute(
            f"CREATE VIRTUAL TABLE temp.fresh USING fts5({SEARCH_COLUMNS}, content='', "
            "tokenize='trigram')"
        )
        db.execute(
            f"INSERT INTO temp.fresh (rowid, {SEARCH_COLUMNS}) "
            f"SELECT id, {search_values('leads')} FROM leads ORDER BY id"
        )
        db.execute("INSERT INTO temp.fresh (fresh) VALUES ('optimize')")
        stored = [
            row[0] for row in db.execute("SELECT block FROM leads_search_data WHERE id != 10")
        ]
        fresh = [row[0] for row in db.execute("SELECT block FROM temp.fresh_data WHERE id != 10")]
    assert sorted(stored) == sorted(fresh)


def test_the_export_reads_the_leads_one_at_a_time_in_chunks(app):
    for number in range(5):
        save_sample_lead(app, full_name=f"Seller {number}")
    with app.app_context():
        leads = search.iter_leads({"text": "Seller"})
        assert not isinstance(leads, list)
        chunks = list(export.csv_chunks(leads, rows_per_chunk=2))
    assert len(chunks) == 3  # header and 2 leads, 2 leads, the last lead
    rows = list(csv.DictReader(io.StringIO("".join(chunks))))
    assert [row["full_name"] for row in rows] == [f"Seller {n}" for n in (4, 3, 2, 1, 0)]


def test_source_and_date_filters_give_the_same_leads_through_their_indexes(app):
    blank = save_sample_lead(app, utm_source="")
    none = save_sample_lead(app, utm_source=None)
    tagged = save_sample_lead(app, utm_source="google")
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE leads SET created_at = '2025-03-09T23:59:59+00:00' WHERE id = ?", (none,)
        )
        counts = search.count_by_state({"source": "", "state": "closed"})
    assert ids(app, source="") == [none, blank]
    assert ids(app, source="google") == [tagged]
    assert ids(app, created_from="2025-03-09", created_to="2025-03-09") == [none]
    assert ids(app, created_to="2025-03-08") == []
    assert counts == {"new": 2}
