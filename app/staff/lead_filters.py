"""The inbox's query string (tab, search, filters, page) read once, safely, into store filters.

Anything malformed is dropped with a message for the page, never a 500: a bad date is ignored,
an unknown state shows every lead, a page past the end shows the last one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from werkzeug.datastructures import MultiDict

from app.leads.display import business_today
from app.leads.reference import normalise
from app.leads.state import State
from app.sale import lifecycle

PER_PAGE = 25
NO_CAMPAIGN = "(none)"
SEARCH_LENGTH = 100
# Tabs of bought leads by their resale hold (PURCHASE_HOLD_DAYS), shown after Bought.
HOLD_TABS = {"on_hold": "On hold", "hold_ended": "Hold ended"}


def iso_date(text: str, label: str, problems: list[str]) -> str:
    """`text` as an ISO date; empty if blank or malformed (then with a note in `problems`)."""
    if not text:
        return ""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        problems.append(f"{label} “{text[:20]}” is not a date (YYYY-MM-DD); it was ignored.")
        return ""


@dataclass(frozen=True)
class LeadQuery:
    """The inbox's tab, search, filters and page, as read from the query string."""

    state: str = ""
    q: str = ""
    brand: str = ""
    source: str = ""
    date_from: str = ""
    date_to: str = ""
    page: int = 1
    problems: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_args(cls, args: MultiDict) -> LeadQuery:
        """Read the query string; bad values are dropped, bad dates with a note in `problems`."""
        problems: list[str] = []
        state = args.get("state", "")
        page = args.get("page", "1")
        return cls(
            state=state if state in tuple(State) or state in HOLD_TABS else "",
            q=" ".join(args.get("q", "").split())[:SEARCH_LENGTH],
            brand=args.get("brand", "")[:100],
            source=args.get("source", "")[:200],
            date_from=iso_date(args.get("from", ""), "From", problems),
            date_to=iso_date(args.get("to", ""), "To", problems),
            page=int(page) if page.isdigit() and 0 < int(page) < 100_000 else 1,
            problems=tuple(problems),
        )

    def filters(self, with_state: bool = True) -> dict:
        """The store's filter dict (search.filter_clause) for this query; a hold tab is bought
        leads whose hold ends after (or by) today in the business's time zone."""
        digits = re.sub(r"\D", "", self.q)
        source = {"": None, NO_CAMPAIGN: ""}.get(self.source, self.source)
        hold = self.state if self.state in HOLD_TABS and with_state else ""
        return {
            "state": (State.BOUGHT if hold else self.state) if with_state else "",
            "hold": hold,
            "today": business_today().isoformat(),
            "text": self.q,
            "digits": digits if len(digits) >= 3 and not re.search(r"[A-Za-z]", self.q) else "",
            "reference": normalise(self.q) if self.q else "",
            "brand": self.brand,
            "source": source,
            "created_from": self.date_from,
            "created_to": self.date_to,
        }

    def args(self, **changes) -> dict:
        """Query-string arguments for a link to this query with `changes` (empty ones left out)."""
        query = replace(self, **changes)
        values = {
            "state": query.state,
            "q": query.q,
            "brand": query.brand,
            "source": query.source,
            "from": query.date_from,
            "to": query.date_to,
            "page": query.page if query.page > 1 else "",
        }
        return {key: value for key, value in values.items() if value}

    @property
    def filtered(self) -> bool:
        """Whether any search or filter is set (the tab and page aside)."""
        return bool(self.q or self.brand or self.source or self.date_from or self.date_to)


def tabs(counts: dict[str, int], holds: dict[str, int]) -> list[tuple[str, str, int]]:
    """(tab, label, count) per tab: All, then every state in lifecycle order, with the hold
    tabs after Bought."""
    states = [(s, label, counts.get(s, 0)) for s, label in lifecycle.STATE_LABELS.items()]
    after = [s for s, _, _ in states].index(State.BOUGHT) + 1
    held = [(tab, label, holds.get(tab, 0)) for tab, label in HOLD_TABS.items()]
    return [("", "All", sum(counts.values())), *states[:after], *held, *states[after:]]
