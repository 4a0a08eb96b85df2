"""The inbox's search and filters, straight against the leads store on a real SQLite file."""

from __future__ import annotations

import csv
import io

from app.leads import export, lifecycle, search, store
from tests.helpers import database_at_version, save_sample_lead


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
