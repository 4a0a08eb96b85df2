"""The lead lifecycle on a real SQLite file: migration, references, moves, timeline, erasure."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from app.leads import history, links, reference, schema, storage, store
from app.leads.state import State
from app.sale import erasure, lifecycle
from app.security.tokens import digest
from tests.helpers import (
    PAYMENT,
    business_today,
    database_at_version,
    fill_purchase_record,
    sample_lead,
    save_sample_lead,
)

QUOTE = {"amount_low": 8000, "amount_high": 9500, "valid_until": "2026-12-01", "message": "Hi"}
APPOINTMENT = {"date": "2026-12-03", "time": "10:30", "mode": "office", "place": "5th Ave"}
DETAILS = {
    "new": {},
    "contacted": {},
    "quoted": QUOTE,
    "accepted": {"via": "phone"},
    "appointment": APPOINTMENT,
    "offered": {"amount": 9100, "valid_until": "2026-12-10"},
    "agreed": {"via": "status_page"},
    "bought": {"amount": 9100, "paid_on": business_today().isoformat()} | PAYMENT,
    "closed": {"reason": "not_a_fit"},
}
PATH_TO = {
    "new": [],
    "contacted": ["contacted"],
    "quoted": ["quoted"],
    "accepted": ["quoted", "accepted"],
    "appointment": ["quoted", "accepted", "appointment"],
    "offered": ["quoted", "accepted", "appointment", "offered"],
    "agreed": ["quoted", "accepted", "appointment", "offered", "agreed"],
    "bought": ["quoted", "accepted", "appointment", "offered", "agreed", "bought"],
    "closed": ["closed"],
}
ALLOWED = {
    ("new", "contacted"), ("new", "quoted"), ("new", "closed"),
    ("contacted", "quoted"), ("contacted", "closed"),
    ("quoted", "quoted"), ("quoted", "accepted"), ("quoted", "closed"),
    ("accepted", "appointment"), ("accepted", "closed"),
    ("appointment", "appointment"), ("appointment", "offered"), ("appointment", "closed"),
    ("offered", "offered"), ("offered", "agreed"), ("offered", "closed"),
    ("agreed", "bought"), ("agreed", "closed"),
    ("closed", "contacted"),
}  # fmt: skip


def details(from_state: str, to_state: str) -> dict:
    return DETAILS[to_state] | ({"note": "Seller called back"} if from_state == "closed" else {})


def walk(lead_id: int, to_state: str) -> None:
    fill_purchase_record(lead_id)
    state = "new"
    for step in PATH_TO[to_state]:
        lifecycle.transition(lead_id, step, "staff:1", details(state, step), state)
        state = step


def columns(db_path, table="leads") -> set[str]:
    db = sqlite3.connect(db_path)
    try:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    finally:
        db.close()


def test_old_database_is_migrated_with_references_and_submitted_events(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = sqlite3.connect(path)
    for statement in schema.BASE_TABLES:
        db.execute(statement)
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at) VALUES ('Old Seller', 'o@example.com', "
        "'2125550100', 'Omega', 'Good', 0, 0, 'USA Website', 'evt-old-1', '2025-01-02T03:04:05')"
    )
    db.commit()
    db.close()
    assert "state" not in columns(path)
    app = make_app(LEADS_DB=path)  # migrated as the app starts
    with app.app_context():
        lead = store.get_lead(1)
        events = history.lead_events(1)
    assert lead["state"] == "new" and lead["last_activity_at"] == "2025-01-02T03:04:05"
    assert reference.PATTERN.fullmatch(lead["reference"])
    assert [(e["kind"], e["actor"], e["at"]) for e in events] == [
        ("submitted", "seller", "2025-01-02T03:04:05")
    ]
    db = sqlite3.connect(app.config["LEADS_DB"])
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
    db.close()


def test_saved_lead_is_new_with_a_reference_and_a_submitted_event(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        lead = store.get_lead(lead_id)
        [event] = history.lead_events(lead_id)
    assert lead["state"] == "new" and lead["erased_at"] is None
    assert reference.PATTERN.fullmatch(lead["reference"])
    assert not set(lead["reference"][5:]) & set("01OIL")
    assert event["kind"] == "submitted" and event["actor"] == "seller"
    assert event["data"] == {"photos": 0}


def test_references_are_random_and_never_confusable():
    drawn = {reference.new_reference() for _ in range(2000)}
    assert len(drawn) == 2000
    assert all(reference.PATTERN.fullmatch(ref) for ref in drawn)
    assert not set("".join(ref[5:] for ref in drawn)) & set("01OIL")


def test_reference_collision_draws_again(app, monkeypatch):
    drawn = iter(["USWB-AAAAAA", "USWB-AAAAAA", "USWB-BBBBBB"])
    monkeypatch.setattr(store, "new_reference", lambda: next(drawn))
    first, second = save_sample_lead(app), save_sample_lead(app)
    with app.app_context():
        assert store.get_lead(first)["reference"] == "USWB-AAAAAA"
        assert store.get_lead(second)["reference"] == "USWB-BBBBBB"


def test_typed_references_are_normalised():
    assert reference.normalise(" uswb 7k3f9q ") == "USWB-7K3F9Q"
    assert reference.normalise("7K3F9Q") == "USWB-7K3F9Q"
    assert reference.normalise("USWB-7K3F90") == ""  # 0 is never in a reference
    assert reference.normalise("Jane") == ""


@pytest.mark.parametrize("from_state", list(State))
@pytest.mark.parametrize("to_state", list(State))
def test_only_the_designed_moves_are_allowed(app, from_state, to_state):
    lead_id = save_sample_lead(app)
    with app.app_context():
        walk(lead_id, from_state)
        move = details(from_state, to_state)
        if (from_state, to_state) == ("accepted", "offered"):  # a sale by mail's, once received
            with pytest.raises(lifecycle.MissingDetails, match="book it first"):
                lifecycle.transition(lead_id, to_state, "staff:1", move, from_state)
            assert store.get_lead(lead_id)["state"] == from_state
        elif (from_state, to_state) in ALLOWED:
            event_id = lifecycle.transition(lead_id, to_state, "staff:1", move, from_state)
            assert store.get_lead(lead_id)["state"] == to_state
            assert (
                history.get_event(event_id)["data"] == {"from": from_state, "to": to_state} | move
            )
        else:
            with pytest.raises(lifecycle.IllegalMove, match="cannot move to"):
                lifecycle.transition(lead_id, to_state, "staff:1", move, from_state)
            assert store.get_lead(lead_id)["state"] == from_state


def test_stale_form_is_refused_with_a_clear_message_and_changes_nothing(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        lifecycle.transition(lead_id, "contacted", "staff:1", {}, "new")
        events_before = history.lead_events(lead_id)
        with pytest.raises(lifecycle.StaleState, match="now Contacted, not New") as refused:
            lifecycle.transition(lead_id, "closed", "staff:2", {"reason": "not_a_fit"}, "new")
        assert refused.value.current == "contacted"
        assert store.get_lead(lead_id)["state"] == "contacted"
        assert history.lead_events(lead_id) == events_before


def test_two_staff_quoting_at_once_make_one_transition(app):
    lead_id = save_sample_lead(app)
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def act(staff: int) -> None:
        with app.app_context():
            start.wait()
            try:
                lifecycle.transition(lead_id, "quoted", f"staff:{staff}", QUOTE, "new")
                outcomes.append("moved")
            except lifecycle.StaleState:
                outcomes.append("stale")

    threads = [threading.Thread(target=act, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["moved"] + ["stale"] * 7
    with app.app_context():
        changes = [e for e in history.lead_events(lead_id) if e["kind"] == "state_changed"]
    assert len(changes) == 1


def test_moves_without_their_details_are_refused(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        with pytest.raises(lifecycle.MissingDetails, match="reason"):
            lifecycle.transition(lead_id, "closed", "staff:1", {}, "new")
        with pytest.raises(lifecycle.MissingDetails, match="not a reason"):
            lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "bored"}, "new")
        with pytest.raises(lifecycle.MissingDetails, match="valid_until"):
            lifecycle.transition(lead_id, "quoted", "staff:1", {"amount_low": 1}, "new")
        with pytest.raises(lifecycle.MissingDetails, match="low end"):
            lifecycle.transition(lead_id, "quoted", "staff:1", QUOTE | {"amount_low": 10000}, "new")
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "no_response"}, "new")
        with pytest.raises(lifecycle.MissingDetails, match="note"):
            lifecycle.transition(lead_id, "contacted", "staff:1", {}, "closed")
        assert store.get_lead(lead_id)["state"] == "closed"


def test_unknown_lead_and_unknown_state_are_refused(app):
    with app.app_context():
        with pytest.raises(lifecycle.LeadNotFound):
            lifecycle.transition(404, "contacted", "staff:1", {}, "new")
        with pytest.raises(lifecycle.IllegalMove, match="not a lead state"):
            lifecycle.transition(404, "sold", "staff:1", {}, "new")


def test_notes_and_finished_work_appear_on_the_timeline(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        lifecycle.add_note(lead_id, "staff:3", "  Asked for the serial  ")
        store.mark_done(lead_id, "conversions_sent_at")
        kinds = [(e["kind"], e["actor"], e["data"]) for e in history.lead_events(lead_id)]
        with pytest.raises(lifecycle.MissingDetails):
            lifecycle.add_note(lead_id, "staff:3", "   ")
    assert kinds[1:] == [
        ("note", "staff:3", {"note": "Asked for the serial"}),
        ("work_done", "system", {"work": "conversions_sent"}),
    ]


def test_events_cannot_be_changed_or_deleted(app):
    lead_id = save_sample_lead(app)
    db = sqlite3.connect(app.config["LEADS_DB"])
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("UPDATE lead_events SET data = '{}' WHERE lead_id = ?", (lead_id,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("DELETE FROM lead_events WHERE lead_id = ?", (lead_id,))
    finally:
        db.close()


def stored_photo(app, name: str) -> dict:
    """A photo as the upload and the worker leave it: raw upload, image and thumbnail files."""
    with app.app_context():
        storage.incoming_dir().mkdir(parents=True, exist_ok=True)
        storage.photos_dir().mkdir(parents=True, exist_ok=True)
        (storage.incoming_dir() / f"{name}.upload").write_bytes(b"raw")
        (storage.photos_dir() / f"{name}.jpg").write_bytes(b"jpeg")
        (storage.photos_dir() / f"{name}.webp").write_bytes(b"webp")
    return {"original_name": "IMG_1.jpg", "upload_name": f"{name}.upload"}


def test_erasing_a_closed_lead_keeps_only_a_non_personal_record(app):
    lead_id = save_sample_lead(app, photos=[stored_photo(app, "p1"), stored_photo(app, "p2")])
    other_id = save_sample_lead(app, photos=[stored_photo(app, "q1")])
    with app.app_context():
        for position, name in ((1, "p1"), (2, "p2")):
            photo_id = store.lead_photos(lead_id)[position - 1]["id"]
            store.record_photo(photo_id, image_name=f"{name}.jpg", thumb_name=f"{name}.webp")
        lifecycle.add_note(lead_id, "staff:1", "Jane's cell is 917 555 0199")
        lifecycle.transition(lead_id, "quoted", "staff:1", QUOTE, "new")
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "seller_declined"}, "quoted")
        before = store.get_lead(lead_id)
        assert erasure.erase(lead_id, "staff:1") == 2
        lead = store.get_lead(lead_id)
        events = history.lead_events(lead_id)
        remaining = sorted(p.name for p in storage.storage_dir().rglob("*") if p.is_file())
        assert store.lead_photos(lead_id) == []
        assert len(store.lead_photos(other_id)) == 1
    for field in ("full_name", "email", "phone", "additional_details"):
        assert lead[field] == ""
    assert lead["client_ip"] is None and lead["meta_event_id"] == f"erased-{lead_id}"
    for field in ("reference", "watch_brand", "created_at", "state", "utm_source"):
        assert lead[field] == before[field]
    assert lead["erased_at"]
    assert remaining == ["q1.jpg", "q1.upload", "q1.webp"]
    text = repr(events)
    assert "917 555 0199" not in text and "Hi" not in text
    assert events[-1]["kind"] == "erased" and events[-1]["data"] == {"photos": 2}
    quote = next(e for e in events if e["kind"] == "state_changed")
    assert quote["data"]["amount_high"] == 9500 and "message" not in quote["data"]


def test_only_a_closed_lead_can_be_erased_and_only_once(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        with pytest.raises(lifecycle.IllegalMove, match="Only a closed lead"):
            erasure.erase(lead_id, "staff:1")
        assert store.get_lead(lead_id)["full_name"] == "Jane Doe"
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "withdrawn"}, "new")
        erasure.erase(lead_id, "staff:1")
        with pytest.raises(lifecycle.IllegalMove):
            erasure.erase(lead_id, "staff:1")
        with pytest.raises(lifecycle.StaleState):
            lifecycle.transition(lead_id, "contacted", "staff:1", {"note": "back"}, "closed")


def test_a_lead_saved_twice_is_one_lead_with_one_submitted_event(app):
    lead = sample_lead()
    with app.app_context():
        first = store.save_lead(lead, [])
        second = store.save_lead(lead, [])
        assert first == (1, True) and second == (1, False)
        assert len(history.lead_events(1)) == 1


def test_a_status_link_issued_before_links_had_their_own_table_keeps_working(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 7)
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, last_activity_at, reference, "
        "status_token_hash) VALUES ('Old Seller', 'o@example.com', '2125550100', 'Omega', "
        "'Good', 0, 0, 'USA Website', 'evt-old-2', '2026-11-01T10:00:00', "
        "'2026-11-01T10:00:00', 'USWB-OLD777', ?)",
        (digest("t" * 32),),
    )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)  # migrated as the app starts
    with app.app_context():
        lead = links.lead_by_token_hash(digest("t" * 32), "2026-01-01")
    assert lead["reference"] == "USWB-OLD777"
    assert "status_token_hash" not in columns(path)
