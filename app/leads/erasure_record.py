"""The record of erasures: one line of JSON per erasure in `erasures.jsonl` beside leads.db,
kept outside the database so that a restore of an earlier copy (a nightly backup, or the
replica at an earlier moment) cannot bring an erased person back (app/sale/reerasure.py applies
every entry again). An entry names the lead by id and reference, what was erased, the closing
reason, when, and the eraser's role: never personal data (log(), called by each erasure in
app/sale/erasure.py and app/sale/retention.py).

Every backup holds a copy of it as it stood (an empty one before the first erasure), and the
replica holds each entry as an object of its own (app/replica/erasure_log.py).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from flask import current_app

from app.leads import store
from app.leads.db import get_db, now

NAME = "erasures.jsonl"


def path() -> Path:
    """The record of erasures, beside leads.db."""
    return Path(current_app.config["LEADS_DB"]).with_name(NAME)


def append_lines(target: Path, lines: list[str]) -> None:
    """Append whole lines to `target` and fsync it, so an entry is on disk before anyone is
    told the erasure is done; the file is readable by its owner only."""
    if not lines:
        return
    descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(descriptor, "".join(f"{line}\n" for line in lines).encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def read_lines(source: Path) -> list[str]:
    """The non-empty lines of `source` (none if it does not exist)."""
    try:
        return [line for line in source.read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def append(entry: dict) -> None:
    """Add one entry (its `id` unique) to the record."""
    append_lines(path(), [json.dumps(entry, sort_keys=True)])


def log(lead_id: int, kind: str, actor: str) -> None:
    """Append a committed erasure to the record, which a restore of an earlier copy applies
    again: the lead's id and reference, what was erased (`kind`), the reason it was closed
    with, when, and by whom as a role (`staff`, `seller`, `system`), never a person."""
    entry = {
        "id": f"{lead_id}-{secrets.token_hex(8)}",
        "lead_id": lead_id,
        "reference": store.get_lead(lead_id)["reference"],
        "erased": kind,
        "reason": closing_reason(lead_id),
        "at": now(),
        "by": actor.split(":")[0],
    }
    append(entry)


def closing_reason(lead_id: int) -> str | None:
    """The reason the lead's last state change gave (None if it gave none: a sale)."""
    row = (
        get_db()
        .execute(
            "SELECT data FROM lead_events WHERE lead_id = ? AND kind = 'state_changed' "
            "ORDER BY id DESC LIMIT 1",
            (lead_id,),
        )
        .fetchone()
    )
    return json.loads(row["data"]).get("reason") if row else None


def entries(source: Path | None = None) -> list[dict]:
    """Every entry of the record (or of the copy at `source`), in the order written."""
    return [json.loads(line) for line in read_lines(source or path())]


def copy_into(folder: Path) -> int:
    """Write the record as it stands into `folder` (a backup being made), an empty one if no
    erasure was made yet, so a restore of the backup finds it either way; how many entries."""
    lines = read_lines(path())
    (folder / NAME).write_text("".join(f"{line}\n" for line in lines))
    (folder / NAME).chmod(0o600)
    return len(lines)
