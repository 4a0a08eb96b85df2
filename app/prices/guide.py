"""The guide's records in leads.db (`price_guide`): one entry per brand and reference, saved by
staff from /staff/prices or a CSV file, each change audited by the caller. Sample entries
(`sample = 1`, development's) exist only where SHOW_SAMPLE_CONTENT is on; an entry set more than
PRICE_GUIDE_STALE_DAYS ago is stale and never shown to a seller."""

from __future__ import annotations

import re
import sqlite3
from datetime import date

from flask import current_app

from app.leads.db import get_db, immediate_transaction
from app.leads.display import business_today

# What staff set on an entry (the rest is who and when).
FIELDS = ("brand", "reference", "names", "low", "high", "excellent", "good", "fair",
          "needs_service", "no_box", "no_papers")  # fmt: skip


class Duplicate(ValueError):
    """Another entry already has this brand and reference."""


def key(reference: str) -> str:
    """A reference as matching compares it: its letters and digits, upper case ('126610-ln' and
    '126610 LN' are '126610LN')."""
    return re.sub(r"[^0-9A-Z]", "", reference.upper())


def names_of(entry: dict) -> list[str]:
    """The model names and variants an entry covers."""
    return [name.strip() for name in entry["names"].split(";") if name.strip()]


def shown_samples() -> bool:
    """Whether sample entries exist for this app (never in production)."""
    return bool(current_app.config["SHOW_SAMPLE_CONTENT"])


def entries() -> list[dict]:
    """Every entry this app shows, by brand then reference."""
    rows = get_db().execute(
        "SELECT * FROM price_guide WHERE sample = 0 OR ? ORDER BY brand, reference",
        (shown_samples(),),
    )
    return [dict(row) for row in rows]


def entry(entry_id: int) -> dict | None:
    """One entry, if this app shows it."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM price_guide WHERE id = ? AND (sample = 0 OR ?)",
            (entry_id, shown_samples()),
        )
        .fetchone()
    )
    return dict(row) if row else None


def version() -> int:
    """The guide's version: every change bumps it (a trigger), so an index knows it is old."""
    return get_db().execute("SELECT version FROM price_guide_version").fetchone()[0]


def age_in_days(entry: dict, today: date | None = None) -> int:
    """How many days ago the entry's range was set."""
    return ((today or business_today()) - date.fromisoformat(entry["set_on"])).days


def is_stale(entry: dict, today: date | None = None) -> bool:
    """Set longer ago than PRICE_GUIDE_STALE_DAYS: never shown to a seller."""
    return age_in_days(entry, today) > current_app.config["PRICE_GUIDE_STALE_DAYS"]


def same_reference(db: sqlite3.Connection, brand: str, reference: str, other_than: int | None):
    """The id of another entry of `brand` whose reference has the same key, if there is one."""
    row = db.execute(
        "SELECT id FROM price_guide WHERE brand = ? AND reference_key = ? AND id IS NOT ?",
        (brand, key(reference), other_than),
    ).fetchone()
    return row["id"] if row else None


def write(db: sqlite3.Connection, values: dict, actor: str, entry_id: int | None = None) -> int:
    """Insert an entry, or update `entry_id`, inside the caller's transaction, set by `actor`
    today; its id. Duplicate if another entry has the brand and reference."""
    if same_reference(db, values["brand"], values["reference"], entry_id):
        raise Duplicate(f"{values['brand']} {values['reference']} is already in the guide.")
    row = {name: values[name] for name in FIELDS} | {
        "reference_key": key(values["reference"]),
        "set_by": actor,
        "set_on": business_today().isoformat(),
    }
    if entry_id is None:
        columns = ", ".join(row)
        marks = ", ".join(f":{name}" for name in row)
        return db.execute(f"INSERT INTO price_guide ({columns}) VALUES ({marks})", row).lastrowid
    assignments = ", ".join(f"{name} = :{name}" for name in row)
    db.execute(f"UPDATE price_guide SET {assignments} WHERE id = :id", row | {"id": entry_id})
    return entry_id


def save(values: dict, actor: str, entry_id: int | None = None) -> int:
    """write() in a transaction of its own."""
    with immediate_transaction() as db:
        return write(db, values, actor, entry_id)


def delete(entry_id: int) -> bool:
    """Remove an entry; whether it was there."""
    with immediate_transaction() as db:
        return db.execute("DELETE FROM price_guide WHERE id = ?", (entry_id,)).rowcount > 0


def existing_id(db: sqlite3.Connection, brand: str, reference: str) -> int | None:
    """The id of the entry with this brand and reference key (a CSV row updates it)."""
    return same_reference(db, brand, reference, None)
