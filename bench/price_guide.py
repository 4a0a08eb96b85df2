"""The staff buy-price guide at 10,000 entries: page size and server time of /staff/prices.

Makes a scratch leads.db (migrated by the app, so with the list's indexes) with --entries
generated guide entries (bench/instant_range.py's), their ranges set over the last 200 days (so
a little over half are stale at 90), a market price kept for most references (about one in six
drifted), then asks /staff/prices through the app's test client signed in as staff (testing
settings: the same views, queries and templates as production, without the network), plain and
with each search, filter and sort, --runs times after two warm-up requests. Prints each page's
HTML size and p50/p95 of the time from request to the whole answer against the targets
(docs/prices.md): at most 200 KB and p95 <= 100 ms.

    .venv/bin/python bench/price_guide.py [--entries 10000] [--runs 40]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.content.loader import seed  # noqa: E402
from app.leads.db import immediate_transaction  # noqa: E402
from app.leads.display import business_today  # noqa: E402
from app.prices import guide  # noqa: E402
from bench.insights import signed_in_client, time_page  # noqa: E402
from bench.instant_range import fill  # noqa: E402

TARGET_P95_MS = 100
TARGET_KB = 200
DAYS = 200  # ranges set over this many days up to today


def age_and_price(app, rng: random.Random) -> None:
    """Date each entry's range back up to DAYS days, and keep a market price for four
    references in five: most near our mid-range, one in six far from it."""
    with app.app_context(), immediate_transaction() as db:
        today = business_today()
        rows = db.execute("SELECT id, brand, reference_key, low, high FROM price_guide").fetchall()
        db.executemany(
            "UPDATE price_guide SET set_on = ? WHERE id = ?",
            [((today - timedelta(days=rng.randrange(DAYS))).isoformat(), row["id"])
             for row in rows],
        )  # fmt: skip
        prices = []
        for row in rows:
            if rng.random() < 0.8:
                spread = rng.uniform(0.5, 1.6) if rng.random() < 0.17 else rng.uniform(0.9, 1.15)
                price = round((row["low"] + row["high"]) / 2 * spread)
                prices.append((row["brand"], row["reference_key"], price, "2026-01-01T00:00:00"))
        db.executemany(
            "INSERT INTO market_prices (brand, reference_key, price, fetched_at) "
            "VALUES (?, ?, ?, ?)",
            prices,
        )


def pages(app) -> list[tuple[str, str]]:
    """(name, path) of every list measured."""
    with app.app_context():
        some = guide.entries()[1234]
    name = some["names"].split("; ")[0].split()[0]
    return [
        ("list, page 1", "/staff/prices"),
        ("list, page 100", "/staff/prices?page=100"),
        ("list, last page", "/staff/prices?page=200"),
        ("search a brand", "/staff/prices?q=omega"),
        (
            "search a reference typed spaced",
            f"/staff/prices?q={some['reference'][:3]}+{some['reference'][3:]}",
        ),  # fmt: skip
        ("search a name, page 5", f"/staff/prices?q={name}&page=5"),
        ("search with no match", "/staff/prices?q=nothing+matches"),
        ("stale", "/staff/prices?show=stale"),
        ("stale, oldest first, page 20", "/staff/prices?show=stale&sort=oldest&page=20"),
        ("drifted", "/staff/prices?show=drifted"),
        ("drifted, highest first", "/staff/prices?show=drifted&sort=highest"),
        ("samples", "/staff/prices?show=sample"),
        ("sort by reference, page 50", "/staff/prices?sort=reference&page=50"),
        ("sort newest first", "/staff/prices?sort=newest"),
        ("sort lowest first, page 150", "/staff/prices?sort=lowest&page=150"),
        ("search a name, drifted, lowest", f"/staff/prices?q={name}&show=drifted&sort=lowest"),
    ]


def main() -> None:
    """Generate, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=40)
    options = parser.parse_args()
    rng = random.Random(36)
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app({"ENV_NAME": "testing", "LEADS_DB": str(Path(scratch) / "leads.db"),
                          "CONTENT_DB": str(Path(scratch) / "content.db")})  # fmt: skip
        with app.app_context():
            seed(app)  # the layout's site-wide words
        fill(app, options.entries, rng)
        age_and_price(app, rng)
        client = signed_in_client(app)
        print(f"{options.entries:,} guide entries, {options.runs} requests a page\n")
        print(f"{'page':<40} {'KB':>7} {'p50 ms':>8} {'p95 ms':>8}  "
              f"targets <= {TARGET_KB} KB, p95 <= {TARGET_P95_MS} ms")  # fmt: skip
        missed = 0
        for name, path in pages(app):
            size = len(client.get(path).get_data()) / 1024
            p50, p95 = time_page(client, path, options.runs)
            verdict = "PASS" if p95 <= TARGET_P95_MS and size <= TARGET_KB else "MISS"
            missed += verdict == "MISS"
            print(f"{name:<40} {size:>7.1f} {p50:>8.1f} {p95:>8.1f}  {verdict}")
        print(f"{missed} page(s) over a target" if missed else "every page within the targets")


if __name__ == "__main__":
    main()
