"""The buy-price guide list's query string (search, filter, sort, page) read once, safely, into
the filters of app/prices/listing.py, as the inbox's is (app/staff/lead_filters.py).

Anything malformed is ignored, never a 500: an unknown filter shows every entry, an unknown sort
the default order, a page that is not a number the first, a page past the end the last.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from werkzeug.datastructures import MultiDict

from app.leads.display import business_today
from app.prices.listing import SORTS
from app.staff.lead_filters import page_number, search_text

PER_PAGE = 50
# What the filter keeps (the first: every entry), and how the list says it.
SHOWS = {"": "Every entry", "stale": "Stale", "drifted": "Drifted from the market",
         "sample": "Samples"}  # fmt: skip
SORT_LABELS = {
    "brand": "Brand and reference",
    "reference": "Reference",
    "oldest": "Oldest range first",
    "newest": "Newest range first",
    "lowest": "Lowest range first",
    "highest": "Highest range first",
}
DEFAULT_SORT = "brand"


@dataclass(frozen=True)
class PriceQuery:
    """The guide list's search, filter, sort and page, as read from the query string."""

    q: str = ""
    show: str = ""
    sort: str = DEFAULT_SORT
    page: int = 1

    @classmethod
    def from_args(cls, args: MultiDict) -> PriceQuery:
        """Read the query string; values it does not know are dropped."""
        show, sort = args.get("show", ""), args.get("sort", "")
        return cls(
            q=search_text(args),
            show=show if show in SHOWS else "",
            sort=sort if sort in SORTS else DEFAULT_SORT,
            page=page_number(args.get("page", "1")),
        )

    def filters(self) -> dict:
        """The filter dict of app/prices/listing.py for this query."""
        shown = {self.show: True} if self.show else {}
        return shown | {"text": self.q, "today": business_today()}

    def args(self, **changes) -> dict:
        """Query-string arguments for a link to this query with `changes` (defaults left out)."""
        query = replace(self, **changes)
        values = {
            "q": query.q,
            "show": query.show,
            "sort": query.sort if query.sort != DEFAULT_SORT else "",
            "page": query.page if query.page > 1 else "",
        }
        return {key: value for key, value in values.items() if value}

    @property
    def filtered(self) -> bool:
        """Whether a search or a filter is set (the sort and page aside)."""
        return bool(self.q or self.show)
