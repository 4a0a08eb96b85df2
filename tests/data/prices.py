"""Guide entries the tests share: the Submariner Date as staff would set it, saved straight to
the guide (the staff pages that save it are tested on their own), and a guide that covers every
advertised brand, as the pages' promise of an instant range needs."""

from __future__ import annotations

from datetime import timedelta

from app.leads.db import immediate_transaction
from app.prices import coverage, guide
from tests.helpers import business_today

SUB = {
    "brand": "Rolex", "reference": "126610LN", "names": "Submariner Date; Black Sub",
    "low": 9500, "high": 10800, "excellent": 5, "good": -10, "fair": -25,
    "needs_service": None, "no_box": -5, "no_papers": -8,
}  # fmt: skip
SUB_LINE = (
    "Typically $9,500–$10,800 for the Rolex 126610LN in very good condition with box and papers."
)


def add_entry(app, **changes) -> int:
    """Save SUB (with `changes`) to the app's guide, over the entry of its reference if there
    is one (a live server's guide outlives a test); its id."""
    values = SUB | changes
    with app.app_context(), immediate_transaction() as db:
        existing = guide.existing_id(db, values["brand"], values["reference"])
        return guide.write(db, values, "staff:1", existing)


def set_days_ago(app, entry_id: int, days: int) -> int:
    """Date an entry's range `days` days back in the business's calendar; its id."""
    day = business_today() - timedelta(days=days)
    with app.app_context(), immediate_transaction() as db:
        db.execute("UPDATE price_guide SET set_on = ? WHERE id = ?", (day.isoformat(), entry_id))
    return entry_id


def cover(app, per_brand: int | None = None) -> None:
    """Fresh entries enough for every advertised brand."""
    count = per_brand or app.config["INSTANT_VALUATION_MIN_ENTRIES"]
    for brand in app.config["INSTANT_VALUATION_BRANDS"]:
        for number in range(count):
            add_entry(app, brand=brand, reference=f"REF{number}", names=f"Model {number}")


def refreshed(app) -> bool:
    """Whether the pages promise an instant range once the flag is worked out again."""
    with app.app_context():
        coverage.refresh()
        return coverage.is_on()
