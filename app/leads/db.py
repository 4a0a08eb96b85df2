"""The one way to the leads database (instance/leads.db: leads, their timeline and status links,
staff accounts, sessions and the audit log).

As in Flask's tutorial (flaskr), a request or a job gets one connection, kept on `g` by
`get_db()` and closed when its app context ends, however many queries it makes. The schema is
brought up to date once, when the app starts (`init_app`), never per connection: every table is
made and changed only by the numbered migrations in app/leads/schema/.
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
REPLICATED_CHECKPOINT_WAIT_MS = 100


def now() -> str:
    """The time as every table of leads.db stores it: UTC, ISO 8601, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def open_db(path: str) -> sqlite3.Connection:
    """A new connection in WAL mode with a busy timeout, rows readable by column name, and
    secure_delete on: what a DELETE or an erasure's UPDATE frees is overwritten with zeros, not
    left readable in free space (a per-connection setting, so every connection gets it here)."""
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA secure_delete = ON")
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


def truncate_wal() -> bool:
    """Copy the WAL into leads.db and empty it, waiting (busy timeout) for readers of older
    snapshots. After an erasure: the WAL's earlier frames still hold the values just blanked.
    False (and a warning) if a reader held on past the wait.

    With the off-site replica on, Litestream holds a read transaction on the WAL at all times
    (that is how it keeps the frames it has not shipped), so the wait is short and a refusal
    is expected: Litestream's own checkpoints, every minute, empty the WAL instead, and the
    replica keeps its copies as long as docs/durability.md says."""
    db = get_db()
    replicated = bool(current_app.config.get("REPLICA_URL"))
    if replicated:
        db.execute(f"PRAGMA busy_timeout = {REPLICATED_CHECKPOINT_WAIT_MS}")
    try:
        busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if busy and replicated:
        current_app.logger.info("leads.db-wal left to Litestream's checkpoints (it holds it).")
    elif busy:
        current_app.logger.warning("leads.db-wal could not be truncated: a reader held it.")
    return not busy


@contextmanager
def transaction() -> Iterator[sqlite3.Connection]:
    """get_db() for a write: committed when the block ends, rolled back if it raises."""
    db = get_db()
    with db:
        yield db


@contextmanager
def immediate_transaction() -> Iterator[sqlite3.Connection]:
    """get_db() for a read-then-write that must not interleave with another process's (a
    counter checked and raised, a chain's last link read and extended): BEGIN IMMEDIATE takes
    the write lock first, so the reads see what no other writer can change before the commit."""
    db = get_db()
    if db.in_transaction:  # already writing, so already holding the lock: join that transaction
        yield db
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.commit()


def claim_run(name: str, period: str) -> bool:
    """Claim the run of `name` for `period` (a day, an hour: ISO text, so later is greater):
    True for the one caller, in any process, that claims it first; False if it was claimed."""
    with transaction() as db:
        cursor = db.execute(
            "INSERT INTO daily_runs (name, ran_on) VALUES (?, ?) ON CONFLICT (name) "
            "DO UPDATE SET ran_on = excluded.ran_on WHERE daily_runs.ran_on < excluded.ran_on",
            (name, period),
        )
    return cursor.rowcount == 1


def utc_day() -> str:
    """Today (UTC) as daily_runs keeps a day."""
    return datetime.now(UTC).date().isoformat()


def claim_today(name: str) -> bool:
    """Claim today's (UTC) run of `name`: True for the one caller that claims it first, in any
    process; False if it was already claimed today."""
    return claim_run(name, utc_day())


def claimed_today(name: str) -> bool:
    """Whether today's run of `name` is claimed already: a read, for a caller that may ask on
    every request and should not take the write lock each time to learn it."""
    row = get_db().execute("SELECT ran_on FROM daily_runs WHERE name = ?", (name,)).fetchone()
    return row is not None and row["ran_on"] >= utc_day()


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
