"""The staff list's SQL over the guide (docs/prices.md, "The staff list"): one filter shape for
a page of entries and the pager's count.

Each page stays quick at 10,000 entries (bench/price_guide.py): the database filters, sorts and
cuts the page (LIMIT/OFFSET), and each sort walks an index of its own; the view reads the
market prices of the page's entries only (market.prices_of).
"""

from __future__ import annotations

from datetime import date, timedelta

from flask import current_app

from app.leads.db import get_db
from app.leads.search import like_pattern
from app.prices import guide

# Each sort's ORDER BY; the indexes of app/leads/schema/price_tables.py's LIST_INDEXES walk
# them in order, so a page is read without sorting the guide.
SORTS = {
    "brand": "brand, reference",
    "reference": "reference_key, brand",
    "oldest": "set_on, brand, reference",
    "newest": "set_on DESC, brand DESC, reference DESC",
    "lowest": "low, brand, reference",
    "highest": "low DESC, brand DESC, reference DESC",
}
# Our mid-range's distance from the kept market price, in whole percent, rounded as
# market.whole_percent rounds it (halves away from zero, as SQLite's round()).
DRIFT = (
    "abs(round(((price_guide.low + price_guide.high) / 2.0 - market_prices.price) "
    "/ market_prices.price * 100))"
)
DRIFTED = (
    "EXISTS (SELECT 1 FROM market_prices WHERE market_prices.brand = price_guide.brand "
    "AND market_prices.reference_key = price_guide.reference_key "
    f"AND market_prices.price > 0 AND {DRIFT} > :drift_limit)"
)


def stale_before(today: date) -> str:
    """The first day an entry may have been set on and still be fresh, as of `today`: older
    ones are stale (guide.is_stale says the same of one entry)."""
    return (today - timedelta(days=current_app.config["PRICE_GUIDE_STALE_DAYS"])).isoformat()


def filter_clause(filters: dict) -> tuple[str, dict]:
    """WHERE conditions for the filters that are set: `text` (brand, reference typed any way,
    names), `stale`, `drifted` or `sample` (true to keep only those), as of `today`; samples
    only where this app shows them."""
    conditions = ["(sample = 0 OR :samples)"]
    params = {"samples": guide.shown_samples()}
    if filters.get("text"):
        params["text"] = like_pattern(filters["text"])
        params["key"] = like_pattern(guide.key(filters["text"]) or filters["text"])
        conditions.append(
            "(brand LIKE :text ESCAPE '\\' OR reference_key LIKE :key ESCAPE '\\' "
            "OR names LIKE :text ESCAPE '\\')"
        )
    if filters.get("stale"):
        conditions.append("set_on < :stale_before")
        params["stale_before"] = stale_before(filters["today"])
    if filters.get("drifted"):
        conditions.append(DRIFTED)
        params["drift_limit"] = current_app.config["MARKET_DRIFT_PERCENT"]
    if filters.get("sample"):
        conditions.append("sample = 1")
    return " WHERE " + " AND ".join(conditions), params


def find_entries(filters: dict, sort: str, limit: int, offset: int) -> list[dict]:
    """One page of the entries matching `filters`, in the order `sort` names (SORTS)."""
    where, params = filter_clause(filters)
    rows = get_db().execute(
        f"SELECT * FROM price_guide{where} ORDER BY {SORTS[sort]} LIMIT :limit OFFSET :offset",
        params | {"limit": limit, "offset": offset},
    )
    return [dict(row) for row in rows]


def count_entries(filters: dict) -> int:
    """How many entries match `filters`."""
    where, params = filter_clause(filters)
    return get_db().execute(f"SELECT count(*) FROM price_guide{where}", params).fetchone()[0]
