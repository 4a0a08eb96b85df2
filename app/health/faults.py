"""The faults staff are told of, each once (the `faults` table, app/leads/schema/
health_tables.py): a fault opens when a check first sees it, is told to staff once (its
`told_at` claimed before the e-mail goes, released if the relay refused it), and is forgotten
once it has cleared and been told. A fault that cleared before staff could be told (the mail
relay itself was the fault) stays, with when it ended, until the next e-mail tells it."""

from __future__ import annotations

from app.leads.db import get_db, now, transaction

TITLES = {
    "redis": "Redis does not answer",
    "owed": "Work has been owed too long",
    "failing": "Jobs are failing",
    "disk": "The disk is nearly full",
    "mail": "The mail relay refuses e-mail",
}


def record(seen: dict[str, str]) -> None:
    """Note what a check saw now (kind -> what it saw): a kind not open yet opens, one open
    stays open (what it saw kept up to date until staff are told), an open kind not seen now
    is marked cleared; a cleared fault already told is forgotten, so it opens anew if it comes
    back."""
    at = now()
    with transaction() as db:
        db.execute("DELETE FROM faults WHERE cleared_at IS NOT NULL AND told_at IS NOT NULL")
        for kind, detail in seen.items():
            db.execute(
                "INSERT INTO faults (kind, since, detail) VALUES (?, ?, ?) ON CONFLICT (kind) "
                "DO UPDATE SET cleared_at = NULL, detail = CASE WHEN faults.told_at IS NULL "
                "THEN excluded.detail ELSE faults.detail END",
                (kind, at, detail),
            )
        marks = ", ".join("?" for _ in seen)
        db.execute(
            f"UPDATE faults SET cleared_at = ? WHERE cleared_at IS NULL AND kind NOT IN ({marks})",
            (at, *seen),
        )


def open_faults() -> list[dict]:
    """Every fault on record, oldest first (cleared ones not yet told included)."""
    rows = get_db().execute("SELECT * FROM faults ORDER BY since, kind")
    return [dict(row) for row in rows]


def claim_untold() -> list[dict]:
    """Claim every fault not yet told, for the one e-mail that tells them: the rows this caller
    won (another check that runs at the same moment wins none of them)."""
    with transaction() as db:
        rows = db.execute(
            "UPDATE faults SET told_at = ? WHERE told_at IS NULL RETURNING *", (now(),)
        ).fetchall()
    return sorted((dict(row) for row in rows), key=lambda row: (row["since"], row["kind"]))


def release(claimed: list[dict]) -> None:
    """Give back the claims of an e-mail the relay refused, so the next check tells them."""
    with transaction() as db:
        db.executemany(
            "UPDATE faults SET told_at = NULL WHERE kind = ? AND told_at = ?",
            [(row["kind"], row["told_at"]) for row in claimed],
        )
