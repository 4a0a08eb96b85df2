"""The `payouts` rows (app/leads/schema/payout_tables.py): all of their SQL but the moves'
own conditional UPDATEs (transfers.py, settlement.py). A payout's states, in order: asked,
approved, released (the bank sends it), then paid, or rejected or canceled; a paid payout may
still be returned. The database refuses any move back."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from enum import StrEnum

from app.leads.db import get_db
from app.leads.display import business_day


class PayoutState(StrEnum):
    """A payout's states (members equal the stored text)."""

    ASKED = "asked"
    APPROVED = "approved"
    RELEASED = "released"
    PAID = "paid"
    REJECTED = "rejected"
    CANCELED = "canceled"
    RETURNED = "returned"


LIVE = (PayoutState.ASKED, PayoutState.APPROVED, PayoutState.RELEASED)  # one at a time per lead
UNFINISHED = (*LIVE, PayoutState.PAID)  # what the bank may still change (paid: by a return)
# What counts against the day's limit: every payout approved that day, unless the bank refused
# or cancelled it before any money left.
SPENT = (PayoutState.APPROVED, PayoutState.RELEASED, PayoutState.PAID, PayoutState.RETURNED)


def get(payout_id: int) -> dict:
    """One payout's row; LookupError if there is none."""
    row = get_db().execute("SELECT * FROM payouts WHERE id = ?", (payout_id,)).fetchone()
    if row is None:
        raise LookupError(f"Payout {payout_id} does not exist.")
    return dict(row)


def of_lead(lead_id: int) -> list[dict]:
    """Every payout of a lead, newest first."""
    rows = get_db().execute("SELECT * FROM payouts WHERE lead_id = ? ORDER BY id DESC", (lead_id,))
    return [dict(row) for row in rows]


def live(db: sqlite3.Connection, lead_id: int) -> dict | None:
    """The lead's payout asked, approved or on its way, if there is one."""
    row = db.execute(
        f"SELECT * FROM payouts WHERE lead_id = ? AND state IN {in_list(LIVE)}", (lead_id,)
    ).fetchone()
    return dict(row) if row else None


def by_transfer(transfer_id: str) -> dict | None:
    """The payout of the bank's transfer `transfer_id`, if it is ours."""
    row = get_db().execute("SELECT * FROM payouts WHERE transfer_id = ?", (transfer_id,))
    found = row.fetchone()
    return dict(found) if found else None


def next_attempt(db: sqlite3.Connection, lead_id: int, deal: int) -> int:
    """The number of the next try at paying this deal."""
    row = db.execute(
        "SELECT coalesce(max(attempt), 0) + 1 FROM payouts WHERE lead_id = ? AND deal = ?",
        (lead_id, deal),
    ).fetchone()
    return row[0]


def spent_on(db: sqlite3.Connection, day: date) -> int:
    """Cents approved for payment on the business day `day` (its limit counts them)."""
    since = (day - timedelta(days=1)).isoformat()  # a UTC window wide enough for any zone
    rows = db.execute(
        f"SELECT amount_cents, approved_at FROM payouts WHERE approved_at >= ? "
        f"AND state IN {in_list(SPENT)}",
        (since,),
    )
    return sum(row[0] for row in rows if business_day(row[1]) == day)


def unfinished() -> list[dict]:
    """Every payout the bank may still change, oldest first (the reconciler's list)."""
    rows = get_db().execute(
        f"SELECT * FROM payouts WHERE state IN {in_list(UNFINISHED)} ORDER BY id"
    )
    return [dict(row) for row in rows]


def in_list(states: tuple[str, ...]) -> str:
    """States as an SQL list of literals (fixed words of this module, never input)."""
    return "(" + ", ".join(f"'{state}'" for state in states) + ")"
