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
from app.sale.purchase import deadline

PER_PAGE = 25
NO_CAMPAIGN = "(none)"
SEARCH_LENGTH = 100
# Tabs of bought leads by their resale hold (PURCHASE_HOLD_DAYS), shown after Bought; and of
# agreed leads whose record lacks nothing but the payment (app/sale/purchase/deadline.py),
# shown after Offer accepted.
HOLD_TABS = {"on_hold": "On hold", "hold_ended": "Hold ended"}
# The register filter's choices (search.REGISTER_FILTERS says which checks each shows).
REGISTER_CHOICES = {"flagged": "Flagged", "by_hand": "Failed or unknown: check by hand"}
PAYMENT_DUE = "payment_due"
EXTRA_TABS = HOLD_TABS | {PAYMENT_DUE: "Payment due"}
SUB_TABS = {State.AGREED: (PAYMENT_DUE,), State.BOUGHT: tuple(HOLD_TABS)}


def iso_date(text: str, label: str, problems: list[str]) -> str:
    """`text` as an ISO date; empty if blank or malformed (then with a note in `problems`)."""
    if not text:
        return ""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        problems.append(f"{label} “{text[:20]}” is not a date (YYYY-MM-DD); it was ignored.")
        return ""


def page_number(text: str) -> int:
    """A page number from the query string: 1 unless it is written in ASCII digits from 1 to
    99,999 (str.isdigit alone lets through "²", which int() refuses)."""
    return int(text) if text.isascii() and text.isdigit() and 0 < int(text) < 100_000 else 1


def search_text(args: MultiDict) -> str:
    """The search box's text (`q`), its runs of spaces made one, at most SEARCH_LENGTH long."""
    return " ".join(args.get("q", "").split())[:SEARCH_LENGTH]


@dataclass(frozen=True)
class LeadQuery:
    """The inbox's tab, search, filters and page, as read from the query string."""

    state: str = ""
    q: str = ""
    brand: str = ""
    source: str = ""
    date_from: str = ""
    date_to: str = ""
    register: str = ""
    page: int = 1
    problems: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_args(cls, args: MultiDict) -> LeadQuery:
        """Read the query string; bad values are dropped, bad dates with a note in `problems`."""
        problems: list[str] = []
        state = args.get("state", "")
        return cls(
            state=state if state in tuple(State) or state in EXTRA_TABS else "",
            q=search_text(args),
            brand=args.get("brand", "")[:100],
            source=args.get("source", "")[:200],
            date_from=iso_date(args.get("from", ""), "From", problems),
            date_to=iso_date(args.get("to", ""), "To", problems),
            register=args.get("register", "") if args.get("register") in REGISTER_CHOICES else "",
            page=page_number(args.get("page", "1")),
            problems=tuple(problems),
        )

    def filters(self, with_state: bool = True) -> dict:
        """The store's filter dict (search.filter_clause) for this query; a hold tab is bought
        leads whose hold ends after (or by) today in the business's time zone, the payment-due
        tab the agreed leads that lack nothing but the payment."""
        digits = re.sub(r"\D", "", self.q)
        source = {"": None, NO_CAMPAIGN: ""}.get(self.source, self.source)
        hold = self.state if self.state in HOLD_TABS and with_state else ""
        due = {"ids": deadline.due_lead_ids()} if self.state == PAYMENT_DUE and with_state else {}
        state = State.BOUGHT if hold else State.AGREED if due else self.state
        return due | {
            "state": state if with_state else "",
            "hold": hold,
            "today": business_today().isoformat(),
            "text": self.q,
            "digits": digits if len(digits) >= 3 and not re.search(r"[A-Za-z]", self.q) else "",
            "reference": normalise(self.q) if self.q else "",
            "brand": self.brand,
            "source": source,
            "created_from": self.date_from,
            "created_to": self.date_to,
            "register": self.register,
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
            "register": query.register,
            "page": query.page if query.page > 1 else "",
        }
        return {key: value for key, value in values.items() if value}

    @property
    def register_choices(self) -> dict[str, str]:
        """The register filter's choices, for the form."""
        return REGISTER_CHOICES

    @property
    def filtered(self) -> bool:
        """Whether any search or filter is set (the tab and page aside)."""
        return bool(
            self.q or self.brand or self.source or self.date_from or self.date_to or self.register
        )


def tabs(counts: dict[str, int], extra: dict[str, int]) -> list[tuple[str, str, int]]:
    """(tab, label, count) per tab: All, then every state in lifecycle order, each followed by
    its own narrower tabs (Payment due after Offer accepted, the hold tabs after Bought)."""
    shown = [("", "All", sum(counts.values()))]
    for state, label in lifecycle.STATE_LABELS.items():
        shown.append((state, label, counts.get(state, 0)))
        shown += [(tab, EXTRA_TABS[tab], extra.get(tab, 0)) for tab in SUB_TABS.get(state, ())]
    return shown
