"""The seller's instant range at 5,000 guide entries: server time of the island's question.

Makes a scratch leads.db (migrated by the app) with --entries generated guide entries over the
form's brands (references of 5 to 10 characters, each with two names), then asks
`/sell/range` through the app's test client (testing settings: the same view, form, index and
matching as production, without the network) with what sellers type: a reference spaced and
cased any way among other words, a model name, a digit run that only begins references, and
text that matches nothing. After a warm-up (the first question builds the process's index),
p50/p95/p99 of the time from request to the whole answer are printed against the target,
p95 <= 10 ms; then the time to rebuild the index after one entry changes.

    .venv/bin/python bench/instant_range.py [--entries 5000] [--runs 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.catalog import BRANDS, CONDITIONS, OTHER_BRAND  # noqa: E402
from app.leads.db import immediate_transaction  # noqa: E402
from app.prices import guide, index  # noqa: E402

TARGET_P95_MS = 10
WORDS = ["Submariner", "Date", "Master", "Chrono", "Royal", "Oak", "Nautilus", "Tank", "Santos",
         "Pilot", "Diver", "Moon", "Blue", "Black", "Steel", "Gold", "Skeleton", "GMT"]  # fmt: skip


def reference(rng: random.Random) -> str:
    """A reference like the ones on papers: digits, then letters."""
    digits = "".join(rng.choices("0123456789", k=rng.randint(4, 7)))
    return digits + "".join(rng.choices("ABCDEFGHJKLMNPRSTUVWXYZ", k=rng.randint(0, 3)))


def fill(app, count: int, rng: random.Random) -> list[dict]:
    """`count` entries over the form's brands, set today; the entries."""
    brands = [brand for brand in BRANDS if brand != OTHER_BRAND]
    made, seen = [], set()
    with app.app_context(), immediate_transaction() as db:
        while len(made) < count:
            brand, ref = rng.choice(brands), reference(rng)
            if (brand, ref) in seen:
                continue
            seen.add((brand, ref))
            names = "; ".join(" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(2))
            low = rng.randint(2, 60) * 500
            values = {"brand": brand, "reference": ref, "names": names, "low": low,
                      "high": low + rng.randint(1, 10) * 250, "excellent": 5, "good": -10,
                      "fair": -25, "needs_service": -40, "no_box": -5, "no_papers": -8}  # fmt: skip
            guide.write(db, values, "bench")
            made.append(values)
    return made


def typed(entry: dict, rng: random.Random) -> str:
    """What a seller might type for this entry, or something else entirely."""
    kind = rng.random()
    if kind < 0.5:
        spaced = "".join(c + rng.choice(["", "", " ", "-"]) for c in entry["reference"])
        return f"{rng.choice(WORDS)} {spaced.lower() if rng.random() < 0.5 else spaced}"
    if kind < 0.7:
        return entry["names"].split("; ")[0]
    if kind < 0.85:
        return entry["reference"][:4]
    return " ".join(rng.sample(WORDS, 3)) + " 2019"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(20261126)
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app({"ENV_NAME": "testing", "LEADS_DB": str(Path(scratch) / "leads.db")})
        entries = fill(app, args.entries, rng)
        client = app.test_client()
        questions = []
        for _ in range(args.runs):
            entry = rng.choice(entries)
            query = {"watchBrand": entry["brand"], "watchModel": typed(entry, rng),
                     "watchCondition": rng.choice(CONDITIONS), "hasBox": "y"}  # fmt: skip
            questions.append("/sell/range?" + urlencode(query))
        for path in questions[:50]:  # warm-up: the index is built by the first
            client.get(path)
        timings, answered = [], 0
        for path in questions:
            started = time.perf_counter()
            response = client.get(path)
            timings.append((time.perf_counter() - started) * 1000)
            answered += response.get_json()["range"] is not None
        cuts = statistics.quantiles(timings, n=100)
        print(f"{args.entries:,} entries, {args.runs:,} questions, {answered:,} answered a range")
        print(f"server time, ms: p50 {cuts[49]:.2f}  p95 {cuts[94]:.2f}  p99 {cuts[98]:.2f}")
        print(
            f"target p95 <= {TARGET_P95_MS} ms: {'PASS' if cuts[94] <= TARGET_P95_MS else 'MISS'}"
        )
        with app.app_context():
            first = guide.entries()[0]
            guide.save(first | {"high": first["high"] + 50}, "bench", first["id"])
            started = time.perf_counter()
            index.current_catalogs()
            rebuilt = (time.perf_counter() - started) * 1000
        print(f"index rebuilt after one change in {rebuilt:.0f} ms ({date.today().isoformat()})")


if __name__ == "__main__":
    main()
