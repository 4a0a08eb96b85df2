"""The audit log's hash chain: each entry of leads.db's `audit` table keeps in `hash` the SHA-256
of the hash of the entry before it and of its own fields, so an entry changed or removed behind
the triggers' back (whoever can write the file can drop them) breaks the chain from there on.

Shared by the migration that added the chain (which chains the entries written before it, in id
order), by every new entry (app/leads/audit.py) and by `flask staff audit --verify`. The format
below must never change: entries already written are checked with it. A chain cannot tell that
entries were cut from its end; the hash of the last entry, printed by `--verify`, kept somewhere
else, can.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FIELDS = ("id", "at", "action", "staff_id", "lead_id", "address", "data")
BEFORE_FIRST = "0" * 64  # what the first entry is chained to


def entry_hash(previous: str, entry: Mapping) -> str:
    """The hash an entry must have after an entry whose hash is `previous`."""
    body = [previous, *(entry[name] for name in FIELDS)]
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def chain_unchained(db: sqlite3.Connection) -> int:
    """Give every entry after the last chained one its hash, in id order; how many. Entries
    without one are new, or were written by a process still running the release before."""
    last = db.execute(
        "SELECT id, hash FROM audit WHERE hash IS NOT NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    last_id, previous = (last[0], last[1]) if last else (0, BEFORE_FIRST)
    columns = ", ".join(FIELDS)
    rows = db.execute(f"SELECT {columns} FROM audit WHERE id > ? ORDER BY id", (last_id,))
    entries = [dict(zip(FIELDS, row, strict=True)) for row in rows]
    for entry in entries:
        previous = entry_hash(previous, entry)
        db.execute("UPDATE audit SET hash = ? WHERE id = ?", (previous, entry["id"]))
    return len(entries)


@dataclass(frozen=True)
class Verdict:
    """What checking the chain found: how many entries hold, and the first that does not."""

    count: int
    last_hash: str = BEFORE_FIRST
    broken_at: int | None = None
    problem: str = ""


def missing_before(entry_id: int, expected_id: int) -> str:
    """Words for the entries missing between the last good one and `entry_id`."""
    if entry_id == expected_id + 1:
        return f"entry {expected_id} before it is missing (deleted)"
    return f"entries {expected_id} to {entry_id - 1} before it are missing (deleted)"


def check(entries: Iterable[Mapping]) -> Verdict:
    """Walk the entries in id order and stop at the first that does not follow from the one
    before: an id skipped (deleted) or a hash that does not match (changed)."""
    previous, expected_id, count = BEFORE_FIRST, 1, 0
    for entry in entries:
        if entry["id"] != expected_id:
            return Verdict(count, previous, entry["id"], missing_before(entry["id"], expected_id))
        if entry["hash"] != entry_hash(previous, entry):
            problem = "it does not match its hash: it, or one before it, was changed"
            return Verdict(count, previous, entry["id"], problem)
        previous, expected_id, count = entry["hash"], expected_id + 1, count + 1
    return Verdict(count, previous)
