"""The migration steps of the staff area's tables: accounts, sessions, recovery codes,
throttling and the audit log with its hash chain (app/leads/schema/ runs them)."""

from __future__ import annotations

import sqlite3

from app.leads.audit_chain import chain_unchained
from app.leads.schema.steps import run

STAFF_TABLES = (
    """CREATE TABLE IF NOT EXISTS staff (
        id INTEGER PRIMARY KEY,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name TEXT NOT NULL,
        password_hash TEXT,
        totp_secret TEXT,
        totp_last_step INTEGER,
        enrol_token_hash TEXT UNIQUE,
        enrol_expires_at TEXT,
        enrolled_at TEXT,
        disabled_at TEXT,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS staff_recovery_codes (
        id INTEGER PRIMARY KEY,
        staff_id INTEGER NOT NULL REFERENCES staff(id),
        code_hash TEXT NOT NULL,
        used_at TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS staff_recovery_codes_staff ON staff_recovery_codes(staff_id)",
    """CREATE TABLE IF NOT EXISTS staff_sessions (
        id INTEGER PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        staff_id INTEGER NOT NULL REFERENCES staff(id),
        aal INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        verified_at TEXT,
        ip TEXT,
        user_agent TEXT,
        ended_at TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS staff_sessions_staff ON staff_sessions(staff_id, ended_at)",
    """CREATE TABLE IF NOT EXISTS staff_throttle (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_failure REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        action TEXT NOT NULL,
        staff_id INTEGER,
        lead_id INTEGER,
        address TEXT,
        data TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS audit_lead ON audit(lead_id)",
    "CREATE INDEX IF NOT EXISTS audit_staff ON audit(staff_id)",
    # Append-only: not even the application can rewrite history.
    """CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
)


AUDIT_CHAIN = (
    # Each entry's hash chains it to the one before (app/leads/audit_chain.py). Updates stay
    # refused, except filling in a missing hash: an entry is chained just after it is written.
    "ALTER TABLE audit ADD COLUMN hash TEXT",
    "DROP TRIGGER IF EXISTS audit_no_update",
    """CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
        WHEN OLD.hash IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.at IS NOT OLD.at
          OR NEW.action IS NOT OLD.action OR NEW.staff_id IS NOT OLD.staff_id
          OR NEW.lead_id IS NOT OLD.lead_id OR NEW.address IS NOT OLD.address
          OR NEW.data IS NOT OLD.data
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
)


def chain_audit_log(db: sqlite3.Connection) -> None:
    """The audit log's hash column and trigger, and the entries written before them chained in
    id order, so `flask staff audit --verify` checks the whole log."""
    run(AUDIT_CHAIN)(db)
    chain_unchained(db)
