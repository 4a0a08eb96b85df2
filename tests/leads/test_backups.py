"""`flask leads backup` and `flask leads restore`: leads.db and the photo storage together,
dated folders kept BACKUP_KEEP_DAYS (never the newest), and a restore that never writes over a
database holding leads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.leads import backups, erasure_record, storage
from app.sale import erasure
from tests.helpers import save_sample_lead


def photo_lead(app) -> int:
    """A lead with one photo file in the private storage, as the photo job leaves it."""
    with app.app_context():
        folder = storage.photos_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ph-1.jpg").write_bytes(b"\xff\xd8 a watch")
    return save_sample_lead(app)


def test_backup_holds_the_database_and_the_photo_files(app, tmp_path):
    photo_lead(app)
    result = app.test_cli_runner().invoke(args=["leads", "backup", "--to", str(tmp_path)])
    assert result.exit_code == 0, result.output
    [folder] = backups.backups(tmp_path)
    assert (folder / "leads.db").is_file()
    assert (folder / "storage" / "watch-photos" / "ph-1.jpg").read_bytes() == b"\xff\xd8 a watch"
    assert "Backed up 1 leads and 1 photo files" in result.output
    assert folder.stat().st_mode & 0o077 == 0  # personal data: the owner's alone
    assert (folder / "erasures.jsonl").read_text() == ""  # the record: no erasure yet
    assert "with the record of 0 erasures" in result.output


def test_backup_holds_the_record_of_erasures_as_it_stands(app, tmp_path):
    lead_id = photo_lead(app)
    with app.app_context():
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:1")
        record = erasure_record.path().read_text()
    result = app.test_cli_runner().invoke(args=["leads", "backup", "--to", str(tmp_path)])
    [folder] = backups.backups(tmp_path)
    assert (folder / "erasures.jsonl").read_text() == record and f'"lead_id": {lead_id}' in record
    assert "with the record of 1 erasures" in result.output


def test_backups_older_than_the_kept_days_are_removed_but_never_the_newest(app, tmp_path):
    now = datetime(2026, 11, 24, 3, 17, tzinfo=UTC)
    with app.app_context():
        for days in (40, 31, 29, 1):
            backups.take_backup(tmp_path, now - timedelta(days=days))
        removed = backups.remove_expired(tmp_path, 30, now)
        assert [backups.taken_at(f).day for f in removed] == [15, 24]
        assert len(backups.backups(tmp_path)) == 2
        assert backups.remove_expired(tmp_path, 0, now + timedelta(days=90)) != []
        assert len(backups.backups(tmp_path)) == 1  # the newest stays, however old


def test_restore_brings_a_backup_into_an_empty_instance(app, make_app, tmp_path):
    lead_id = photo_lead(app)
    app.test_cli_runner().invoke(args=["leads", "backup", "--to", str(tmp_path / "b")])
    fresh = make_app(BACKUP_DIR=str(tmp_path / "b"))

    result = fresh.test_cli_runner().invoke(args=["leads", "restore"])

    assert result.exit_code == 0, result.output
    assert "Restored 1 leads and 1 photo files" in result.output
    shown = fresh.test_cli_runner().invoke(args=["leads", "show", str(lead_id)])
    assert "Jane Doe" in shown.output
    with fresh.app_context():
        assert (storage.photos_dir() / "ph-1.jpg").is_file()


def test_restore_refuses_an_instance_that_holds_leads(app, tmp_path):
    photo_lead(app)
    runner = app.test_cli_runner()
    runner.invoke(args=["leads", "backup", "--to", str(tmp_path)])
    save_sample_lead(app, full_name="Kept Seller")

    result = runner.invoke(args=["leads", "restore", str(backups.backups(tmp_path)[0])])

    assert result.exit_code != 0
    assert "Nothing was restored" in result.output and "already holds 2 leads" in result.output
    assert "Kept Seller" in runner.invoke(args=["leads", "list"]).output


def test_restore_without_any_backup_says_so(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["leads", "restore"])
    assert result.exit_code != 0 and "No backup found" in result.output
