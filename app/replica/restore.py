"""A fresh machine brought back from the replica: Litestream restores the newest leads.db it
holds, then every file the restored records say was copied is fetched from the bucket. The
files whose copy was still owed when the machine was lost (normally seconds' worth) are named,
not silently missing: their rows say they were never copied.

Like the backup's restore, refused over an instance that holds leads; the sale's `flask leads
restore --from-replica` then checks the purchase data's keys and queues what was pending.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from app.leads import backups, storage
from app.leads.db import get_db
from app.replica import litestream, objects


class ReplicaEmpty(RuntimeError):
    """The replica holds no database to restore (or Litestream could not read it)."""


@dataclass
class Restored:
    """What came back: the leads, the files fetched, and the files the records name that the
    replica never received (lost with the machine) or could not give back."""

    leads: int
    files: int = 0
    never_copied: list[str] = field(default_factory=list)
    unfetched: dict[str, str] = field(default_factory=dict)


def restore_from_replica(timestamp: str | None = None) -> Restored:
    """Restore leads.db (the newest, or as it was at `timestamp`, RFC 3339) and the private
    files into this empty instance."""
    backups.refuse_unless_empty()
    incoming = backups.incoming_database()
    with tempfile.TemporaryDirectory() as work:
        try:
            litestream.restore_database(incoming, Path(work), timestamp)
        except subprocess.CalledProcessError as error:
            raise ReplicaEmpty(
                f"Litestream restored no database: {error.stderr.strip() or error}"
            ) from None
    backups.install_database(incoming)
    restored = Restored(backups.lead_count())
    fetch_files(restored)
    return restored


def fetch_again() -> Restored:
    """Fetch the files an earlier restore could not (the storage failed it) into this
    instance, which holds the restored database already."""
    restored = Restored(backups.lead_count())
    fetch_files(restored)
    return restored


def fetch_files(restored: Restored) -> None:
    """Fetch every copied file the restored records still name into the private storage,
    except those already there."""
    rows = get_db().execute("SELECT name, copied_at FROM file_copies WHERE gone = 0 ORDER BY name")
    for row in rows.fetchall():
        if not row["copied_at"]:
            restored.never_copied.append(row["name"])
            continue
        if (storage.storage_dir() / row["name"]).is_file():
            continue
        try:
            objects.get_file(row["name"], storage.storage_dir() / row["name"])
        except objects.ReplicaError as error:
            restored.unfetched[row["name"]] = str(error)
            continue
        restored.files += 1
