"""The record of erasures, kept outside leads.db so that a restore of an earlier copy (a nightly
backup, or the replica at an earlier moment) cannot bring an erased person back: after any
restore, app/sale/reerasure.py applies every entry again.

Each erasure appends one line of JSON (the lead's id and reference, what was erased, the closing
reason, when, and the eraser's role: never personal data) to `erasures.jsonl` beside leads.db,
flushed and fsynced after the erasure's transaction has committed. Where the replica is
configured, each entry is also stored as an object of its own in the bucket (objects.py, with
the same SSE-C key as the files). Which entries the bucket holds is kept in
`erasures-uploaded` beside it, one id a line; an entry not yet there is uploaded by the copy job
the erasure queues, and otherwise by `flask leads requeue` and the replication check, as the
files' copies are.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from flask import current_app

from app.replica import objects


def log_path() -> Path:
    """The append-only record of erasures, beside leads.db."""
    return Path(current_app.config["LEADS_DB"]).with_name("erasures.jsonl")


def uploaded_path() -> Path:
    """The ids of the entries the bucket holds, one a line, beside leads.db."""
    return Path(current_app.config["LEADS_DB"]).with_name("erasures-uploaded")


def append_lines(path: Path, lines: list[str]) -> None:
    """Append whole lines to `path` and fsync it, so an entry is on disk before anyone is told
    the erasure is done; the file is readable by its owner only."""
    if not lines:
        return
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(descriptor, "".join(f"{line}\n" for line in lines).encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def read_lines(path: Path) -> list[str]:
    """The non-empty lines of `path` (none if it does not exist)."""
    try:
        return [line for line in path.read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def append(entry: dict) -> None:
    """Add one entry (its `id` unique) to the local record."""
    append_lines(log_path(), [json.dumps(entry, sort_keys=True)])


def local_entries() -> list[dict]:
    """Every entry of the local record, in the order written."""
    return [json.loads(line) for line in read_lines(log_path())]


def owed() -> list[dict]:
    """The local entries the bucket does not hold yet (none while this deployment does not
    replicate)."""
    if not objects.configured():
        return []
    uploaded = set(read_lines(uploaded_path()))
    return [entry for entry in local_entries() if entry["id"] not in uploaded]


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
        append_lines(uploaded_path(), [entry["id"]])
        uploaded += 1
    return uploaded


def all_entries(from_bucket: bool) -> list[dict]:
    """Every entry known, oldest first: the local record's and, `from_bucket`, the bucket's,
    merged by id. The bucket's entries missing here are added to the local record (already
    uploaded), so the record of erasures survives the restore of a lost machine too."""
    known = {entry["id"]: entry for entry in local_entries()}
    if from_bucket:
        stored = [json.loads(body) for body in objects.erasure_entries()]
        missing = [entry for entry in stored if entry["id"] not in known]
        append_lines(log_path(), [json.dumps(entry, sort_keys=True) for entry in missing])
        append_lines(uploaded_path(), [entry["id"] for entry in missing])
        known |= {entry["id"]: entry for entry in missing}
    return sorted(known.values(), key=lambda entry: (entry["at"], entry["id"]))
