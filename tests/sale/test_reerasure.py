"""Erasures applied again after a restore (app/sale/reerasure.py): a backup taken before a lead
was erased comes back with that lead erased again, from the record of erasures kept beside
leads.db (app/leads/erasure_record.py), which the restore leaves in place, or, on a new machine,
from the copy every later backup holds; and a restore that finds no record anywhere restores
nothing unless told the site never erased anyone. The restored records are only data: a file
name in them that is not one plain name inside its folder deletes nothing."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from app.leads import backups, erasure_record, history, storage, store
from app.sale import erasure, reerasure
from tests.helpers import give_token, save_sample_lead, status_link_count


def stored_photo(app, name: str) -> dict:
    """A photo as the sell form leaves it: its raw upload, waiting for the photo job."""
    with app.app_context():
        storage.incoming_dir().mkdir(parents=True, exist_ok=True)
        (storage.incoming_dir() / f"{name}.upload").write_bytes(b"raw")
    return {"original_name": "IMG_1.jpg", "upload_name": f"{name}.upload"}


def lose_the_database(app, template: Path) -> str:
    """leads.db (and its WAL) deleted and an empty one put in its place, as an operator does
    before restoring a backup; the instance folder around it stays. The new database's path."""
    path = Path(app.config["LEADS_DB"])
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(template, path)
    return str(path)


def test_a_lead_erased_after_the_backup_comes_back_erased(
    app, make_app, migrated_leads_db, tmp_path
):
    lead_id = save_sample_lead(app, photos=[stored_photo(app, "p1")])
    token = give_token(app, lead_id)
    backed_up = app.test_cli_runner().invoke(args=["leads", "backup", "--to", str(tmp_path)])
    assert backed_up.exit_code == 0, backed_up.output
    with app.app_context():
        erasure.close_and_erase(lead_id, "new", "not_a_fit", "staff:1")

    fresh = make_app(LEADS_DB=lose_the_database(app, migrated_leads_db), BACKUP_DIR=str(tmp_path))
    result = fresh.test_cli_runner().invoke(args=["leads", "restore"])

    assert result.exit_code == 0, result.output
    assert "Restored 1 leads and 1 photo files" in result.output
    assert "Re-applied 1 erasures made after this copy was taken." in result.output
    with fresh.app_context():
        lead = store.get_lead(lead_id)
        assert lead["erased_at"] and lead["state"] == "closed"
        assert lead["full_name"] == lead["email"] == lead["phone"] == ""
        closed = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "closed"]
        assert closed[-1]["actor"] == "restore" and closed[-1]["data"]["reason"] == "not_a_fit"
        assert not any(storage.storage_dir().rglob("p1.*"))
        assert len(erasure_record.entries()) == 1  # the record is kept, not added to
    assert status_link_count(fresh, lead_id) == 0
    assert fresh.test_client().get(f"/status/{token}").status_code == 404


def test_an_erasure_applied_again_deletes_nothing_a_restored_name_points_outside_its_folder(
    app, make_app, migrated_leads_db, tmp_path, caplog
):
    lead_id = save_sample_lead(app, photos=[stored_photo(app, "p1")])
    with app.app_context():  # another lead's photo: the folder exists in the backup
        storage.photos_dir().mkdir(parents=True)
        (storage.photos_dir() / "p0.jpg").write_bytes(b"a photo")
    backed_up = app.test_cli_runner().invoke(args=["leads", "backup", "--to", str(tmp_path)])
    assert backed_up.exit_code == 0, backed_up.output
    [folder] = tmp_path.glob("leads-*")
    with sqlite3.connect(folder / "leads.db") as copy:  # the copy names the live database
        copy.execute("UPDATE lead_photos SET image_name = '../../leads.db', "
                     "thumb_name = 'p1-thumb.webp/../../../leads.db'")  # fmt: skip
    with app.app_context():
        erasure.close_and_erase(lead_id, "new", "not_a_fit", "staff:1")

    database = lose_the_database(app, migrated_leads_db)
    fresh = make_app(LEADS_DB=database, BACKUP_DIR=str(tmp_path))
    result = fresh.test_cli_runner().invoke(args=["leads", "restore"])

    assert result.exit_code == 0, result.output
    assert "Re-applied 1 erasures made after this copy was taken." in result.output
    assert Path(database).is_file()
    with fresh.app_context():
        assert store.get_lead(lead_id)["erased_at"] and store.lead_photos(lead_id) == []
    assert "Not a file name this site writes, not deleted: '../../leads.db'" in caplog.text


def test_an_entry_names_what_was_erased_and_the_role_never_the_person(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:7")
        [entry] = erasure_record.entries()
        reference = store.get_lead(lead_id)["reference"]
    assert entry["lead_id"] == lead_id and entry["reference"] == reference
    assert (entry["erased"], entry["reason"], entry["by"]) == ("closed_lead", "withdrawn", "staff")
    assert "Jane" not in str(entry) and "jane@example.com" not in str(entry)


def test_an_entry_for_another_lead_under_the_same_id_erases_nothing(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        erasure_record.append(
            {"id": "x", "lead_id": lead_id, "reference": "WB-OTHER", "erased": "closed_lead",
             "reason": "withdrawn", "at": "2026-01-01T00:00:00+00:00", "by": "staff"}
        )  # fmt: skip
        assert reerasure.reapply_all(erasure_record.entries()).erased == []
        assert store.get_lead(lead_id)["erased_at"] is None


def erased_between_two_backups(app, folder: Path) -> int:
    """A lead with a photo in a nightly backup, erased, then the next night's backup; its id."""
    lead_id = save_sample_lead(app, photos=[stored_photo(app, "p1")])
    with app.app_context():
        backups.take_backup(folder, datetime(2026, 11, 23, 3, 17, tzinfo=UTC))
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:1")
        backups.take_backup(folder, datetime(2026, 11, 24, 3, 17, tzinfo=UTC))
    return lead_id


def test_on_a_new_machine_an_older_backup_comes_back_erased_by_a_later_backups_record(
    app, make_app, tmp_path
):
    folder = tmp_path / "backups"
    lead_id = erased_between_two_backups(app, folder)
    older, _ = backups.backups(folder)

    fresh = make_app(BACKUP_DIR=str(folder))  # a new machine: no erasures.jsonl of its own
    result = fresh.test_cli_runner().invoke(args=["leads", "restore", str(older)])

    assert result.exit_code == 0, result.output
    assert "Re-applied 1 erasures made after this copy was taken." in result.output
    assert "as the newest backup's copy has them (24 November 2026, 03:17 UTC)" in result.output
    with fresh.app_context():
        lead = store.get_lead(lead_id)
        assert lead["erased_at"] and lead["full_name"] == ""
        assert not any(storage.storage_dir().rglob("p1.*"))
        assert [entry["lead_id"] for entry in erasure_record.entries()] == [lead_id]


def test_a_restore_that_finds_no_record_of_erasures_restores_nothing_unless_told(
    app, make_app, tmp_path
):
    folder = tmp_path / "backups"
    lead_id = erased_between_two_backups(app, folder)
    for backup in backups.backups(folder):  # backups as a release before this one took them
        (backup / "erasures.jsonl").unlink()
    fresh = make_app(BACKUP_DIR=str(folder))
    older = str(backups.backups(folder)[0])

    refused = fresh.test_cli_runner().invoke(args=["leads", "restore", older])

    assert refused.exit_code == 1
    assert "Nothing was restored: no record of erasures was found" in refused.output
    assert "--no-erasure-record" in refused.output
    with fresh.app_context():
        assert backups.lead_count() == 0

    told = fresh.test_cli_runner().invoke(args=["leads", "restore", older, "--no-erasure-record"])

    assert told.exit_code == 0, told.output
    assert "No record of erasures was found" in told.output
    with fresh.app_context():
        assert store.get_lead(lead_id)["full_name"] == "Jane Doe"  # as the operator was warned
