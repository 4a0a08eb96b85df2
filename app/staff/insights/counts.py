"""The staff dashboard's SQL (/staff/insights): the funnel, its timings, the daily trend and the
breakdowns of the leads received in a period.

Every query is a range of the `leads_created` index joined by primary key to `lead_progress`,
the summary the timeline's triggers keep (app/leads/schema/progress_tables.py), so a period
costs the leads it holds, not the whole table, and no event's JSON is parsed here. Periods are
UTC days, as in the inbox. A lead counts at a step when it reached that step or a later one: a quote
sent before any call still counts as contacted, so each step holds the one after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.leads.db import get_db
from app.leads.state import State

STEPS = tuple(State)[1:8]  # contacted .. bought: steps 1 to 7

# The landing page's family, from the URL shapes of the page blueprints: / (pages),
# /sell-watch-<city> (locations), /sell-<brand>-watch (brands), /blog/<slug> (blog).
LANDING_FAMILY = (
    "CASE WHEN landing_page IS NULL OR landing_page = '' THEN 'unknown' "
    "WHEN landing_page = '/' THEN 'home' "
    "WHEN landing_page GLOB '/sell-watch-?*' THEN 'city' "
    "WHEN landing_page GLOB '/sell-?*-watch' THEN 'brand' "
    "WHEN landing_page GLOB '/blog/?*' THEN 'article' "
    "ELSE 'other' END"
)
LANDING_CITY = (
    "CASE WHEN landing_page GLOB '/sell-watch-?*' THEN substr(landing_page, 13) ELSE '' END"
)
# What a segment can be narrowed to, and what a breakdown groups by ('' = not given).
DIMENSIONS = {
    "source": "coalesce(utm_source, '')",
    "medium": "coalesce(utm_medium, '')",
    "campaign": "coalesce(utm_campaign, '')",
    "brand": "watch_brand",
    "landing": LANDING_FAMILY,
    "city": LANDING_CITY,
}
BREAKDOWNS = {
    "campaign": ("source", "medium", "campaign"),
    "source": ("source",),
    "medium": ("medium",),
    "brand": ("brand",),
    "landing": ("landing",),
    "city": ("city",),
}
STEP_COUNTS = ", ".join(
    f"count(*) FILTER (WHERE furthest >= {number}) AS {step}"
    for number, step in enumerate(STEPS, start=1)
)


@dataclass(frozen=True)
class Window:
    """The leads one dashboard reads: received from `start` to before `end` (ISO dates, UTC),
    narrowed to a segment ({dimension: value}, '' for leads without one)."""

    start: str
    end: str
    segment: dict[str, str] = field(default_factory=dict)

    def where(self) -> tuple[str, dict]:
        """The FROM and WHERE of every dashboard query for this window, and its parameters."""
        conditions = ["leads.created_at >= :start", "leads.created_at < :end"]
        params = {"start": self.start, "end": self.end}
        for name, value in self.segment.items():
            conditions.append(f"{DIMENSIONS[name]} = :segment_{name}")
            params[f"segment_{name}"] = value
        sql = (
            " FROM leads LEFT JOIN lead_progress AS progress ON progress.lead_id = leads.id"
            " WHERE " + " AND ".join(conditions)
        )
        return sql, params


@dataclass(frozen=True)
class Funnel:
    """How many of a window's leads reached each step, and what the bought ones cost."""

    leads: int
    steps: dict[str, int]
    bought_value: int


@dataclass(frozen=True)
class Timings:
    """The window's medians (None when nothing to take one of): bought value in dollars, first
    reply in hours, lead to payment in days; and the promise kept: replies within 24 hours out
    of the leads whose 24 hours are up (or that were answered sooner)."""

    median_bought_value: float | None
    median_reply_hours: float | None
    replied_in_time: int
    reply_due: int
    median_payment_days: float | None


def funnel(window: Window) -> Funnel:
    """The window's leads and how many reached each step."""
    sql, params = window.where()
    row = (
        get_db()
        .execute(
            f"SELECT count(*) AS leads, {STEP_COUNTS}, total(bought_amount) AS bought_value{sql}",
            params,
        )
        .fetchone()
    )
    return Funnel(row["leads"], {step: row[step] for step in STEPS}, int(row["bought_value"]))


REPLY_HOURS = "(julianday(first_reply_at) - julianday(leads.created_at)) * 24"
PAYMENT_DAYS = (  # to the payment date the bought form records (a date: whole days)
    "max(0, julianday(coalesce(paid_on, substr(bought_at, 1, 10)))"
    " - julianday(substr(leads.created_at, 1, 10)))"
)


def median_of(expression: str, window: Window) -> float | None:
    """The median of `expression` over the window's leads that have a value of it (None if
    none does), found by SQLite: the values are sorted there, never brought into Python."""
    sql, params = window.where()
    row = (
        get_db()
        .execute(
            f"WITH value(x) AS MATERIALIZED (SELECT {expression}{sql} AND {expression} IS NOT NULL)"
            " SELECT avg(x) FROM (SELECT x FROM value ORDER BY x LIMIT 2 -"
            " (SELECT count(*) FROM value) % 2 OFFSET (SELECT (count(*) - 1) / 2 FROM value))",
            params,
        )
        .fetchone()
    )
    return row[0]


def timings(window: Window, due_before: str) -> Timings:
    """The window's medians; `due_before` is the time (ISO, UTC) 24 hours ago: a lead received
    after it and not answered yet still has time, so it counts neither way."""
    sql, params = window.where()
    replies = (
        get_db()
        .execute(
            f"SELECT count(*) FILTER (WHERE {REPLY_HOURS} <= 24) AS in_time,"
            " count(*) FILTER (WHERE first_reply_at IS NOT NULL"
            f" OR leads.created_at < :due_before) AS due{sql}",
            params | {"due_before": due_before},
        )
        .fetchone()
    )
    return Timings(
        median_bought_value=median_of("bought_amount", window),
        median_reply_hours=median_of(REPLY_HOURS, window),
        replied_in_time=replies["in_time"],
        reply_due=replies["due"],
        median_payment_days=median_of(PAYMENT_DAYS, window),
    )


def daily(window: Window) -> dict[str, tuple[int, int]]:
    """Per UTC day of the window that had leads: (leads received, how many of them we bought)."""
    sql, params = window.where()
    rows = get_db().execute(
        "SELECT substr(leads.created_at, 1, 10) AS day, count(*) AS leads,"
        f" count(*) FILTER (WHERE furthest >= {len(STEPS)}) AS bought{sql}"
        " GROUP BY day ORDER BY day",
        params,
    )
    return {row["day"]: (row["leads"], row["bought"]) for row in rows}


def breakdown(window: Window, by: str) -> list[dict]:
    """The window's funnel per group of the breakdown `by` (its dimensions' values, '' for none),
    most leads first: {dimension: value, ..., leads, each step, bought_value}."""
    names = BREAKDOWNS[by]
    keys = ", ".join(f"{DIMENSIONS[name]} AS {name}" for name in names)
    positions = ", ".join(str(number) for number in range(1, len(names) + 1))  # not the columns
    sql, params = window.where()
    rows = get_db().execute(
        f"SELECT {keys}, count(*) AS leads, {STEP_COUNTS},"
        f" total(bought_amount) AS bought_value{sql}"
        f" GROUP BY {positions} ORDER BY {len(names) + 1} DESC, {positions}",
        params,
    )
    return [dict(row) | {"bought_value": int(row["bought_value"])} for row in rows]
