"""The purchase data's keys applied to the whole store at once: Fernet-era values and files sealed
to their place at start-up, every value and file re-sealed under the newest key
(`flask purchases rotate-key`), and every one checked to open with the configured keys (after a
restore, and on demand with `flask purchases check-keys`).

Each works row by row and file by file: a value no key opens is named and left as it is, never
lost, and never stops the rest.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app

from app.leads.db import get_db, immediate_transaction, truncate_wal
from app.sale.purchase import crypto, files, record

COLUMNS = ", ".join(record.SEALED_COLUMNS)
ANY_LEGACY_VALUE = " OR ".join(
    f"({name} IS NOT NULL AND {name} NOT LIKE 'aes1.%')" for name in record.SEALED_COLUMNS
)


@dataclass
class Outcome:
    """What a pass over the store did: values and files done, and what no configured key opens
    (as 'USWB-7K3F9Q routing_number_enc' or 'USWB-7K3F9Q bill_of_sale v2')."""

    values: int = 0
    records: int = 0
    files: int = 0
    missing_files: list[str] = field(default_factory=list)
    unopened: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """One line for each value or file no key opens, and each file missing from storage."""
        return [f"Opens with no configured key, or altered: {name}" for name in self.unopened] + [
            f"Missing from storage: {name}" for name in self.missing_files
        ]


def init_app(app: Flask) -> None:
    """Seal any Fernet-era purchase data at start-up, before a request can read it."""
    with app.app_context():
        seal_legacy()


@contextmanager
def store_lock() -> Iterator[None]:
    """One process at a time rewrites the purchase files (a lock file beside leads.db)."""
    leads_db = Path(current_app.config["LEADS_DB"])
    with open(leads_db.with_name(leads_db.name + ".seal-lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def seal_legacy() -> Outcome:
    """Seal every value and file written before sealing to its lead and place; two small reads
    when there are none, so it runs at every start."""
    outcome = Outcome()
    db = get_db()
    if not db.execute(f"SELECT 1 FROM purchases WHERE {ANY_LEGACY_VALUE} LIMIT 1").fetchone() and (
        not db.execute("SELECT 1 FROM purchase_files WHERE sealed = 0 LIMIT 1").fetchone()
    ):
        return outcome
    with store_lock():
        reseal_columns(outcome, lambda token, place: crypto.legacy_open(token.encode()).decode(),
                       ANY_LEGACY_VALUE)  # fmt: skip
        reseal_files(outcome, open_legacy_file, "sealed = 0")
    for name in outcome.unopened:
        current_app.logger.error("Purchase data %s opens with no key in PURCHASE_DATA_KEY.", name)
    return outcome


def open_legacy_file(token: bytes, place: bytes) -> bytes:
    """A file not marked sealed: Fernet's, or already sealed by a pass a crash interrupted
    before it could mark it."""
    if crypto.is_sealed(token):
        return crypto.decrypt_bytes(token, place)
    return crypto.legacy_open(token)


def rotate_all() -> Outcome:
    """Every sealed value and file re-sealed under the newest key."""
    with store_lock():
        outcome = Outcome()
        reseal_columns(outcome, crypto.decrypt, "1")
        reseal_files(outcome, crypto.decrypt_bytes, "1")
        return outcome


def reseal_columns(outcome: Outcome, open_value, where: str) -> None:
    """The encrypted columns of the records matching `where`, opened by `open_value(token,
    place)` and sealed under the newest key, in one transaction; then the WAL emptied of the
    old ciphertexts. A value that does not open is named and kept as it is."""
    with immediate_transaction() as db:
        rows = db.execute(
            f"SELECT purchases.lead_id, leads.reference, {COLUMNS} FROM purchases "
            f"JOIN leads ON leads.id = purchases.lead_id WHERE {where}"
        ).fetchall()
        for row in rows:
            resealed = {}
            for column in record.SEALED_COLUMNS:
                if not row[column]:
                    continue
                try:
                    plain = open_value(row[column], crypto.column_place(row["lead_id"], column))
                except crypto.InvalidToken:
                    outcome.unopened.append(f"{row['reference']} {column}")
                    continue
                resealed[column] = record.sealed(row["lead_id"], column, plain)
            if resealed:
                record.update(db, row["lead_id"], resealed)
                outcome.values += len(resealed)
                outcome.records += 1
    truncate_wal()


def reseal_files(outcome: Outcome, open_file, where: str) -> None:
    """The purchase files matching `where`, each opened by `open_file(token, place)` and sealed
    in place under the newest key (written aside, then moved over the old one, so a crash leaves
    each file whole under one key or the other), then marked sealed."""
    rows = get_db().execute(
        "SELECT purchase_files.*, leads.reference FROM purchase_files "
        f"JOIN leads ON leads.id = purchase_files.lead_id WHERE {where}"
    )
    for row in rows.fetchall():
        name = f"{row['reference']} {row['kind']} v{row['version']}"
        path = files.files_dir() / row["file_name"]
        if not path.is_file():
            outcome.missing_files.append(name)
            continue
        place = crypto.file_place(row["lead_id"], row["kind"])
        try:
            plain = open_file(path.read_bytes(), place)
        except crypto.InvalidToken:
            outcome.unopened.append(name)
            continue
        files.replace_file(path, crypto.encrypt_bytes(plain, place))
        with immediate_transaction() as db:
            db.execute("UPDATE purchase_files SET sealed = 1 WHERE id = ?", (row["id"],))
        outcome.files += 1


def check_all() -> Outcome:
    """Open every sealed value and read every purchase file (its SHA-256 checked), changing
    nothing; what opened, and what did not or is missing."""
    outcome = Outcome()
    for row in get_db().execute(
        "SELECT purchases.*, leads.reference FROM purchases "
        "JOIN leads ON leads.id = purchases.lead_id"
    ):
        for column in record.SEALED_COLUMNS:
            try:
                outcome.values += record.opened(dict(row), column) is not None
            except crypto.InvalidToken:
                outcome.unopened.append(f"{row['reference']} {column}")
    for row in get_db().execute(
        "SELECT purchase_files.*, leads.reference FROM purchase_files "
        "JOIN leads ON leads.id = purchase_files.lead_id"
    ):
        name = f"{row['reference']} {row['kind']} v{row['version']}"
        try:
            files.read(dict(row))
            outcome.files += 1
        except FileNotFoundError:
            outcome.missing_files.append(name)
        except files.Unreadable:
            outcome.unopened.append(name)
    return outcome
