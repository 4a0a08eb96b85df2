"""The staff inbox's SQL: one filter shape for the list, the tab counts, the CSV export and
`flask leads list`, with the seller-waiting flag and photo counts the list shows.

Each page stays quick at 100,000 leads (bench/insights.py): a search of three characters or
more goes through the trigram index `leads_search` (app/leads/schema/progress_tables.py) instead of
reading every lead, the filters use the brand, campaign and received-at indexes, a page's
expensive columns are computed for its 25 leads only, and the export reads one lead at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta

from app.leads.db import get_db
from app.leads.state import State
from app.leads.store import PHOTO_COUNT


def list_leads() -> list[dict]:
    """Every lead, newest first, with its photo count."""
    rows = get_db().execute(f"SELECT leads.*, {PHOTO_COUNT} FROM leads ORDER BY id DESC")
    return [dict(row) for row in rows]


def like_pattern(text: str) -> str:
    """`text` as a LIKE pattern matching it anywhere, its own % and _ taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


SEARCH_MIN_LENGTH = 3  # the trigram index finds runs of three characters or more
MATCH_TEXT = "{full_name email watch_model}"


def phrase(text: str) -> str:
    """`text` as an FTS5 phrase, matched as it is (quotes doubled)."""
    return '"' + text.replace('"', '""') + '"'


def search_conditions(filters: dict, params: dict) -> list[str]:
    """The alternatives of a search: `text` (name, e-mail, model), `digits` (phone) and
    `reference`; through the search index, or by LIKE when the text is too short for it."""
    text, digits, searches = filters.get("text"), filters.get("digits"), []
    if text and len(text) < SEARCH_MIN_LENGTH:
        params["text"] = like_pattern(text)
        searches += [
            f"{column} LIKE :text ESCAPE '\\'" for column in ("full_name", "email", "watch_model")
        ]
    matches = [f"({MATCH_TEXT} : {phrase(text)})"] if text and not searches else []
    if digits:
        matches.append(f"(phone_digits : {phrase(digits)})")
    if matches:
        params["match"] = " OR ".join(matches)
        searches.append(
            "leads.id IN (SELECT rowid FROM leads_search WHERE leads_search MATCH :match)"
        )
    if filters.get("reference"):
        params["reference"] = filters["reference"]
        searches.append("reference = :reference")
    return searches


def day_after(day: str) -> str:
    """The ISO date after `day` (an inclusive last day as an exclusive bound)."""
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


# Where the lead's stolen-watch register check stands, at a glance: 'flagged' or 'clear' (the
# check that counts), 'failed' or 'unknown' (the register asked by API could not say, and no
# check has been recorded since: staff check by hand), or NULL (not yet).
REGISTER_STATUS = """CASE
    WHEN (SELECT register_result FROM purchases WHERE lead_id = leads.id) = 'flagged'
        THEN 'flagged'
    WHEN (SELECT outcome IN ('failed', 'unknown') AND answered_at > coalesce(
            (SELECT max(recorded_at) FROM register_checks WHERE lead_id = leads.id), '')
          FROM register_asks WHERE lead_id = leads.id AND outcome IS NOT NULL
          ORDER BY id DESC LIMIT 1)
        THEN (SELECT outcome FROM register_asks WHERE lead_id = leads.id
              AND outcome IS NOT NULL ORDER BY id DESC LIMIT 1)
    ELSE (SELECT register_result FROM purchases WHERE lead_id = leads.id)
END"""
# The inbox's register filter: each choice, and the statuses it shows.
REGISTER_FILTERS = {"flagged": ("flagged",), "by_hand": ("failed", "unknown")}


def filter_clause(filters: dict) -> tuple[str, dict]:
    """WHERE conditions for the inbox filters that are set: `text` (name, e-mail, model),
    `digits` (phone), `reference`, `brand`, `source` ('' = none), `state`, `created_from` and
    `created_to` (ISO dates, inclusive), `hold` (on_hold or hold_ended, as of `today`),
    `register` (flagged, or by_hand: the register asked by API could not say), `ids` (only
    these leads)."""
    conditions, params = [], {}
    searches = search_conditions(filters, params)
    if searches:
        conditions.append("(" + " OR ".join(searches) + ")")
    for key, condition in (
        ("state", "state = :state"),
        ("brand", "watch_brand = :brand"),
        ("created_from", "created_at >= :created_from"),
    ):
        if filters.get(key):
            conditions.append(condition)
            params[key] = filters[key]
    if filters.get("created_to"):
        conditions.append("created_at < :created_before")
        params["created_before"] = day_after(filters["created_to"])
    if filters.get("hold"):
        ends = ">" if filters["hold"] == "on_hold" else "<="
        conditions.append(f"id IN (SELECT lead_id FROM purchases WHERE hold_ends_on {ends} :today)")
        params["today"] = filters["today"]
    if filters.get("register") in REGISTER_FILTERS:
        statuses = ", ".join(f"'{status}'" for status in REGISTER_FILTERS[filters["register"]])
        conditions.append(f"({REGISTER_STATUS}) IN ({statuses})")
    if "ids" in filters:  # a tab of leads chosen by what their records hold (an empty one too)
        conditions.append("id IN (SELECT value FROM json_each(:ids))")
        params["ids"] = json.dumps(sorted(filters["ids"]))
    if filters.get("source"):
        conditions.append("utm_source = :source")
        params["source"] = filters["source"]
    elif filters.get("source") == "":
        conditions.append("(utm_source IS NULL OR utm_source = '')")
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
    # The page's ids first, then its columns: the subqueries run for these leads only.
    rows = get_db().execute(
        f"SELECT leads.*, {PHOTO_COUNT}, {SELLER_WAITING} AS seller_waiting, "
        f"{REGISTER_STATUS} AS register_status FROM leads "
        f"WHERE id IN (SELECT id FROM leads{where} ORDER BY id DESC{page}) ORDER BY id DESC",
        params | {"limit": limit, "offset": offset},
    )
    return [dict(row) for row in rows]


def iter_leads(filters: dict, newest_first: bool = True) -> Iterator[dict]:
    """Leads matching `filters`, newest (or oldest) first, one at a time: an export of every
    lead holds one in memory, not all of them."""
    where, params = filter_clause(filters)
    order = "DESC" if newest_first else "ASC"
    for row in get_db().execute(f"SELECT * FROM leads{where} ORDER BY id {order}", params):
        yield dict(row)


def count_leads(filters: dict) -> int:
    """How many leads match `filters`."""
    where, params = filter_clause(filters)
    return get_db().execute(f"SELECT count(*) FROM leads{where}", params).fetchone()[0]


def any_state(filters: dict) -> dict:
    """`filters` without the tab: neither a state, nor a hold, nor the leads a tab chose."""
    return {key: value for key, value in filters.items() if key not in ("state", "hold", "ids")}


def count_holds(filters: dict) -> dict[str, int]:
    """How many bought leads matching `filters` (whatever the tab) are still on hold as of
    filters["today"], and how many no longer are: the hold tabs' counts."""
    where, params = filter_clause(any_state(filters) | {"state": State.BOUGHT})
    row = (
        get_db()
        .execute(
            "SELECT coalesce(sum(hold_ends_on > :today), 0) AS on_hold, "
            "coalesce(sum(hold_ends_on <= :today), 0) AS hold_ended "
            f"FROM purchases WHERE lead_id IN (SELECT id FROM leads{where})",
            params | {"today": filters["today"]},
        )
        .fetchone()
    )
    return dict(row)


def count_by_state(filters: dict) -> dict[str, int]:
    """How many leads match `filters` (whatever their state) in each state."""
    where, params = filter_clause(any_state(filters))
    # With a filter, `+state` keeps SQLite from walking the state index in order (and reading
    # every lead to test the filter) rather than using the filter's index and counting aside.
    group = "+state" if where else "state"
    rows = get_db().execute(
        f"SELECT state, count(*) AS n FROM leads{where} GROUP BY {group}", params
    )
    return {row["state"]: row["n"] for row in rows}


def distinct_values(column: str) -> list[str]:
    """The values of an indexed column, in order, NULL left out: one index step per value
    (a loose index scan), so the filter bar costs the same at any number of leads."""
    rows = get_db().execute(
        f"WITH RECURSIVE found(value) AS (SELECT min({column}) FROM leads UNION ALL "
        f"SELECT (SELECT min({column}) FROM leads WHERE {column} > value) FROM found "
        "WHERE value IS NOT NULL) SELECT value FROM found WHERE value IS NOT NULL"
    )
    return [row[0] for row in rows]


def filter_choices() -> dict[str, list[str]]:
    """The brands and campaign sources that occur among leads, for the filter bar."""
    return {"brands": distinct_values("watch_brand"), "sources": distinct_values("utm_source")}
