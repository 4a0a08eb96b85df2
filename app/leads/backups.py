"""Backups of everything a lead is: leads.db, the private photo storage and the record of
erasures, one folder per run under BACKUP_DIR (`leads-20261124T031700Z/` with `leads.db`,
`storage/` and `erasures.jsonl`), the ones older than BACKUP_KEEP_DAYS removed after each run;
and the restore that brings one back into an instance that holds no lead yet.
deploy/watchbuyers-backup.timer runs `flask leads backup` daily.

The database is copied first, then the photo files: the sell form writes a photo's file before
its row (app/photos/intake.py), so every photo row in the copy has its file in the backup. The
record of erasures comes last, so it names at least every erasure the copied database shows;
on a new machine, a later backup's copy is what erases again the sellers an older backup holds
(app/sale/reerasure.py). A folder becomes visible under its final name only once all three are
complete.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import current_app

from app.leads import db, erasure_record, storage

PREFIX = "leads-"
STAMP = "%Y%m%dT%H%M%SZ"


class RestoreRefused(Exception):
    """The instance already holds leads: a restore never writes over live data."""


@dataclass(frozen=True)
class Backup:
    """One finished backup: its folder, and how many leads, photo files and erasures (the
    record's entries) it holds."""

    path: Path
    leads: int
    files: int
    erasures: int = 0


def backup_dir() -> Path:
    """BACKUP_DIR, or backups/ beside leads.db."""
    configured = current_app.config.get("BACKUP_DIR")
    return Path(configured or Path(current_app.config["LEADS_DB"]).parent / "backups")


def taken_at(folder: Path) -> datetime | None:
    """When the backup in `folder` was taken, read from its name; None for anything else."""
    try:
        return datetime.strptime(folder.name.removeprefix(PREFIX), STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def backups(where: Path) -> list[Path]:
    """The finished backups in `where`, oldest first."""
    if not where.is_dir():
        return []
    found = [f for f in where.iterdir() if f.name.startswith(PREFIX) and taken_at(f)]
    return sorted(found, key=taken_at)


def copy_tree(source: Path, target: Path) -> int:
    """Copy the files under `source` into `target`; the number copied. A file removed while
    the copy runs (a photo job's raw upload, an erasure) is skipped, not an error."""
    copied = 0
    for path in sorted(source.rglob("*")) if source.is_dir() else []:
        if not path.is_file():
            continue
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(path, destination)
        except FileNotFoundError:
            continue
        copied += 1
    return copied


def take_backup(where: Path | None = None, now: datetime | None = None) -> Backup:
    """Copy leads.db (SQLite's online backup: consistent while the site writes), the photo
    storage and the record of erasures into a new folder under `where` (BACKUP_DIR)."""
    where = where or backup_dir()
    name = PREFIX + (now or datetime.now(UTC)).strftime(STAMP)
    partial = where / f".{name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True, mode=0o700)
    leads = db.backup(partial / "leads.db")
    files = copy_tree(storage.storage_dir(), partial / "storage")
    erasures = erasure_record.copy_into(partial)
    final = partial.replace(where / name)
    return Backup(final, leads, files, erasures)


def remove_expired(where: Path, keep_days: int, now: datetime | None = None) -> list[Path]:
    """Remove the backups older than `keep_days`, never the newest one; those removed."""
    limit = (now or datetime.now(UTC)) - timedelta(days=keep_days)
    expired = [folder for folder in backups(where)[:-1] if taken_at(folder) < limit]
    for folder in expired:
        shutil.rmtree(folder)
    return expired


def restore(folder: Path) -> Backup:
    """Bring the backup in `folder` into this instance (LEADS_DB, the photo storage), then
    migrate it to the current schema. Refused if this instance's leads.db holds any lead."""
    if not (folder / "leads.db").is_file():
        raise FileNotFoundError(f"{folder} holds no leads.db")
    refuse_unless_empty()
    incoming = incoming_database()
    shutil.copy2(folder / "leads.db", incoming)
    install_database(incoming)
    files = copy_tree(folder / "storage", storage.storage_dir())
    return Backup(folder, lead_count(), files)


def refuse_unless_empty() -> None:
    """RestoreRefused if this instance's leads.db holds any lead: a restore never writes over
    live data."""
    present = lead_count()
    db.close_db()
    if present:
        raise RestoreRefused(f"{current_app.config['LEADS_DB']} already holds {present} leads")


def lead_count() -> int:
    """How many leads this instance's leads.db holds."""
    with db.transaction() as connection:
        return connection.execute("SELECT count(*) FROM leads").fetchone()[0]


def incoming_database() -> Path:
    """Where a restored leads.db is put together before it takes LEADS_DB's place (beside it,
    so the move is a rename); nothing is there."""
    target = Path(current_app.config["LEADS_DB"])
    incoming = target.with_name(f".{target.name}.restoring")
    incoming.unlink(missing_ok=True)
    return incoming


def install_database(incoming: Path) -> None:
    """Move a restored database file over LEADS_DB (its old WAL and shared memory removed
    first, so none of the empty database's pages apply to it), then migrate it."""
    db.close_db()
    target = Path(current_app.config["LEADS_DB"])
    for suffix in ("-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    incoming.replace(target)
    db.migrate(str(target))
