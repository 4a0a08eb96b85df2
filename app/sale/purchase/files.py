"""A purchase's private files: the ID's photos, the register's certificate, every version of
the bill of sale and the receipt, and the photos (and any video) of a parcel of the sale by mail
opened on record (app/shipping/arrival.py). Each is encrypted (app/sale/purchase/crypto.py)
into private storage under a random name, sealed to its lead and kind, and reached only through
its row in `purchase_files`, by the lead it belongs to: a file's public id alone opens nothing.
The plain file's SHA-256 is kept, as the timeline shows it for documents, and checked on every
read, so another version of the same kind swapped in under a row is refused too.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path

from app.leads import storage
from app.leads.db import get_db, now
from app.sale.purchase import crypto

ID_PHOTOS = ("id_front", "id_back")
DOCUMENTS = ("bill_of_sale", "receipt")
# A parcel opened on record: the box as received, the opening, the serial in frame, a video.
ARRIVAL = ("arrival_box", "arrival_opening", "arrival_serial", "arrival_video")
KINDS = (*ID_PHOTOS, "register_certificate", *DOCUMENTS, *ARRIVAL)


def files_dir() -> Path:
    """Encrypted purchase files, beside the lead photos in private storage."""
    return storage.storage_dir() / "purchases"


class Unreadable(Exception):
    """A stored file that does not open with any configured key where its row puts it, or
    whose contents are not the ones its row's SHA-256 names."""


def write_sealed(data: bytes, place: bytes) -> str:
    """Seal `data` to `place` into a new file with a random name (written aside, then moved
    into place, so a crash leaves no half file under a real name); the name."""
    folder = files_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    name = secrets.token_hex(16) + ".bin"
    replace_file(folder / name, crypto.encrypt_bytes(data, place))
    return name


def replace_file(path: Path, data: bytes) -> None:
    """Write `data` beside `path`, then move it over `path`: the file is whole, old or new. A
    write that fails (a full disk) removes its partial file, which would hold on to the space."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_bytes(data)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(path)


def add_file(db, lead_id: int, kind: str, data: bytes, media_type: str) -> dict:
    """Store one file and its row inside the caller's transaction, as the next version of its
    kind for this lead; the row (the caller removes the file if the transaction fails)."""
    if kind not in KINDS:
        raise ValueError(f"{kind} is not a kind of purchase file")
    (version,) = db.execute(
        "SELECT coalesce(max(version), 0) + 1 FROM purchase_files WHERE lead_id = ? AND kind = ?",
        (lead_id, kind),
    ).fetchone()
    row = {
        "lead_id": lead_id,
        "kind": kind,
        "public_id": secrets.token_urlsafe(16),
        "file_name": write_sealed(data, crypto.file_place(lead_id, kind)),
        "media_type": media_type,
        "version": version,
        "sha256": hashlib.sha256(data).hexdigest(),
        "created_at": now(),
        "sealed": 1,
    }
    columns = ", ".join(row)
    marks = ", ".join(f":{name}" for name in row)
    row["id"] = db.execute(
        f"INSERT INTO purchase_files ({columns}) VALUES ({marks})", row
    ).lastrowid
    return row


def file_of(lead_id: int, public_id: str) -> dict | None:
    """One file by its public id, only if it belongs to `lead_id`."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM purchase_files WHERE lead_id = ? AND public_id = ?",
            (lead_id, public_id),
        )
        .fetchone()
    )
    return dict(row) if row else None


def files_of(lead_id: int, kinds: tuple[str, ...] = KINDS) -> list[dict]:
    """A lead's files of these kinds, by kind then version."""
    marks = ", ".join("?" for _ in kinds)
    rows = get_db().execute(
        f"SELECT * FROM purchase_files WHERE lead_id = ? AND kind IN ({marks}) "
        "ORDER BY kind, version",
        (lead_id, *kinds),
    )
    return [dict(row) for row in rows]


def latest(lead_id: int, kind: str) -> dict | None:
    """The newest version of one kind of file for a lead, if there is one."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM purchase_files WHERE lead_id = ? AND kind = ? "
            "ORDER BY version DESC LIMIT 1",
            (lead_id, kind),
        )
        .fetchone()
    )
    return dict(row) if row else None


def read(row: dict) -> bytes:
    """A stored file's plain bytes, opened where its row puts it and checked against the row's
    SHA-256; FileNotFoundError if it is gone, Unreadable if it does not open or match."""
    token = (files_dir() / row["file_name"]).read_bytes()
    try:
        data = crypto.decrypt_bytes(token, crypto.file_place(row["lead_id"], row["kind"]))
    except crypto.InvalidToken:
        raise Unreadable(f"Purchase file {row['public_id']} opens with no key here.") from None
    if hashlib.sha256(data).hexdigest() != row["sha256"]:
        raise Unreadable(f"Purchase file {row['public_id']} is not the one its row names.")
    return data


def remove(db, lead_id: int, kinds: tuple[str, ...]) -> list[str]:
    """Drop a lead's rows of these kinds inside the caller's transaction; the file names, which
    the caller deletes once it has committed (remove_files)."""
    marks = ", ".join("?" for _ in kinds)
    rows = db.execute(
        f"DELETE FROM purchase_files WHERE lead_id = ? AND kind IN ({marks}) RETURNING file_name",
        (lead_id, *kinds),
    ).fetchall()
    return [row["file_name"] for row in rows]


def remove_files(names: list[str]) -> None:
    """Delete stored files by name (after the rows that named them are gone)."""
    storage.remove_named(files_dir(), names)
