"""The guide in memory, for the seller's instant range: one set of Catalogs (matching.py) per
process and database, rebuilt when the guide's version changes (every change to `price_guide`
bumps it, in the same transaction), so each lookup costs one indexed read and a few dictionary
reads, and a change staff save is seen by every process at its next lookup."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

from flask import current_app

from app.leads.display import usd
from app.prices import grades, guide
from app.prices.matching import Catalog, Match, catalogs
from app.rendering.dates import display_date

AFTER_AUTHENTICATION = "Your offer is confirmed after we authenticate the watch."

_built: dict[tuple[str, bool], tuple[int, dict[str, Catalog]]] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class InstantRange:
    """What the guide says a seller's watch typically fetches, and what that rests on."""

    entry: dict
    low: int
    high: int
    described: str  # 'in very good condition with box and papers'

    @property
    def line(self) -> str:
        """'Typically $9,500–$10,500 for the Rolex 126610LN in very good condition with box
        and papers.'"""
        watch = f"{self.entry['brand']} {self.entry['reference']}"
        return f"Typically {usd(self.low)}–{usd(self.high)} for the {watch} {self.described}."

    @property
    def basis(self) -> str:
        """What the range rests on, and what it is not."""
        return (
            f"From our buy-price guide, set {display_date(self.entry['set_on'])}. "
            f"{AFTER_AUTHENTICATION}"
        )

    def as_json(self) -> dict:
        """The island's view of it."""
        return {"low": self.low, "high": self.high, "line": self.line, "basis": self.basis}

    def as_record(self) -> str:
        """What the lead keeps of it (leads.instant_range): as shown, and where it came from."""
        facts = {"entry": self.entry["id"], "reference": self.entry["reference"]}
        return json.dumps(self.as_json() | facts | {"set_on": self.entry["set_on"]})


def as_shown(lead: dict) -> dict | None:
    """The range the seller was shown with the form, as the lead keeps it, if any."""
    return json.loads(lead["instant_range"]) if lead.get("instant_range") else None


def current_catalogs() -> dict[str, Catalog]:
    """This process's Catalogs for this app's guide, rebuilt if the guide changed."""
    slot = (current_app.config["LEADS_DB"], guide.shown_samples())
    version = guide.version()
    built = _built.get(slot)
    if built is None or built[0] != version:
        with _lock:
            built = (version, catalogs(guide.entries()))
            _built[slot] = built
    return built[1]


def matched(brand: str, model: str) -> Match:
    """The guide entry the seller's brand and model name, stale or not (staff see either)."""
    catalog = current_catalogs().get(brand)
    return catalog.match(model) if catalog else Match(None, "none")


def instant_range(
    brand: str, model: str, condition: str, has_box: bool, has_papers: bool
) -> InstantRange | None:
    """The range a seller is shown: only from one fresh entry that sets one for this grade;
    otherwise None, and the seller gets the 24-hour promise instead of a number."""
    entry = matched(brand, model).entry
    if entry is None or guide.is_stale(entry):
        return None
    span = grades.adjusted(entry, condition, has_box, has_papers)
    if span is None:
        return None
    return InstantRange(entry, *span, grades.described(condition, has_box, has_papers))
