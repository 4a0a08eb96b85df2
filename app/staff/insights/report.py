"""The dashboard's numbers as people read them: the funnel with its rates, the key figures, the
trend by day and the breakdown table, each also as plain rows for its CSV download."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from app.content import queries
from app.leads.display import FIRST_REPLY_PROMISE, usd
from app.leads.state import State
from app.sale import lifecycle
from app.staff.insights import counts
from app.staff.insights.query import BREAKDOWN_LABELS, SEGMENT_LABELS, InsightsQuery, Period

LANDING_LABELS = {
    "home": "Home page",
    "city": "City pages",
    "brand": "Brand pages",
    "article": "Articles",
    "other": "Other pages",
    "unknown": "Not recorded",
}
NONE_LABELS = {
    "source": "No campaign",
    "medium": "No medium",
    "campaign": "No campaign",
    "brand": "No brand",
    "city": "Not a city page",
}
STEP_LABELS = {"leads": "Leads"} | {step: lifecycle.STATE_LABELS[step] for step in counts.STEPS}


def percent(part: int, whole: int) -> float | None:
    """`part` as a percentage of `whole`; None when there is no whole."""
    return 100 * part / whole if whole else None


def shown_percent(value: float | None) -> str:
    """'80%', '4.5%' (one decimal below 10), or '–' when there is nothing to divide."""
    if value is None:
        return "–"
    return f"{value:.1f}%" if value < 10 and value != 0 else f"{value:.0f}%"


def shown_hours(hours: float | None) -> str:
    """'45 min', '5.2 h' or '3.1 days'; '–' for none."""
    if hours is None:
        return "–"
    if hours < 1:
        return f"{hours * 60:.0f} min"
    return f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.1f} days"


def shown_days(days: float | None) -> str:
    """'1 day', '9 days', '9.5 days'; '–' for none."""
    if days is None:
        return "–"
    text = f"{days:.0f}" if days == int(days) else f"{days:.1f}"
    return f"{text} day" if text == "1" else f"{text} days"


def city_names() -> dict[str, str]:
    """Each city page's slug with its city's name."""
    return {city["key"]: city["city"] for city in queries.cities()}


def value_label(name: str, value: str, cities: dict[str, str]) -> str:
    """A dimension's value as staff read it: landing families and cities by name."""
    if name == "landing":
        return LANDING_LABELS.get(value, value)
    if not value:
        return NONE_LABELS[name]
    return cities.get(value, value) if name == "city" else value


@dataclass(frozen=True)
class Step:
    """One step of the funnel: how many leads reached it, from the step before, from all."""

    key: str
    label: str
    count: int
    from_previous: float | None
    from_leads: float | None


def funnel_steps(funnel: counts.Funnel) -> list[Step]:
    """Leads, then every step, each with its rate from the step before and from all leads."""
    counts = {"leads": funnel.leads} | funnel.steps
    steps, previous = [], funnel.leads
    for key, count in counts.items():
        rate = None if key == "leads" else percent(count, previous)
        steps.append(Step(key, STEP_LABELS[key], count, rate, percent(count, funnel.leads)))
        previous = count
    return steps


def bought_value_figure(amount: int) -> tuple[str, str, str]:
    """The total paid, millions shortened ('$19.6M') so the figure fits a phone's card; the
    exact amount then goes in its note."""
    if amount < 1_000_000:
        return ("Bought value", usd(amount), "paid for these leads' watches")
    return ("Bought value", f"${amount / 1_000_000:.1f}M", f"{usd(amount)} paid for the watches")


def reply_figure(timings: counts.Timings) -> tuple[str, str, str]:
    """The median first reply, with how often the promised 24 hours were kept."""
    if not timings.reply_due:
        return ("First reply", shown_hours(timings.median_reply_hours), "no lead due a reply yet")
    in_time = shown_percent(percent(timings.replied_in_time, timings.reply_due))
    kept = f"{in_time} within 24 h ({timings.replied_in_time:,} of {timings.reply_due:,})"
    return ("First reply", shown_hours(timings.median_reply_hours), f"median; {kept}")


def key_figures(funnel: counts.Funnel, timings: counts.Timings) -> list[tuple[str, str, str]]:
    """(label, value, note) of the figures shown above the charts."""
    bought = funnel.steps[State.BOUGHT]
    nothing_bought = timings.median_bought_value is None
    return [
        ("Leads", f"{funnel.leads:,}", "received in the period"),
        (
            "Bought",
            f"{bought:,}",
            f"{shown_percent(percent(bought, funnel.leads))} of leads" if funnel.leads else "–",
        ),
        bought_value_figure(funnel.bought_value),
        (
            "Median price",
            "–" if nothing_bought else usd(timings.median_bought_value),
            "nothing bought yet" if nothing_bought else "per watch bought",
        ),
        reply_figure(timings),
        (
            "Lead to payment",
            shown_days(timings.median_payment_days),
            "nothing bought yet" if nothing_bought else "median, to the payment date",
        ),
    ]


@dataclass(frozen=True)
class Day:
    """One day of the trend: leads received, and how many of them were bought."""

    day: date
    leads: int
    bought: int


def trend(period: Period, counts: dict[str, tuple[int, int]]) -> list[Day]:
    """Every day of the period, days without leads included."""
    return [Day(day, *counts.get(day.isoformat(), (0, 0))) for day in period.days()]


def breakdown_rows(rows: list[dict], by: str) -> list[dict]:
    """The breakdown's rows with their label, the group to narrow to, and the conversion."""
    cities = city_names() if "city" in counts.BREAKDOWNS[by] else {}
    names = counts.BREAKDOWNS[by]
    shown = []
    for row in rows:
        group = {name: row[name] for name in names}
        label = " / ".join(value_label(name, row[name], cities) for name in names)
        if len(names) > 1 and not any(group.values()):
            label = NONE_LABELS["campaign"]  # rather than "No campaign / No medium / ..."
        shown.append(
            row
            | {"label": label, "group": group, "converted": percent(row["bought"], row["leads"])}
        )
    return shown


def segment_shown(query: InsightsQuery) -> list[tuple[str, str, str]]:
    """(name, label, value as read) of each narrowing of the view."""
    cities = city_names() if any(name == "city" for name, _ in query.segment) else {}
    window = query.window().segment
    return [
        (name, SEGMENT_LABELS[name], value_label(name, window[name], cities))
        for name, _ in query.segment
    ]


@dataclass(frozen=True)
class Report:
    """Everything the dashboard shows for one query."""

    steps: list[Step]
    figures: list[tuple[str, str, str]]
    days: list[Day]
    groups: list[dict]


def build(query: InsightsQuery, now: datetime | None = None) -> Report:
    """Run the dashboard's queries for `query` and shape their numbers for the page."""
    window = query.window()
    due_before = (now or datetime.now(UTC)) - FIRST_REPLY_PROMISE
    funnel = counts.funnel(window)
    timings = counts.timings(window, due_before.isoformat(timespec="seconds"))
    return Report(
        steps=funnel_steps(funnel),
        figures=key_figures(funnel, timings),
        days=trend(query.period, counts.daily(window)),
        groups=breakdown_rows(counts.breakdown(window, query.by), query.by),
    )


# The CSV downloads: one per table, plain numbers (rates as percentages to one decimal).

TABLES = ("funnel", "trend", "breakdown")


def rate(value: float | None) -> str:
    """A rate for the CSV: a percentage to one decimal, empty for none."""
    return "" if value is None else f"{value:.1f}"


def table_rows(name: str, query: InsightsQuery, report: Report) -> list[list]:
    """The table `name` (one of TABLES) as CSV rows, its header first."""
    if name == "funnel":
        header = ["step", "leads", "percent_of_previous_step", "percent_of_leads"]
        rows = [[s.label, s.count, rate(s.from_previous), rate(s.from_leads)] for s in report.steps]
    elif name == "trend":
        header = ["day", "leads", "bought"]
        rows = [[d.day.isoformat(), d.leads, d.bought] for d in report.days]
    else:
        names = counts.BREAKDOWNS[query.by]
        header = [*names, "leads", *counts.STEPS, "percent_bought", "bought_value_usd"]
        rows = [
            [
                *(g[n] for n in names),
                g["leads"],
                *(g[s] for s in counts.STEPS),
                rate(g["converted"]),
                g["bought_value"],
            ]
            for g in report.groups
        ]
    return [header, *rows]


def breakdown_title(query: InsightsQuery) -> str:
    """'By campaign', 'By landing page'..."""
    return f"By {BREAKDOWN_LABELS[query.by].lower()}"
