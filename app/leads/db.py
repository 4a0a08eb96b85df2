"""The one way to the leads database (instance/leads.db: leads, their timeline and status links,
staff accounts, sessions and the audit log).

As in Flask's tutorial (flaskr), a request or a job gets one connection, kept on `g` by
`get_db()` and closed when its app context ends, however many queries it makes. The schema is
brought up to date once, when the app starts (`init_app`), never per connection: every table is
made and changed only by the numbered migrations in app/leads/schema.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask, current_app, g

from app.leads import schema

BUSY_TIMEOUT_MS = 5000


def now() -> str:
    """The time as every table of leads.db stores it: UTC, ISO 8601, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def open_db(path: str) -> sqlite3.Connection:
    """A new connection in WAL mode with a busy timeout, rows readable by column name."""
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA journal_mode = WAL")
    return db


def get_db() -> sqlite3.Connection:
    """This app context's connection (a request's or a job's), opened on first use."""
    if "leads_db" not in g:
        g.leads_db = open_db(current_app.config["LEADS_DB"])
    return g.leads_db


def close_db(_error: BaseException | None = None) -> None:
    """Close the app context's connection, if it opened one (teardown)."""
    db = g.pop("leads_db", None)
    if db is not None:
        db.close()


@contextmanager
def transaction() -> Iterator[sqlite3.Connection]:
    """get_db() for a write: committed when the block ends, rolled back if it raises."""
    db = get_db()
    with db:
        yield db


def migrate(path: str) -> int:
    """Bring the database file at `path` to the current schema (creating it); its version."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with closing(open_db(path)) as db:
        schema.migrate(db)
        return schema.version(db)


def backup(target: Path) -> int:
    """Copy leads.db to `target` with SQLite's online backup API (consistent while the site
    writes), checked and moved into place atomically; returns the number of leads copied."""
    target = Path(target)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    with closing(open_db(current_app.config["LEADS_DB"])) as source:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("the backup failed its integrity check")
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            count = copy.execute("SELECT count(*) FROM leads").fetchone()[0]
        finally:
            copy.close()
    partial.replace(target)
    return count


def init_app(app: Flask) -> None:
    """Migrate leads.db at start-up, and close each app context's connection at its end."""
    migrate(app.config["LEADS_DB"])
    app.teardown_appcontext(close_db)
