"""What staff see of a lead's worth (the lead page's valuation card): the guide's range for this
watch as described (marked stale when it is), what the seller was shown with the form, our own
past purchases of the same reference, and a suggested preliminary quote that pre-fills the
quote form. Staff see a stale or ambiguous match for what it is; only a fresh single entry makes
a suggestion, as only it is ever shown to a seller."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.leads.db import get_db
from app.prices import grades, guide, index, market
from app.rendering.dates import display_date

PAST_PURCHASES = 8  # the most recent, of the same brand and reference


@dataclass(frozen=True)
class Valuation:
    """The card's facts; every part may be missing."""

    entry: dict | None = None
    stale: bool = False
    span: tuple[int, int] | None = None
    described: str = ""
    candidates: tuple[dict, ...] = ()
    begun: tuple[str, ...] = ()
    typed: str = ""
    shown: dict | None = None
    purchases: list[dict] = field(default_factory=list)
    market: dict | None = None

    @property
    def set_on(self) -> str:
        """The day the entry's range was set, as staff read it."""
        return display_date(self.entry["set_on"]) if self.entry else ""

    @property
    def shown_set_on(self) -> str:
        """The day the range the seller was shown had been set."""
        return display_date(self.shown["set_on"]) if self.shown else ""

    @property
    def market_day(self) -> str:
        """The day the market price was fetched."""
        fetched = (self.market or {}).get("fetched_at")
        return display_date(fetched[:10]) if fetched else ""

    @property
    def candidates_said(self) -> str:
        """What the model text is to the guide when it could mean several entries, or only
        begins one reference: the card's words before the candidates' links."""
        count = len(self.candidates)
        if self.begun:
            references = "one reference" if count == 1 else f"{count} references"
            runs = " or ".join(f"“{run}”" for run in self.begun)
            return f"{runs} is the start of {references} in the guide"
        if count == 1:
            return f"“{self.typed}” is only part of the name of one entry in the guide"
        return f"“{self.typed}” could be any of {count} entries in the guide"

    @property
    def suggestion(self) -> tuple[int, int] | None:
        """The preliminary quote the guide suggests: its adjusted range, if fresh."""
        return self.span if self.entry and not self.stale else None


def past_purchases(brand: str, reference: str) -> list[dict]:
    """Our purchases of this brand whose authenticated reference is `reference` (any spacing):
    price, payment day and the condition the seller gave; the most recent first."""
    rows = get_db().execute(
        "SELECT leads.reference AS lead_reference, leads.id AS lead_id, leads.watch_condition, "
        "purchases.model_reference, purchases.paid_amount, purchases.paid_on FROM purchases "
        "JOIN leads ON leads.id = purchases.lead_id WHERE leads.watch_brand = ? "
        "AND purchases.paid_amount IS NOT NULL AND purchases.model_reference IS NOT NULL "
        "ORDER BY purchases.paid_on DESC",
        (brand,),
    )
    wanted = guide.key(reference)
    same = [dict(row) for row in rows if guide.key(row["model_reference"]) == wanted]
    return same[:PAST_PURCHASES]


def guide_facts(lead: dict) -> Valuation:
    """What the guide alone says of the lead's watch (no past purchases, no market): enough
    for the suggestion the quote form starts from."""
    found = index.matched(lead["watch_brand"], lead["watch_model"] or "")
    entry = found.entry
    if entry is None:
        return Valuation(
            candidates=found.candidates, begun=found.begun, typed=lead["watch_model"] or ""
        )
    condition = lead["watch_condition"]
    box, papers = bool(lead["has_box"]), bool(lead["has_papers"])
    return Valuation(
        entry=entry,
        stale=guide.is_stale(entry),
        span=grades.adjusted(entry, condition, box, papers),
        described=grades.described(condition, box, papers),
    )


def for_lead(lead: dict) -> Valuation:
    """The valuation card of a lead: the guide's facts, what the seller was shown, our past
    purchases of the reference and its market price."""
    facts = replace(guide_facts(lead), shown=index.as_shown(lead))
    if facts.entry is None:
        return facts
    entry = facts.entry
    return replace(
        facts,
        purchases=past_purchases(entry["brand"], entry["reference"]),
        market=market.beside(entry, market.kept_for(entry)),
    )
