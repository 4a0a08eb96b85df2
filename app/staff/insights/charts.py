"""The dashboard's charts as geometry for server-rendered SVG (no JavaScript, no build).

Horizontal positions are percentages of the chart's width and vertical ones CSS pixels, with
no viewBox: bars stretch to any width while text keeps its size, so one chart reads at 375 px
and at 1280 px. Each chart also says its numbers in words (its aria-label and <title>), and
the page shows them as a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.staff.insights.report import Day, Step, shown_percent

FUNNEL_ROW = 44  # px per step: a line of text, then its bar
FUNNEL_BAR = 14
TREND_HEIGHT = 216
TREND_TOP = 10  # px above the tallest gridline
TREND_BOTTOM = 180  # px: the baseline; day labels below it


@dataclass(frozen=True)
class FunnelRow:
    """One step's label, figures and bar: y in px, width in % of the chart."""

    label: str
    figures: str
    text_y: int
    bar_y: int
    width: str


@dataclass(frozen=True)
class FunnelChart:
    """The funnel as horizontal bars, each step's length its share of the leads."""

    rows: list[FunnelRow]
    height: int
    bar_height: int
    description: str


def funnel_chart(steps: list[Step], period_label: str) -> FunnelChart:
    """Bars for the leads and each step after them."""
    rows = []
    for number, step in enumerate(steps):
        top = number * FUNNEL_ROW
        share = step.from_leads or 0
        figures = f"{step.count:,}" + (f" · {shown_percent(step.from_leads)}" if number else "")
        rows.append(FunnelRow(step.label, figures, top + 15, top + 22, f"{max(share, 0):.2f}%"))
    said = ", ".join(
        f"{step.count:,} {step.label.lower()}"
        + (f" ({shown_percent(step.from_leads)})" if number else "")
        for number, step in enumerate(steps)
    )
    return FunnelChart(
        rows=rows,
        height=len(steps) * FUNNEL_ROW - (FUNNEL_ROW - 22 - FUNNEL_BAR),
        bar_height=FUNNEL_BAR,
        description=f"Funnel, {period_label}: {said}.",
    )


def nice_ceiling(value: int) -> int:
    """The smallest even round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at
    least `value`: the chart's top gridline, whose half is a whole number for the middle one."""
    power = 1
    while True:
        for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8):
            ceiling = power * step
            if ceiling >= value and ceiling == int(ceiling) and ceiling % 2 == 0:
                return int(ceiling)
        power *= 10


@dataclass(frozen=True)
class TrendBar:
    """One day's bars: x and width in %, the leads' and the bought part's top and height in px."""

    x: str
    width: str
    leads_y: float
    leads_height: float
    bought_y: float
    bought_height: float


@dataclass(frozen=True)
class TrendChart:
    """Leads per day with the bought part of each day's leads inside its bar."""

    bars: list[TrendBar]
    gridlines: list[tuple[float, str]]  # (y px, value)
    labels: list[tuple[str, tuple[str, ...]]]  # (x % of the label's centre, its lines)
    height: int
    baseline: int
    label_y: int
    description: str


def day_label(day: Day, count: int) -> tuple[str, ...]:
    """('Mon', '6') on two lines in a week's chart, so seven fit a phone; ('6 Jan',) in a
    month's."""
    if count <= 7:
        return (f"{day.day:%a}", str(day.day.day))
    return (f"{day.day.day} {day.day:%b}",)


def trend_chart(days: list[Day], period_label: str) -> TrendChart:
    """A bar per day, scaled to a round ceiling, a day label every day (week) or week (month)."""
    ceiling = nice_ceiling(max((day.leads for day in days), default=0))
    span = TREND_BOTTOM - TREND_TOP
    slot = 100 / max(len(days), 1)

    def y(value: int) -> float:
        """The height of `value` as a y coordinate, in px from the top."""
        return round(TREND_BOTTOM - span * value / ceiling, 1)

    bars = [
        TrendBar(
            x=f"{slot * number + slot * 0.15:.3f}%",
            width=f"{slot * 0.7:.3f}%",
            leads_y=y(day.leads),
            leads_height=round(TREND_BOTTOM - y(day.leads), 1),
            bought_y=y(day.bought),
            bought_height=round(TREND_BOTTOM - y(day.bought), 1),
        )
        for number, day in enumerate(days)
    ]
    every = 1 if len(days) <= 7 else 7
    labels = [
        (f"{slot * number + slot / 2:.3f}%", day_label(day, len(days)))
        for number, day in enumerate(days)
        if number % every == 0
    ]
    return TrendChart(
        bars=bars,
        gridlines=[(y(value), f"{value:,}") for value in (0, ceiling // 2, ceiling)],
        labels=labels,
        height=TREND_HEIGHT,
        baseline=TREND_BOTTOM,
        label_y=TREND_BOTTOM + 18,
        description=trend_description(days, period_label),
    )


def trend_description(days: list[Day], period_label: str) -> str:
    """The trend in one sentence: totals, and the busiest day."""
    leads = sum(day.leads for day in days)
    bought = sum(day.bought for day in days)
    text = f"Leads and bought per day, {period_label}: {leads:,} leads, {bought:,} bought"
    if leads:
        busiest = max(days, key=lambda day: day.leads)
        when = f"{busiest.day:%A} {busiest.day.day} {busiest.day:%B}"
        text += f"; most leads on {when} ({busiest.leads:,})"
    return text + "."
