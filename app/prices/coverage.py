"""Whether the guide covers what the site advertises, so the home page's button may promise
an instant valuation (the spec's "Get Instant Valuation"; docs/prices.md, "The promise").

"Covers" is a setting: each brand of INSTANT_VALUATION_BRANDS has at least
INSTANT_VALUATION_MIN_ENTRIES fresh entries that this app shows (samples count only where
samples are shown, so never in production). The answer is kept in a flag file beside leads.db,
written only when it changes: after every change to the guide and by the daily retention run
(entries go stale with time). Pages read the flag, never the guide, and the page cache counts
the flag among the files a page's key is made of, so a cached or frozen home page never keeps
a promise the guide no longer holds; a flip also removes the frozen home page, which the app
then serves until the next `flask freeze`.
"""

from __future__ import annotations

import os
from pathlib import Path

from flask import current_app

from app.prices import guide
from app.rendering.page_cache import instant_valuation_flag

FROZEN_HOME = ("index.html", "index.html.gz", "index.html.br")


def flag_path() -> Path:
    """The flag file: beside leads.db, where the page cache looks for it."""
    return Path(instant_valuation_flag(current_app))


def covered() -> bool:
    """Whether every advertised brand has enough fresh entries now."""
    config = current_app.config
    fresh: dict[str, int] = {}
    for entry in guide.entries():
        if not guide.is_stale(entry):
            fresh[entry["brand"]] = fresh.get(entry["brand"], 0) + 1
    wanted = config["INSTANT_VALUATION_MIN_ENTRIES"]
    brands = config["INSTANT_VALUATION_BRANDS"]
    return bool(brands) and all(fresh.get(brand, 0) >= wanted for brand in brands)


def is_on() -> bool:
    """What the pages promise: the flag as last written (off when there is none)."""
    try:
        return flag_path().read_text().strip() == "1"
    except FileNotFoundError:
        return False


def refresh() -> bool:
    """Write the flag if the guide's coverage changed; whether it did. A flip removes the frozen
    home page (nginx then asks the app, which draws the button as the flag says)."""
    now = covered()
    if now == is_on() and flag_path().exists():
        return False
    path = flag_path()
    partial = path.with_name(path.name + ".partial")
    partial.write_text("1" if now else "0")
    os.replace(partial, path)
    pages = Path(current_app.config["PAGES_DIR"])
    for name in FROZEN_HOME:
        (pages / name).unlink(missing_ok=True)
    current_app.logger.info("Instant valuation is now %s.", "promised" if now else "not promised")
    return True
