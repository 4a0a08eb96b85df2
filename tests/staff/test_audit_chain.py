"""The audit log as a hash chain: each entry holds the hash of itself and the entry before, so
an entry changed or removed behind the triggers' back (whoever can write leads.db can drop
them) is found by `flask staff audit --verify`, which names the first broken entry."""

import sqlite3
import threading

import pytest

from app.leads import audit, schema
from app.leads.audit_chain import entry_hash
from tests.helpers import database_at_version


@pytest.fixture
def five_entries(app) -> list[int]:
    with app.app_context():
        return [
            audit.record("lead_viewed", 1, lead_id=n, address="203.0.113.5", data={"n": n})
            for n in range(1, 6)
        ]


def tamper(app, *statements: str) -> None:
    """What someone with write access to leads.db could do: drop the triggers, then write."""
    db = sqlite3.connect(app.config["LEADS_DB"])
    db.execute("DROP TRIGGER audit_no_update")
    db.execute("DROP TRIGGER audit_no_delete")
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def verify(runner):
    return runner.invoke(args=["staff", "audit", "--verify"])


def test_verify_says_ok_with_the_count_of_an_untouched_log(runner, five_entries):
    result = verify(runner)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK: 5 entries")


def test_verify_names_an_entry_edited_behind_the_triggers_back(app, runner, five_entries):
    tamper(app, "UPDATE audit SET address = '198.51.100.7' WHERE id = 3")
    result = verify(runner)
    assert result.exit_code == 1
    assert "entry 3" in result.output and "OK" not in result.output


def rehash(app, entry_id: int) -> None:
    """Recompute one entry's own hash from the entry before it, as a careful forger would."""
    db = sqlite3.connect(app.config["LEADS_DB"])
    db.row_factory = sqlite3.Row
    before = db.execute("SELECT hash FROM audit WHERE id = ?", (entry_id - 1,)).fetchone()[0]
    row = dict(db.execute("SELECT * FROM audit WHERE id = ?", (entry_id,)).fetchone())
    db.execute("UPDATE audit SET hash = ? WHERE id = ?", (entry_hash(before, row), entry_id))
    db.commit()
    db.close()


def test_verify_names_the_next_entry_when_an_edited_one_was_rehashed(app, runner, five_entries):
    tamper(app, "UPDATE audit SET action = 'nothing_happened' WHERE id = 2")
    rehash(app, 2)
    result = verify(runner)
    assert result.exit_code == 1 and "entry 3" in result.output


def test_verify_detects_a_deleted_entry(app, runner, five_entries):
    tamper(app, "DELETE FROM audit WHERE id = 3")
    result = verify(runner)
    assert result.exit_code == 1
    assert "entry 4" in result.output and "entry 3" in result.output


def test_the_migration_chains_entries_written_before_it_in_id_order(make_app, tmp_path):
    path = tmp_path / "leads.db"
    db = database_at_version(str(path), schema.MIGRATIONS.index(schema.chain_audit_log))
    for n in range(3):
        db.execute(
            "INSERT INTO audit (at, action, staff_id, address) VALUES (?, 'signed_in', 1, ?)",
            (f"2025-01-0{n + 1}T09:00:00+00:00", f"203.0.113.{n}"),
        )
    db.commit()
    db.close()
    upgraded = make_app(LEADS_DB=str(path))
    result = verify(upgraded.test_cli_runner())
    assert result.exit_code == 0 and result.output.startswith("OK: 3 entries")
    with upgraded.app_context():
        audit.record("signed_out", 1)
    assert verify(upgraded.test_cli_runner()).output.startswith("OK: 4 entries")


def test_entries_an_older_process_wrote_unchained_are_chained_by_the_next_one(
    app, runner, five_entries
):
    db = sqlite3.connect(app.config["LEADS_DB"])  # a worker still running the release before
    db.execute(
        "INSERT INTO audit (at, action, staff_id) VALUES ('2025-01-01T09:00:00+00:00', 'x', 1)"
    )
    db.commit()
    db.close()
    with app.app_context():
        audit.record("signed_out", 1)
    result = verify(runner)
    assert result.exit_code == 0 and result.output.startswith("OK: 7 entries")


def test_the_chain_does_not_let_an_entry_be_rewritten_even_to_chain_it(app, five_entries):
    db = sqlite3.connect(app.config["LEADS_DB"])
    for statement in (
        "UPDATE audit SET hash = 'forged' WHERE id = 2",
        "UPDATE audit SET action = 'nothing' WHERE id = 2",
        "DELETE FROM audit WHERE id = 5",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
    db.close()


def test_entries_written_in_parallel_still_form_one_chain(app, runner):
    start = threading.Barrier(8)

    def write(worker: int) -> None:
        start.wait()
        for n in range(10):
            with app.app_context():  # a request or job of its own: its own connection
                audit.record("lead_viewed", worker, lead_id=n)

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result = verify(runner)
    assert result.exit_code == 0 and result.output.startswith("OK: 80 entries"), result.output
