"""Each private file's copy in the replica, owed and made.

The database says what is owed: its triggers (app/leads/schema/replica_tables.py) add a
`file_copies` row, `copied_at` empty, in the same transaction as the row that names a new file,
and mark the row `gone` in the one that drops a file. So whichever code wrote or deleted a
file, and whatever crashed after, the debt is on record, and a restored database says which
files the replica holds. Whatever writes a file then queues its copy (`sync_later`) on a lane
of its own (app/queue.py), retried with backoff if the storage is down, so no e-mail waits on
the storage; `flask leads requeue`, the sweep and the replication check catch up whatever is
still owed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import current_app

from app import queue
from app.leads import storage
from app.leads.db import get_db, now, transaction
from app.replica import objects


@dataclass
class Synced:
    """What one pass did: names copied and deleted, and the ones that failed, with why."""

    copied: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


class CopiesIncomplete(RuntimeError):
    """Some copies or deletions failed (each recorded on its row); raised so RQ retries."""


def owed(lead_id: int | None = None, since_before: str | None = None) -> list[dict]:
    """The rows whose copy or deletion is owed, oldest first: one lead's, or every lead's (only
    those owed since before `since_before`, when given)."""
    rows = get_db().execute(
        "SELECT * FROM file_copies WHERE (copied_at IS NULL OR gone = 1) "
        "AND (:lead IS NULL OR lead_id = :lead) AND (:before IS NULL OR since < :before) "
        "ORDER BY since, name",
        {"lead": lead_id, "before": since_before},
    )
    return [dict(row) for row in rows]


def leads_owing(since_before: str | None = None) -> list[int]:
    """The leads with a copy or deletion owed, for the requeue and the sweep (none while this
    deployment does not replicate)."""
    if not objects.configured():
        return []
    return sorted({row["lead_id"] for row in owed(since_before=since_before)})


def sync_lead(lead_id: int) -> Synced:
    """Copy every file of the lead whose copy is owed, and delete from the replica every copy
    of a file the records dropped; each outcome recorded on its row. The first storage failure
    ends the pass: a storage that is down would fail every file, each after its time-outs."""
    done = Synced()
    if not objects.configured():
        return done
    for row in owed(lead_id):
        try:
            if row["gone"]:
                delete_copy(row)
                done.deleted.append(row["name"])
            elif copy_file(row):
                done.copied.append(row["name"])
        except OSError as error:  # the file itself: the others may still go
            record_failure(row["name"], str(error))
            done.failed[row["name"]] = str(error)
        except objects.ReplicaError as error:  # the storage: the rest wait for the retry
            if not isinstance(error, objects.StorageResting):  # a real try, on the record
                record_failure(row["name"], str(error))
            done.failed[row["name"]] = str(error)
            break
    return done


def sync_owing(since_before: str | None = None) -> Synced:
    """sync_lead for every lead with a copy or deletion owed (since before `since_before`): the
    replication check's catch-up and `copy-all`. What all the passes did together."""
    done = Synced()
    for lead_id in leads_owing(since_before=since_before):
        synced = sync_lead(lead_id)
        done.copied += synced.copied
        done.deleted += synced.deleted
        done.failed |= synced.failed
    return done


def copy_file(row: dict) -> bool:
    """Upload one file, then mark it copied, unless the records dropped it meanwhile: then the
    copy just made is deleted again. False if the file was dropped before it was read."""
    path = storage.storage_dir() / row["name"]
    if not path.is_file() and is_gone(row["name"]):
        return False
    objects.put_file(row["name"], path)
    with transaction() as db:
        marked = db.execute(
            "UPDATE file_copies SET copied_at = ?, attempts = 0, last_error = NULL "
            "WHERE name = ? AND gone = 0 AND since = ?",
            (now(), row["name"], row["since"]),
        ).rowcount
    if not marked and is_gone(row["name"]):
        delete_copy(row)
    return bool(marked)


def is_gone(name: str) -> bool:
    """Whether the records dropped this file (its row marked gone, or already settled)."""
    row = get_db().execute("SELECT gone FROM file_copies WHERE name = ?", (name,)).fetchone()
    return row is None or bool(row["gone"])


def delete_copy(row: dict) -> None:
    """Delete a dropped file's copy, then its row, unless the file was written again
    meanwhile. The storage is asked even when the row says no copy was made: an upload racing
    the erasure, or an earlier copy of a file owed again (copy-all, a new key), may be there
    whatever the row read before says, and deleting what is not there costs one request."""
    objects.delete_file(row["name"])
    with transaction() as db:
        db.execute("DELETE FROM file_copies WHERE name = ? AND gone = 1", (row["name"],))


def record_failure(name: str, error: str) -> None:
    """Count a failed attempt on the row and keep its error (without the file's contents)."""
    current_app.logger.warning("Replica copy of %s failed: %s", name, error)
    with transaction() as db:
        db.execute(
            "UPDATE file_copies SET attempts = attempts + 1, last_error = ? WHERE name = ?",
            (error[:500], name),
        )


def owe_every_copy_again() -> int:
    """Mark every file's copy owed again (a new key or a new prefix); how many."""
    with transaction() as db:
        return db.execute(
            "UPDATE file_copies SET copied_at = NULL, since = ?, attempts = 0, last_error = NULL "
            "WHERE gone = 0",
            (now(),),
        ).rowcount


def sync_later(lead_id: int) -> None:
    """For a request or a job that wrote or dropped a lead's files: queue their copy job."""
    if objects.configured():
        queue.enqueue(queue.COPY_FILES, lead_id)
