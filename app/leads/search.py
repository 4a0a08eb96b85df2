"""The staff inbox's SQL: one filter shape for the list, the tab counts, the CSV export and
`flask leads list`, with the seller-waiting flag and photo counts the list shows."""

from __future__ import annotations

from app.leads.db import get_db
from app.leads.store import PHOTO_COUNT


def list_leads() -> list[dict]:
    """Every lead, newest first, with its photo count."""
    rows = get_db().execute(f"SELECT leads.*, {PHOTO_COUNT} FROM leads ORDER BY id DESC")
    return [dict(row) for row in rows]


PHONE_DIGITS = (
    "replace(replace(replace(replace(replace(replace(phone, ' ', ''), '(', ''), ')', ''), "
    "'-', ''), '.', ''), '+', '')"
)


def like_pattern(text: str) -> str:
    """`text` as a LIKE pattern matching it anywhere, its own % and _ taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def filter_clause(filters: dict) -> tuple[str, dict]:
    """WHERE conditions for the inbox filters that are set: `text` (name, e-mail, model),
    `digits` (phone), `reference`, `brand`, `source` ('' = none), `state`, `created_from` and
    `created_to` (ISO dates, inclusive)."""
    conditions, params = [], {}
    searches = []
    if filters.get("text"):
        params["text"] = like_pattern(filters["text"])
        searches += [
            f"{column} LIKE :text ESCAPE '\\'" for column in ("full_name", "email", "watch_model")
        ]
    if filters.get("digits"):
        params["digits"] = like_pattern(filters["digits"])
        searches.append(f"{PHONE_DIGITS} LIKE :digits ESCAPE '\\'")
    if filters.get("reference"):
        params["reference"] = filters["reference"]
        searches.append("reference = :reference")
    if searches:
        conditions.append("(" + " OR ".join(searches) + ")")
    for key, condition in (
        ("state", "state = :state"),
        ("brand", "watch_brand = :brand"),
        ("created_from", "substr(created_at, 1, 10) >= :created_from"),
        ("created_to", "substr(created_at, 1, 10) <= :created_to"),
    ):
        if filters.get(key):
            conditions.append(condition)
            params[key] = filters[key]
    if filters.get("source") is not None:
        conditions.append("coalesce(utm_source, '') = :source")
        params["source"] = filters["source"]
    return (" WHERE " + " AND ".join(conditions)) if conditions else "", params


# Whether the seller's last action after submitting (a question, photos, an answer to a quote,
# a withdrawal) is newer than anything staff did on the lead: 1, 0, or NULL if there is none.
SELLER_WAITING = (
    "(SELECT max(id) FROM lead_events WHERE lead_id = leads.id AND actor = 'seller' "
    "AND kind != 'submitted') > coalesce((SELECT max(id) FROM lead_events "
    "WHERE lead_id = leads.id AND actor NOT IN ('seller', 'system')), 0)"
)


def find_leads(filters: dict, limit: int | None = None, offset: int = 0) -> list[dict]:
    """Leads matching `filters`, newest first, with their photo count and whether the seller
    is waiting for staff."""
    where, params = filter_clause(filters)
    page = " LIMIT :limit OFFSET :offset" if limit is not None else ""
    rows = get_db().execute(
        f"SELECT leads.*, {PHOTO_COUNT}, {SELLER_WAITING} AS seller_waiting "
        f"FROM leads{where} ORDER BY id DESC{page}",
        params | {"limit": limit, "offset": offset},
    )
    return [dict(row) for row in rows]


def count_by_state(filters: dict) -> dict[str, int]:
    """How many leads match `filters` (whatever their state) in each state."""
    where, params = filter_clause({key: value for key, value in filters.items() if key != "state"})
    rows = get_db().execute(f"SELECT state, count(*) AS n FROM leads{where} GROUP BY state", params)
    return {row["state"]: row["n"] for row in rows}


def filter_choices() -> dict[str, list[str]]:
    """The brands and campaign sources that occur among leads, for the filter bar."""
    db = get_db()
    brands = db.execute("SELECT DISTINCT watch_brand FROM leads ORDER BY 1").fetchall()
    sources = db.execute(
        "SELECT DISTINCT utm_source FROM leads WHERE utm_source IS NOT NULL ORDER BY 1"
    ).fetchall()
    return {"brands": [row[0] for row in brands], "sources": [row[0] for row in sources]}
