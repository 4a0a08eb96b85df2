"""The record of erasures (app/leads/erasure_record.py) in the replica, and as a restore finds
it.

Where the replica is configured, each entry is also stored as an object of its own in the bucket
(objects.py, with the same SSE-C key as the files). Which entries the bucket holds is kept in
`erasures-uploaded` beside leads.db, one id a line; an entry not yet there is uploaded by the
copy job the erasure queues, and otherwise by `flask leads requeue` and the replication check,
as the files' copies are.

A restore reads the record from every place it is kept before anything is restored (found()):
beside leads.db, in every backup it can see, and in the bucket whenever the replica is
configured, merged by id; a new machine has no record of its own, and a backup's copy knows no
erasure made after it was taken.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from flask import current_app

from app.leads import backups, erasure_record
from app.replica import objects


def uploaded_path() -> Path:
    """The ids of the entries the bucket holds, one a line, beside leads.db."""
    return Path(current_app.config["LEADS_DB"]).with_name("erasures-uploaded")


def owed() -> list[dict]:
    """The entries of the record the bucket does not hold yet (none while this deployment does
    not replicate)."""
    if not objects.configured():
        return []
    uploaded = set(erasure_record.read_lines(uploaded_path()))
    return [entry for entry in erasure_record.entries() if entry["id"] not in uploaded]


def leads_owing() -> list[int]:
    """The leads whose erasure entry the bucket does not hold yet, for the requeue (their copy
    job uploads it)."""
    return sorted({entry["lead_id"] for entry in owed()})


def upload_owed() -> int:
    """Store every entry the bucket does not hold yet, oldest first, each recorded as uploaded
    once stored; how many. The storage's failure (ReplicaError) ends the pass and is raised:
    what is left stays owed for the next one."""
    uploaded = 0
    for entry in owed():
        objects.put_erasure(entry["id"], json.dumps(entry, sort_keys=True).encode())
        erasure_record.append_lines(uploaded_path(), [entry["id"]])
        uploaded += 1
    return uploaded


@dataclass
class Found:
    """The record of erasures as a restore found it: every entry by id; how many entries each
    place held (None where it held no record: no file beside leads.db, no backup with a copy,
    no replica); the ids the bucket holds; when the newest backup with a copy was taken."""

    entries: dict[str, dict] = field(default_factory=dict)
    here: int | None = None
    backups: int | None = None
    bucket: int | None = None
    in_bucket: set[str] = field(default_factory=set)
    newest_backup: datetime | None = None

    def __bool__(self) -> bool:
        return any(count is not None for count in (self.here, self.backups, self.bucket))

    def add(self, entries: list[dict]) -> int:
        """Merge `entries` in by id; how many distinct entries they were."""
        self.entries |= {entry["id"]: entry for entry in entries}
        return len({entry["id"] for entry in entries})

    def oldest_first(self) -> list[dict]:
        """Every entry, in the order the erasures were made."""
        return sorted(self.entries.values(), key=lambda entry: (entry["at"], entry["id"]))

    def only_in_backups(self) -> bool:
        """Whether the backups' copies are all there is: they know no erasure made after the
        newest of them."""
        return self.here is None and self.bucket is None and self.backups is not None


def backup_folders(restoring: Path | None) -> list[Path]:
    """Every backup a restore can read a copy of the record from: the one restored, the others
    beside it, and those in BACKUP_DIR."""
    folders = {*backups.backups(backups.backup_dir())}
    if restoring is not None:
        folders |= {restoring, *backups.backups(restoring.parent)}
    return sorted(folders)


def found(restoring: Path | None) -> Found:
    """The record of erasures from every place it is kept, before anything is restored: beside
    leads.db, in every backup of backup_folders (each holds a copy as it stood), and in the
    bucket whenever the replica is configured (ReplicaError if it cannot be read)."""
    record = Found()
    if erasure_record.path().exists():
        record.here = record.add(erasure_record.entries())
    copies = [folder / erasure_record.NAME for folder in backup_folders(restoring)]
    copies = [copy for copy in copies if copy.is_file()]
    if copies:
        record.backups = record.add([e for copy in copies for e in erasure_record.entries(copy)])
        taken = [backups.taken_at(copy.parent) for copy in copies]
        record.newest_backup = max(filter(None, taken), default=None)
    if objects.configured():
        stored = [json.loads(body) for body in objects.erasure_entries()]
        record.bucket = record.add(stored)
        record.in_bucket = {entry["id"] for entry in stored}
    return record


def keep(record: Found) -> None:
    """Add the entries found elsewhere to the record beside leads.db (those the bucket holds
    noted as uploaded, the others owed to it), so the record survives the restore too."""
    here = {entry["id"] for entry in erasure_record.entries()}
    missing = [entry for entry in record.oldest_first() if entry["id"] not in here]
    lines = [json.dumps(entry, sort_keys=True) for entry in missing]
    erasure_record.append_lines(erasure_record.path(), lines)
    uploaded = [entry["id"] for entry in missing if entry["id"] in record.in_bucket]
    erasure_record.append_lines(uploaded_path(), uploaded)
