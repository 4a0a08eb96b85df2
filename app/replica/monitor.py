"""How far behind the replica is, and when staff should hear of it.

The database's lag is measured from outside Litestream, so it holds when Litestream itself is
stopped: the time between the last transaction written to leads.db (its WAL's change time:
every commit appends to it, a checkpoint does not) and the newest object Litestream wrote to
the replica, as the storage lists it. A quiet database has no lag however long ago it last
synced; a database with writes on record and nothing in the replica was never replicated
(Litestream never ran, or never here), which is an alarm, not a lag of "0 s". The files' side
is the `file_copies` rows still owed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from flask import current_app

from app.leads.db import get_db
from app.replica import objects


@dataclass
class Report:
    """The replica's state at one moment."""

    database_written: datetime | None = None
    replica_written: datetime | None = None
    copies_owed: int = 0
    deletions_owed: int = 0
    oldest_owed: str | None = None
    failing: list[dict] = field(default_factory=list)
    bucket_days: int | None = None
    error: str | None = None

    @property
    def never_synced(self) -> bool:
        """Writes on record, and the storage answered that it holds no database replica."""
        return self.database_written is not None and not self.error and not self.replica_written

    @property
    def lag_seconds(self) -> float | None:
        """Seconds of database changes the replica does not hold yet (None: unknown, or every
        change, when it never synced)."""
        if self.database_written is None:
            return 0.0
        if self.error or self.replica_written is None:
            return None
        return max(0.0, (self.database_written - self.replica_written).total_seconds())

    def lines(self) -> list[str]:
        """The report as an operator reads it (what only the storage knows is "unknown" while
        it does not answer)."""
        lag = self.lag_seconds
        unknown = "unknown (the storage does not answer)" if self.error else None
        kept = f"{self.bucket_days} days" if self.bucket_days else "not bounded (no lifecycle)"
        lag_words = "never synced" if self.never_synced else "unknown" if lag is None else None
        return [
            f"Database lag: {lag_words or f'{lag:.0f} s'}",
            f"Last database sync: {unknown or stamp(self.replica_written)}",
            f"Last database write: {stamp(self.database_written)}",
            f"Files not yet copied: {self.copies_owed}"
            + (f" (oldest owed since {self.oldest_owed})" if self.oldest_owed else ""),
            f"Copies still to delete: {self.deletions_owed}",
            f"Deleted or replaced copies kept: {unknown or kept}",
            *(f"Failing: {row['name']} ({row['attempts']} attempts: {row['last_error']})"
              for row in self.failing),
            *([f"Storage error: {self.error}"] if self.error else []),
        ]  # fmt: skip

    def problems(self) -> list[str]:
        """Why staff should look: lag past REPLICA_LAG_ALERT_SECONDS or a database never
        replicated, the storage unreachable, or a copy that failed REPLICA_COPY_ALERT_ATTEMPTS
        times."""
        config = current_app.config
        found = []
        if self.error:
            found.append(f"the replica's storage does not answer ({self.error})")
        if self.never_synced:
            found.append(
                "the database has never been replicated although it has been written to: "
                "Litestream is not running (journalctl -u watchbuyers-litestream)"
            )
        lag = self.lag_seconds
        if lag is not None and lag > config["REPLICA_LAG_ALERT_SECONDS"]:
            found.append(f"the database replica is {lag:.0f} s behind")
        if self.failing:
            count = len(self.failing)
            found.append(f"{count} file {'copy keeps' if count == 1 else 'copies keep'} failing")
        days = config["REPLICA_RETENTION_DAYS"]
        if not self.error and (self.bucket_days is None or self.bucket_days > days):
            found.append(
                f"the bucket does not remove deleted copies within {days} days, as the privacy "
                "policy promises: run flask leads replication prepare-bucket"
            )
        return found


def erased_within_days(config) -> int:
    """How long an erased item can outlive its erasure in the recovery copies, as the privacy
    policy states it: the nightly backups keep it BACKUP_KEEP_DAYS; the replica keeps a
    snapshot taken before the erasure up to REPLICA_RETENTION_DAYS (and a day for the next
    snapshot), and the bucket then keeps the deleted snapshot as long again."""
    replica = 2 * config["REPLICA_RETENTION_DAYS"] + 1
    return max(config["BACKUP_KEEP_DAYS"], replica)


def stamp(moment: datetime | None) -> str:
    """A moment as the report prints it."""
    return moment.isoformat(timespec="seconds") if moment else "never"


def last_database_write() -> datetime | None:
    """When the last transaction reached leads.db: its WAL's change time (the file's own, if
    there is no WAL)."""
    path = Path(current_app.config["LEADS_DB"])
    for candidate in (Path(f"{path}-wal"), path):
        if candidate.exists():
            return datetime.fromtimestamp(os.stat(candidate).st_mtime, UTC)
    return None


def report() -> Report:
    """The replica's state now (REPLICA_URL must be set): what the storage says, then what the
    records owe."""
    found = Report()
    try:
        found.replica_written = objects.newest_database_change()
        found.bucket_days = objects.bucket_retention()
    except objects.ReplicaError as error:
        found.error = str(error)
    return read_records(found)


def read_records(found: Report) -> Report:
    """`found` with the database's last write and the copies owed and failing read again
    (after a catch-up: the storage need not be asked twice)."""
    db = get_db()
    copies, deletions, oldest = db.execute(
        "SELECT sum(copied_at IS NULL AND gone = 0), sum(gone), "
        "min(CASE WHEN copied_at IS NULL AND gone = 0 THEN since END) FROM file_copies"
    ).fetchone()
    failing = db.execute(
        "SELECT name, attempts, last_error FROM file_copies WHERE attempts >= ? ORDER BY name",
        (current_app.config["REPLICA_COPY_ALERT_ATTEMPTS"],),
    )
    found.database_written = last_database_write()
    found.copies_owed, found.deletions_owed = copies or 0, deletions or 0
    found.oldest_owed = oldest
    found.failing = [dict(row) for row in failing]
    return found
