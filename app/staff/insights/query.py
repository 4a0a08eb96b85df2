"""The dashboard's query string (period, breakdown, segment) read once, safely: anything
malformed falls back to this week, the campaign breakdown and every lead, never a 500."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from werkzeug.datastructures import MultiDict

from app.rendering.dates import display_date
from app.staff.insights import counts
from app.staff.lead_filters import NO_CAMPAIGN

PERIOD_KINDS = {"week": "Week", "month": "Month"}
BREAKDOWN_LABELS = {
    "campaign": "Campaign",
    "source": "Source",
    "medium": "Medium",
    "brand": "Brand",
    "landing": "Landing page",
    "city": "City",
}
SEGMENT_LABELS = {
    "source": "Source",
    "medium": "Medium",
    "campaign": "Campaign",
    "brand": "Brand",
    "landing": "Landing page",
    "city": "City page",
}
VALUE_LENGTH = 200


@dataclass(frozen=True)
class Period:
    """A week (Monday to Sunday) or a calendar month, in UTC days."""

    kind: str
    start: date

    @classmethod
    def containing(cls, kind: str, day: date) -> Period:
        """The week or month `day` falls in."""
        if kind == "month":
            return cls(kind, day.replace(day=1))
        return cls("week", day - timedelta(days=day.weekday()))

    @property
    def end(self) -> date:
        """The first day after the period."""
        if self.kind == "month":
            return (self.start + timedelta(days=32)).replace(day=1)
        return self.start + timedelta(days=7)

    def days(self) -> list[date]:
        """Every day of the period, in order."""
        return [self.start + timedelta(days=n) for n in range((self.end - self.start).days)]

    def previous(self) -> Period:
        """The week or month before."""
        return Period.containing(self.kind, self.start - timedelta(days=1))

    def following(self) -> Period:
        """The week or month after."""
        return Period.containing(self.kind, self.end)

    @property
    def label(self) -> str:
        """'January 2025', or 'Week of 6 January 2025'."""
        if self.kind == "month":
            return f"{self.start:%B %Y}"
        return f"Week of {display_date(self.start.isoformat())}"

    @property
    def phrase(self) -> str:
        """The period inside a sentence: 'January 2025', 'the week of 6 January 2025'."""
        return self.label if self.kind == "month" else "the w" + self.label[1:]

    @property
    def slug(self) -> str:
        """'2025-01' or '2025-W02': the period in a file name."""
        if self.kind == "month":
            return f"{self.start:%Y-%m}"
        year, week, _ = self.start.isocalendar()
        return f"{year}-W{week:02d}"


YEARS = range(2000, 2100)  # the periods a link can step to stay valid dates


def read_day(text: str, today: date) -> date:
    """An ISO date from the query string; today if blank, malformed or out of YEARS."""
    try:
        day = date.fromisoformat(text[:10])
    except ValueError:
        return today
    return day if day.year in YEARS else today


@dataclass(frozen=True)
class InsightsQuery:
    """The dashboard's period, breakdown and segment, as read from the query string."""

    period: Period
    by: str = "campaign"
    segment: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_args(cls, args: MultiDict, today: date) -> InsightsQuery:
        """Read the query string; unknown values fall back to the defaults."""
        kind = args.get("period", "week")
        by = args.get("by", "campaign")
        segment = tuple(
            (name, args[name][:VALUE_LENGTH]) for name in SEGMENT_LABELS if args.get(name)
        )
        return cls(
            period=Period.containing(
                kind if kind in PERIOD_KINDS else "week", read_day(args.get("on", ""), today)
            ),
            by=by if by in BREAKDOWN_LABELS else "campaign",
            segment=segment,
        )

    def window(self) -> counts.Window:
        """The leads this query reads (NO_CAMPAIGN in the query string stands for '')."""
        return counts.Window(
            start=self.period.start.isoformat(),
            end=self.period.end.isoformat(),
            segment={name: "" if value == NO_CAMPAIGN else value for name, value in self.segment},
        )

    def args(self, **changes) -> dict:
        """Query-string arguments for a link to this query with `changes`: `period` (a Period),
        `by`, or a segment name (a value, or '' to drop it)."""
        period = changes.pop("period", self.period)
        by = changes.pop("by", self.by)
        segment = dict(self.segment) | changes
        values = {"period": period.kind, "on": period.start.isoformat(), "by": by}
        return values | {name: value for name, value in segment.items() if value}

    def narrowed(self, group: dict) -> dict:
        """Query-string arguments for this view narrowed to one breakdown group ({name: value},
        '' for none), in the same breakdown."""
        values = {name: value if value else NO_CAMPAIGN for name, value in group.items()}
        return self.args(**values)

    @property
    def segment_labels(self) -> list[tuple[str, str, str]]:
        """(name, label, value) of each segment narrowing the view."""
        return [(name, SEGMENT_LABELS[name], value) for name, value in self.segment]
