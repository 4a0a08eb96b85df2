"""A refused paperwork's draft: what the seller got right that the page never shows back (the
date of birth, the ID and bank numbers, the cleaned ID photos), kept so the next try asks again
only for what was wrong.

One sealed file per lead in private storage (sealed to that lead, files.py and crypto.py), named
by its row in `paperwork_drafts`, for PAPERWORK_DRAFT_HOURS from the last try, and read only
for the browser that wrote it: its holder key (a random value the status views keep in a
cookie) must match the digest on the row. So someone else holding the seller's link cannot put
their bank account into the seller's next try, nor read anything of it back. It goes when the
paperwork is signed (in the signing's transaction), when the lead leaves `agreed` or is erased,
and on expiry (the daily retention run; an expired draft is never read).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import sqlite3
from datetime import UTC, datetime, timedelta

from flask import current_app

from app.leads.db import get_db, immediate_transaction, now
from app.sale.purchase import crypto, files

PLACE = "paperwork_draft"


def expiry() -> str:
    """When a draft saved now expires."""
    hours = current_app.config["PAPERWORK_DRAFT_HOURS"]
    return (datetime.now(UTC) + timedelta(hours=hours)).isoformat(timespec="seconds")


def packed(kept: dict[str, str | bytes]) -> bytes:
    """The kept values as JSON, the photos' bytes in base64."""
    texts = {name: value for name, value in kept.items() if isinstance(value, str)}
    photos = {
        name: base64.b64encode(value).decode()
        for name, value in kept.items()
        if isinstance(value, bytes)
    }
    return json.dumps({"values": texts, "photos": photos}).encode()


def unpacked(data: bytes) -> dict[str, str | bytes]:
    """packed() undone."""
    content = json.loads(data)
    photos = {name: base64.b64decode(value) for name, value in content["photos"].items()}
    return content["values"] | photos


def digest(holder: str) -> str:
    """A holder key as the row keeps it."""
    return hashlib.sha256(holder.encode()).hexdigest()


def new_holder() -> str:
    """A fresh holder key for a browser that has none."""
    return secrets.token_urlsafe(32)


def save(lead_id: int, kept: dict[str, str | bytes], holder: str) -> None:
    """Keep `kept` as the lead's draft for `holder`, replacing any earlier one, whoever's (none
    kept if it is empty)."""
    data = packed(kept) if kept else b""
    name = files.write_sealed(data, crypto.file_place(lead_id, PLACE)) if kept else None
    try:
        with immediate_transaction() as db:
            old = remove(db, lead_id)
            if name:
                sha256 = hashlib.sha256(data).hexdigest()
                row = (lead_id, digest(holder), name, sha256, now(), expiry())
                db.execute("INSERT INTO paperwork_drafts VALUES (?, ?, ?, ?, ?, ?)", row)
    except BaseException:
        files.remove_files([name] if name else [])
        raise
    files.remove_files(old)


def load(lead_id: int, holder: str) -> dict[str, str | bytes]:
    """The lead's draft if `holder` wrote it; nothing if there is none, another browser wrote
    it, it expired, or it does not open (then logged: the seller types everything again)."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM paperwork_drafts WHERE lead_id = ? AND expires_at > ?",
            (lead_id, datetime.now(UTC).isoformat(timespec="seconds")),
        )
        .fetchone()
    )
    if row is None or not hmac.compare_digest(row["holder_sha256"], digest(holder)):
        return {}
    token_row = dict(row) | {"kind": PLACE, "public_id": f"draft of lead {lead_id}"}
    try:
        return unpacked(files.read(token_row))
    except (FileNotFoundError, files.Unreadable, ValueError) as error:
        current_app.logger.warning("Lead %s: its paperwork draft is not read (%s).", lead_id, error)
        return {}


def remove(db: sqlite3.Connection, lead_id: int) -> list[str]:
    """Drop the lead's draft inside the caller's transaction; the file names to delete once it
    has committed."""
    rows = db.execute(
        "DELETE FROM paperwork_drafts WHERE lead_id = ? RETURNING file_name", (lead_id,)
    ).fetchall()
    return [row["file_name"] for row in rows]


def remove_expired() -> int:
    """Drop every expired draft and its file; how many (the daily retention run)."""
    with immediate_transaction() as db:
        rows = db.execute(
            "DELETE FROM paperwork_drafts WHERE expires_at <= ? RETURNING file_name",
            (datetime.now(UTC).isoformat(timespec="seconds"),),
        ).fetchall()
    files.remove_files([row["file_name"] for row in rows])
    return len(rows)
