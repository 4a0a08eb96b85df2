"""Every read and write of the staff tables in leads.db (made by app/leads/schema/):
accounts, recovery codes, sessions and sign-in throttling.

Secrets are never stored as given: passwords as argon2id hashes, the TOTP secret encrypted,
session ids and enrolment tokens as SHA-256 digests (they are long random values, so a fast hash
is enough and lets a lookup use an index), recovery codes as a keyed HMAC
(app/staff/recovery_codes.py).
"""

from __future__ import annotations

import sqlite3

from app.leads.db import get_db, now, transaction


def one(sql: str, params=()) -> dict | None:
    """The first row a query finds, or None."""
    row = get_db().execute(sql, params).fetchone()
    return dict(row) if row else None


def many(sql: str, params=()) -> list[dict]:
    """Every row a query finds."""
    return [dict(row) for row in get_db().execute(sql, params)]


def change(sql: str, params=()) -> int:
    """Run one write in a transaction of its own; the number of rows it touched."""
    with transaction() as db:
        return db.execute(sql, params).rowcount


# Accounts


def insert_staff(email: str, name: str, token_hash: str, expires_at: str) -> int:
    """Add an account waiting for enrolment; its id."""
    with transaction() as db:
        return db.execute(
            "INSERT INTO staff (email, name, enrol_token_hash, enrol_expires_at, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (email, name, token_hash, expires_at, now()),
        ).lastrowid


def staff_by_email(email: str) -> dict | None:
    """The account with this e-mail, or None."""
    return one("SELECT * FROM staff WHERE email = ?", (email,))


def staff_by_id(staff_id: int) -> dict | None:
    """The account with this id, or None."""
    return one("SELECT * FROM staff WHERE id = ?", (staff_id,))


def staff_by_enrol_token(token_hash: str) -> dict | None:
    """The account whose enrolment link has this digest, or None."""
    return one("SELECT * FROM staff WHERE enrol_token_hash = ?", (token_hash,))


def all_staff() -> list[dict]:
    """Every account with its open session count and its last sign-in."""
    return many(
        "SELECT staff.*, "
        "(SELECT count(*) FROM staff_sessions s WHERE s.staff_id = staff.id AND s.aal = 2 "
        " AND s.ended_at IS NULL) AS open_sessions, "
        "(SELECT max(verified_at) FROM staff_sessions s WHERE s.staff_id = staff.id) "
        "AS last_sign_in FROM staff ORDER BY email"
    )


def restart_enrolment(staff_id: int, token_hash: str, expires_at: str) -> None:
    """Forget every credential of an account and give it a new enrolment link."""
    with transaction() as db:
        db.execute(
            "UPDATE staff SET password_hash = NULL, totp_secret = NULL, totp_last_step = NULL, "
            "enrolled_at = NULL, enrol_token_hash = ?, enrol_expires_at = ? WHERE id = ?",
            (token_hash, expires_at, staff_id),
        )
        db.execute("DELETE FROM staff_recovery_codes WHERE staff_id = ?", (staff_id,))


def set_password_hash(staff_id: int, password_hash: str) -> None:
    """Store the account's password hash."""
    change("UPDATE staff SET password_hash = ? WHERE id = ?", (password_hash, staff_id))


def set_totp_secret(staff_id: int, encrypted: str) -> None:
    """Store the account's encrypted TOTP secret."""
    change("UPDATE staff SET totp_secret = ? WHERE id = ?", (encrypted, staff_id))


def finish_enrolment(staff_id: int, code_hashes: list[str], last_step: int) -> None:
    """Mark the account enrolled, spend its link and keep its new recovery codes."""
    with transaction() as db:
        db.execute(
            "UPDATE staff SET enrolled_at = ?, enrol_token_hash = NULL, enrol_expires_at = NULL, "
            "totp_last_step = ? WHERE id = ?",
            (now(), last_step, staff_id),
        )
        store_recovery_codes(db, staff_id, code_hashes)


def store_recovery_codes(db: sqlite3.Connection, staff_id: int, code_hashes: list[str]) -> None:
    """Within a transaction: the account's recovery codes are these, and no others."""
    db.execute("DELETE FROM staff_recovery_codes WHERE staff_id = ?", (staff_id,))
    db.executemany(
        "INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?, ?)",
        [(staff_id, code_hash) for code_hash in code_hashes],
    )


def replace_recovery_codes(staff_id: int, code_hashes: list[str]) -> None:
    """Replace every recovery code of the account, spent or not, with these, all at once."""
    with transaction() as db:
        store_recovery_codes(db, staff_id, code_hashes)


def disable_staff(staff_id: int) -> None:
    """Mark the account disabled from now."""
    change("UPDATE staff SET disabled_at = ? WHERE id = ?", (now(), staff_id))


def claim_totp_step(staff_id: int, step: int) -> bool:
    """Record `step` as used if it is later than any used before: one use per code, even when
    two requests race with the same code."""
    return bool(
        change(
            "UPDATE staff SET totp_last_step = ? WHERE id = ? "
            "AND (totp_last_step IS NULL OR totp_last_step < ?)",
            (step, staff_id, step),
        )
    )


def claim_recovery_code(staff_id: int, code_hash: str) -> bool:
    """Spend a recovery code; False if it is unknown or already spent."""
    return bool(
        change(
            "UPDATE staff_recovery_codes SET used_at = ? "
            "WHERE staff_id = ? AND code_hash = ? AND used_at IS NULL",
            (now(), staff_id, code_hash),
        )
    )


def unkeyed_recovery_codes(keyed_prefix: str) -> list[dict]:
    """Recovery codes still stored the way releases before keyed codes stored them."""
    return many(
        "SELECT id, code_hash FROM staff_recovery_codes WHERE substr(code_hash, 1, ?) != ?",
        (len(keyed_prefix), keyed_prefix),
    )


def replace_recovery_code_hash(code_id: int, old_hash: str, new_hash: str) -> int:
    """Store a code's new form if it still has `old_hash` (1), else leave it (0)."""
    return change(
        "UPDATE staff_recovery_codes SET code_hash = ? WHERE id = ? AND code_hash = ?",
        (new_hash, code_id, old_hash),
    )


def unused_recovery_codes(staff_id: int) -> int:
    """How many of the account's recovery codes are still unspent."""
    row = one(
        "SELECT count(*) AS n FROM staff_recovery_codes WHERE staff_id = ? AND used_at IS NULL",
        (staff_id,),
    )
    return row["n"]


# Sessions


def insert_session(token_hash: str, staff_id: int, aal: int, ip: str, user_agent: str) -> int:
    """Start a session (verified now when it starts at aal2); its id."""
    stamp = now()
    verified = stamp if aal == 2 else None
    with transaction() as db:
        return db.execute(
            "INSERT INTO staff_sessions (token_hash, staff_id, aal, created_at, last_seen_at, "
            "verified_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (token_hash, staff_id, aal, stamp, stamp, verified, ip, user_agent),
        ).lastrowid


def session_by_token(token_hash: str) -> dict | None:
    """The session not yet ended whose id has this digest, or None."""
    return one(
        "SELECT * FROM staff_sessions WHERE token_hash = ? AND ended_at IS NULL", (token_hash,)
    )


def touch_session(session_id: int) -> None:
    """Note a request on the session now, for the idle timeout."""
    change("UPDATE staff_sessions SET last_seen_at = ? WHERE id = ?", (now(), session_id))


def mark_verified(session_id: int) -> None:
    """Note that both factors were just given in this session."""
    change("UPDATE staff_sessions SET verified_at = ? WHERE id = ?", (now(), session_id))


def end_session(session_id: int, staff_id: int | None = None) -> bool:
    """End one session (only if it belongs to `staff_id`, when given)."""
    sql = "UPDATE staff_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL"
    params: tuple = (now(), session_id)
    if staff_id is not None:
        sql += " AND staff_id = ?"
        params += (staff_id,)
    return bool(change(sql, params))


def end_sessions_of(staff_id: int, keep: int | None = None) -> int:
    """End every open session of the account (but the one `keep` names); how many were ended."""
    return change(
        "UPDATE staff_sessions SET ended_at = ? WHERE staff_id = ? AND ended_at IS NULL "
        "AND id IS NOT ?",
        (now(), staff_id, keep),
    )


def open_sessions_of(staff_id: int) -> list[dict]:
    """The account's open aal2 sessions, most recently seen first."""
    return many(
        "SELECT * FROM staff_sessions WHERE staff_id = ? AND aal = 2 AND ended_at IS NULL "
        "ORDER BY last_seen_at DESC",
        (staff_id,),
    )


# Throttling (app/staff/throttle.py)


def throttle_states(db: sqlite3.Connection, keys: list[str]) -> dict[str, dict]:
    """The failure count and time of the last failure of each of `keys` that has any."""
    marks = ", ".join("?" * len(keys))
    rows = db.execute(f"SELECT * FROM staff_throttle WHERE key IN ({marks})", keys)
    return {row["key"]: dict(row) for row in rows}


def add_failures(
    db: sqlite3.Connection, keys: list[str], at: float, forget_before: float
) -> dict[str, int]:
    """Count one more failure for each key (from one again if its last is long past); each
    key's new count."""
    counts = {}
    for key in keys:
        counts[key] = db.execute(
            "INSERT INTO staff_throttle (key, failures, last_failure) VALUES (?, 1, ?) "
            "ON CONFLICT(key) DO UPDATE SET last_failure = excluded.last_failure, "
            "failures = CASE WHEN last_failure < ? THEN 1 ELSE failures + 1 END "
            "RETURNING failures",
            (key, at, forget_before),
        ).fetchone()[0]
    return counts


def take_back_failure(key: str, at: float, previous: float | None) -> None:
    """Undo one failure counted at `at`: the count goes down, the time of the last failure back
    to `previous` unless another has been counted since; a count of none is deleted."""
    with transaction() as db:
        db.execute(
            "UPDATE staff_throttle SET failures = failures - 1, last_failure = CASE "
            "WHEN last_failure = ? AND ? IS NOT NULL THEN ? ELSE last_failure END WHERE key = ?",
            (at, previous, previous, key),
        )
        db.execute("DELETE FROM staff_throttle WHERE key = ? AND failures <= 0", (key,))


def clear_failures(key: str) -> None:
    """Forget the failures counted for `key`."""
    change("DELETE FROM staff_throttle WHERE key = ?", (key,))
