"""Each encrypted purchase value and file is sealed to its lead and place: one copied into another
lead's row, another column, or over another file opens with no key; a file's SHA-256 is checked
on every read; data written before sealing is sealed once at start-up; and `flask purchases
check-keys` and `flask leads restore` succeed only when everything opens."""

from __future__ import annotations

import base64

import pytest
from cryptography.fernet import Fernet

from app.leads.db import transaction
from app.sale.purchase import crypto, files, record
from tests.helpers import fill_purchase_record, save_sample_lead

ACCOUNT = "000123456789"  # as fill_purchase_record puts it on the record
KEY = "sealing-test-key-" + "k" * 24
PDF = "application/pdf"


def stored(app, lead_id: int, kind: str, data: bytes) -> dict:
    with app.app_context(), transaction() as db:
        return files.add_file(db, lead_id, kind, data, "image/jpeg")


def path_of(app, row: dict):
    with app.app_context():
        return files.files_dir() / row["file_name"]


def test_a_value_copied_into_another_leads_row_or_another_column_opens_with_no_key(app):
    first, second = save_sample_lead(app), save_sample_lead(app)
    with app.app_context():
        fill_purchase_record(first)
        fill_purchase_record(second)
        token = record.get(first)["account_number_enc"]
        with transaction() as db:
            record.update(db, second, {"account_number_enc": token})
            record.update(db, first, {"routing_number_enc": token})
        with pytest.raises(crypto.InvalidToken):
            record.opened(record.get(second), "account_number_enc")
        with pytest.raises(crypto.InvalidToken):
            record.opened(record.get(first), "routing_number_enc")
        assert record.opened(record.get(first), "account_number_enc") == ACCOUNT


def test_a_file_swapped_for_another_leads_kind_or_version_is_refused(app):
    first, second = save_sample_lead(app), save_sample_lead(app)
    front = stored(app, first, "id_front", b"front of the first lead's ID")
    back = stored(app, first, "id_back", b"back of the first lead's ID")
    theirs = stored(app, second, "id_front", b"front of the second lead's ID")
    older = stored(app, first, "bill_of_sale", b"%PDF-1.7 version 1")
    newer = stored(app, first, "bill_of_sale", b"%PDF-1.7 version 2")

    path_of(app, theirs).write_bytes(path_of(app, front).read_bytes())  # another lead's
    path_of(app, back).write_bytes(path_of(app, front).read_bytes())  # another kind
    path_of(app, newer).write_bytes(path_of(app, older).read_bytes())  # another version

    with app.app_context():
        with pytest.raises(files.Unreadable, match="opens with no key"):
            files.read(theirs)
        with pytest.raises(files.Unreadable, match="opens with no key"):
            files.read(back)
        with pytest.raises(files.Unreadable, match="not the one its row names"):
            files.read(newer)
        assert files.read(front) == b"front of the first lead's ID"
        assert files.read(older) == b"%PDF-1.7 version 1"


def legacy_fernet() -> Fernet:
    """The cipher purchase data was written with before sealing (inside an app context)."""
    key = crypto.derived(KEY.encode(), crypto.LEGACY_PURPOSE)
    return Fernet(base64.urlsafe_b64encode(key))


def test_data_written_before_sealing_is_sealed_to_its_place_at_start_up(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    before = make_app(LEADS_DB=path, PURCHASE_DATA_KEY=KEY)
    lead_id = save_sample_lead(before)
    front = stored(before, lead_id, "id_front", b"front of the ID")
    with before.app_context():
        legacy = legacy_fernet()
        with transaction() as db:
            record.update(db, lead_id, {"account_number_enc": legacy.encrypt(b"1234").decode()})
            db.execute("UPDATE purchase_files SET sealed = 0")
        path_of(before, front).write_bytes(legacy.encrypt(b"front of the ID"))
        with pytest.raises(crypto.InvalidToken):  # reading never takes the unbound form
            record.opened(record.get(lead_id), "account_number_enc")
        with pytest.raises(files.Unreadable):
            files.read(front)

    after = make_app(LEADS_DB=path, PURCHASE_DATA_KEY=KEY)  # the next start seals them

    with after.app_context():
        purchase = record.get(lead_id)
        assert purchase["account_number_enc"].startswith("aes1.")
        assert record.opened(purchase, "account_number_enc") == "1234"
        row = files.latest(lead_id, "id_front")
        assert row["sealed"] == 1 and files.read(row) == b"front of the ID"
        assert not path_of(after, row).read_bytes().startswith(b"gAAAA")


def test_check_keys_passes_then_names_an_altered_file_and_a_moved_value(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        fill_purchase_record(lead_id)
    front = stored(app, lead_id, "id_front", b"front of the ID")
    runner = app.test_cli_runner()

    result = runner.invoke(args=["purchases", "check-keys"])
    assert result.exit_code == 0, result.output
    assert "Opened 1 values and 1 files with the configured keys." in result.output

    path_of(app, front).write_bytes(path_of(app, front).read_bytes()[:-1] + b"\x00")
    with app.app_context(), transaction() as db:
        token = record.get(lead_id)["account_number_enc"]
        record.update(db, lead_id, {"routing_number_enc": token})
        (reference,) = db.execute("SELECT reference FROM leads WHERE id = ?", (lead_id,)).fetchone()

    result = runner.invoke(args=["purchases", "check-keys"])
    assert result.exit_code == 1
    assert f"Opens with no configured key, or altered: {reference} routing_number_enc" in (
        result.output
    )
    assert f"Opens with no configured key, or altered: {reference} id_front v1" in result.output
    assert ACCOUNT not in result.output and "front of the ID" not in result.output


def backed_up(app, tmp_path) -> str:
    """A backup of an instance holding one purchase with a sealed value and file."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        fill_purchase_record(lead_id)
    stored(app, lead_id, "id_front", b"front of the ID")
    result = app.test_cli_runner().invoke(args=["leads", "backup", "--to", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    return str(tmp_path / "b")


def test_restore_succeeds_only_when_every_purchase_value_opens(make_app, tmp_path):
    folder = backed_up(make_app(PURCHASE_DATA_KEY=KEY), tmp_path)

    without_key = make_app(BACKUP_DIR=folder, PURCHASE_DATA_KEY="another-" + "x" * 32)
    result = without_key.test_cli_runner().invoke(args=["leads", "restore"])
    assert result.exit_code == 1
    assert "Restored 1 leads" in result.output
    assert "account_number_enc" in result.output and "id_front v1" in result.output
    assert "add to PURCHASE_DATA_KEY the key it was written under" in " ".join(
        result.output.split()
    )

    with_key = make_app(BACKUP_DIR=folder, PURCHASE_DATA_KEY=f"new-{'n' * 32},{KEY}")
    result = with_key.test_cli_runner().invoke(args=["leads", "restore"])
    assert result.exit_code == 0, result.output
    assert "Opened 1 purchase values and 1 purchase files with the configured keys." in (
        result.output
    )
