"""The staff dashboard and the inbox at 100,000 leads: server time per page, and the
leads export's peak memory.

Makes a scratch leads.db (migrated by the app, so with every index and trigger a real one has)
and fills it in one transaction with generated leads spread over --days days up to now, each
with its timeline as staff would have made it (submitted, then state changes, notes, seller
questions), so the timeline's triggers fill `lead_progress` as they do in use. Then, through
the app's test client signed in as a staff member (testing settings: the same views, queries
and templates as production, without the network), each page is requested --runs times after
a warm-up, and p50/p95 of the time from request to the whole answer are printed against
the target (docs/performance.md), p95 <= 100 ms. Last, the whole leads export is streamed and
thrown away while tracemalloc records its peak.

    .venv/bin/python bench/insights.py [--leads 100000] [--days 365] [--runs 40] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the app, and the staff driver that lives with the tests

from app import create_app  # noqa: E402
from app.content.loader import seed  # noqa: E402
from app.staff import totp  # noqa: E402
from tests.helpers import Clock, Staff  # noqa: E402

TARGET_P95_MS = 100
BRANDS = {
    "Rolex": ("Submariner", "Daytona", "GMT-Master II", "Datejust 41", "Day-Date 40"),
    "Omega": ("Speedmaster Professional", "Seamaster 300M", "Constellation"),
    "Patek Philippe": ("Nautilus 5711", "Aquanaut", "Calatrava"),
    "Audemars Piguet": ("Royal Oak 15500", "Royal Oak Offshore"),
    "Cartier": ("Santos", "Tank Must", "Ballon Bleu"),
    "Breitling": ("Navitimer", "Superocean"),
    "TAG Heuer": ("Carrera", "Monaco"),
    "Other": ("",),
}
BRAND_WEIGHTS = (40, 15, 8, 7, 10, 7, 8, 5)
FIRST = ("James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
         "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas",
         "Sarah", "Carlos", "Maria", "Wei", "Aisha", "Dmitri", "Priya", "Kenji")  # fmt: skip
LAST = ("Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis",
        "Rodriguez", "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor",
        "Moore", "Jackson", "Martin", "Lee", "Nguyen", "Chen", "Patel", "Kim", "Cohen")  # fmt: skip
CAMPAIGNS = (  # (source, medium, campaign, weight); None: no UTM tags at all
    ("google", "cpc", "rolex-search", 18),
    ("google", "cpc", "brand-generic", 10),
    ("google", "cpc", "city-nyc", 6),
    ("facebook", "paid_social", "sell-your-watch", 12),
    ("instagram", "paid_social", "reels-luxury", 6),
    ("bing", "cpc", "rolex-search", 3),
    ("newsletter", "email", "spring-2025", 3),
    (None, None, None, 42),
)
CITIES = ("new-york", "los-angeles", "chicago", "houston", "phoenix", "philadelphia",
          "san-antonio", "san-diego", "dallas", "miami", "boston", "seattle",
          "san-francisco")  # fmt: skip
BRAND_PAGES = ("rolex", "patek-philippe", "audemars-piguet", "cartier", "richard-mille")
LANDINGS = (
    ("/", 30),
    *((f"/sell-watch-{city}", 2) for city in CITIES),
    *((f"/sell-{brand}-watch", 3) for brand in BRAND_PAGES),
    ("/blog/luxury-watch-market-usa", 5),
    ("/blog/complete-guide-selling-rolex-usa", 4),
    ("/watch-authentication", 3),
    ("/sell", 5),
    (None, 9),
)
# How far a lead gets, as (furthest state, weight); then a share of the unfinished are closed.
OUTCOMES = (
    ("new", 12),
    ("contacted", 20),
    ("quoted", 25),
    ("accepted", 10),
    ("appointment", 8),
    ("offered", 7),
    ("bought", 18),
)
PATH = ("contacted", "quoted", "accepted", "appointment", "offered", "bought")
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # app/leads/reference.py's


def reference(number: int) -> str:
    """A unique reference in the site's shape for lead `number`."""
    text = ""
    for _ in range(6):
        number, digit = divmod(number, len(ALPHABET))
        text = ALPHABET[digit] + text
    return f"USWB-{text}"


def stamp(moment: datetime) -> str:
    """A time as leads.db stores it."""
    return moment.isoformat(timespec="seconds")


def state_data(state: str, moment: datetime, rng: random.Random) -> dict:
    """What a move to `state` carries (app/sale/lifecycle.py REQUIRED)."""
    price = rng.randrange(3_000, 60_000, 250)
    return {
        "quoted": {"amount_low": price, "amount_high": price + 1000, "valid_until": "2030-01-01"},
        "appointment": {
            "date": moment.date().isoformat(),
            "time": "11:00",
            "mode": "office",
            "place": "Office",
        },  # fmt: skip
        "offered": {"amount": price},
        "bought": {"amount": price, "paid_on": (moment.date() + timedelta(days=1)).isoformat()},
        "closed": {"reason": "no_response"},
    }.get(state, {})


def lead_history(lead_id: int, created: datetime, now: datetime, rng: random.Random):
    """The lead's events (lead_id, at, actor, kind, data) and its final state."""
    events = [(lead_id, stamp(created), "seller", "submitted", json.dumps({"photos": 2}))]
    furthest = rng.choices([s for s, _ in OUTCOMES], [w for _, w in OUTCOMES])[0]
    moment, state = created, "new"
    steps = [] if furthest == "new" else PATH[: PATH.index(furthest) + 1]
    if rng.random() < 0.6:  # most first replies within the promised day
        moment += timedelta(hours=rng.uniform(0.2, 20))
    else:
        moment += timedelta(hours=rng.uniform(20, 72))
    for step in steps:
        if moment > now:
            break
        if rng.random() < 0.15:
            events.append((lead_id, stamp(moment), "staff:1", "note", '{"note": "Called."}'))
        data = {"from": state, "to": step} | state_data(step, moment, rng)
        events.append((lead_id, stamp(moment), "staff:1", "state_changed", json.dumps(data)))
        state = step
        moment += timedelta(hours=rng.uniform(2, 96))
    if state not in ("bought",) and moment < now and rng.random() < 0.5:
        data = json.dumps({"from": state, "to": "closed", "reason": "no_response"})
        events.append((lead_id, stamp(moment), "staff:1", "state_changed", data))
        state = "closed"
    elif rng.random() < 0.05 and moment < now:
        events.append((lead_id, stamp(moment), "seller", "question", '{"message": "When?"}'))
    return events, state, max(created, min(moment, now))


def lead_row(number: int, created: datetime, rng: random.Random) -> dict:
    """A lead as the sell form stores one (its work long done, as a real backlog's is)."""
    brand = rng.choices(list(BRANDS), BRAND_WEIGHTS)[0]
    first, last = rng.choice(FIRST), rng.choice(LAST)
    source, medium, campaign, _ = rng.choices(CAMPAIGNS, [c[3] for c in CAMPAIGNS])[0]
    landing = rng.choices([page for page, _ in LANDINGS], [w for _, w in LANDINGS])[0]
    done = stamp(created)
    return {
        "full_name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower()}{number}@example.com",
        "phone": f"({rng.randint(201, 989)}) {rng.randint(200, 999)}-{rng.randint(0, 9999):04d}",
        "watch_brand": brand,
        "watch_model": rng.choice(BRANDS[brand]) or None,
        "watch_year": rng.randint(1990, 2024),
        "watch_condition": "Excellent - Like new",
        "has_box": rng.random() < 0.6,
        "has_papers": rng.random() < 0.5,
        "additional_details": "Full set, serviced recently." if rng.random() < 0.3 else "",
        "source": "USA Website",
        "utm_source": source,
        "utm_medium": medium,
        "utm_campaign": campaign,
        "meta_event_id": f"bench-{number}",
        "client_ip": "203.0.113.9",
        "user_agent": "bench",
        "created_at": done,
        "reference": reference(number),
        "landing_page": landing,
        "referrer_host": "www.google.com" if source == "google" else None,
        "photos_processed_at": done,
        "staff_notified_at": done,
        "conversions_sent_at": done,
        "seller_confirmed_at": done,
    }


def fill(path: str, count: int, days: int, seed_value: int = 22) -> None:
    """`count` leads over the last `days` days, with their timelines, in one transaction."""
    rng = random.Random(seed_value)
    now = datetime.now(UTC).replace(microsecond=0)
    first = now - timedelta(days=days)
    span = (now - first).total_seconds()
    moments = sorted(first + timedelta(seconds=rng.uniform(0, span)) for _ in range(count))
    leads, events = [], []
    for number, created in enumerate(moments, start=1):
        row = lead_row(number, created, rng)
        history, state, last_activity = lead_history(number, created, now, rng)
        leads.append(row | {"state": state, "last_activity_at": stamp(last_activity)})
        events += history
    db = sqlite3.connect(path)
    with db:
        columns = list(leads[0])
        db.executemany(
            f"INSERT INTO leads (id, {', '.join(columns)}) "
            f"VALUES ({', '.join('?' * (len(columns) + 1))})",
            [(number, *(row[c] for c in columns)) for number, row in enumerate(leads, start=1)],
        )
        db.executemany(
            "INSERT INTO lead_events (lead_id, at, actor, kind, data) VALUES (?, ?, ?, ?, ?)",
            events,
        )
    db.close()  # no ANALYZE: the site never runs it, so its query plans are made without one


def signed_in_client(app):
    """A test client signed in (password and code) as an enrolled staff member."""
    clock = Clock()
    totp.now = clock  # the staff driver moves its own TOTP clock, as the tests do
    staff = Staff(app, app.test_cli_runner(), clock)
    client = app.test_client()
    staff.sign_in(client, staff.account("bench@example.com", "Bench Mark"))
    return client


def time_page(client, path: str, runs: int) -> tuple[float, float]:
    """p50 and p95 in ms of `runs` requests for `path` (after two unmeasured ones)."""
    timings = []
    for number in range(runs + 2):
        started = time.perf_counter()
        response = client.get(path)
        response.get_data()
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, (path, response.status_code)
        if number >= 2:
            timings.append(elapsed)
    timings.sort()
    return statistics.median(timings), timings[max(0, round(0.95 * len(timings)) - 1)]


def pages(app) -> list[tuple[str, str]]:
    """(name, path) of every page measured: the dashboard's views, then the inbox's."""
    today = datetime.now(UTC).date()
    month_ago = (today - timedelta(days=31)).isoformat()
    with app.app_context():
        db = sqlite3.connect(app.config["LEADS_DB"])
        name = db.execute("SELECT full_name FROM leads ORDER BY id DESC LIMIT 1").fetchone()[0]
        ref = db.execute("SELECT reference FROM leads WHERE id = 777").fetchone()[0]
        db.close()
    dashboard = [
        (f"insights: this week, by {by}", f"/staff/insights?period=week&by={by}")
        for by in ("campaign", "source", "medium", "brand", "landing", "city")
    ]
    month = f"/staff/insights?period=month&on={month_ago}"
    dashboard += [
        ("insights: last month, by campaign", month),
        ("insights: last month, by landing page", f"{month}&by=landing"),
        ("insights: last month, google only, by city", f"{month}&by=city&source=google"),
        (
            "insights: CSV of a month's breakdown",
            month.replace("insights?", "insights/breakdown.csv?"),
        ),
    ]
    inbox = [
        ("inbox: list (all, page 1)", "/staff/leads"),
        ("inbox: list, page 2", "/staff/leads?page=2"),
        ("inbox: list, page 2000", "/staff/leads?page=2000"),
        ("inbox: tab bought", "/staff/leads?state=bought"),
        ("inbox: tab new, page 40", "/staff/leads?state=new&page=40"),
        ("inbox: search a name", f"/staff/leads?q={name.split()[1]}"),
        ("inbox: search a rare text", "/staff/leads?q=nobody-matches-this"),
        ("inbox: search phone digits", "/staff/leads?q=555-01"),
        ("inbox: search a reference", f"/staff/leads?q={ref}"),
        ("inbox: brand filter", "/staff/leads?brand=Omega"),
        ("inbox: source filter", "/staff/leads?source=facebook"),
        ("inbox: no campaign filter", "/staff/leads?source=(none)"),
        ("inbox: date range", f"/staff/leads?from={month_ago}&to={today.isoformat()}"),
        ("inbox: brand + source + tab", "/staff/leads?brand=Rolex&source=google&state=quoted"),
    ]
    return dashboard + inbox


def export_peak(client) -> tuple[int, float, float]:
    """Rows, seconds and tracemalloc's peak MB of streaming the whole leads export."""
    tracemalloc.start()
    started = time.perf_counter()
    response = client.get("/staff/export", buffered=False)
    assert response.status_code == 200, response.status_code
    lines = 0
    for chunk in response.response:
        lines += chunk.count(b"\n") if isinstance(chunk, bytes) else chunk.count("\n")
    response.close()
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] / 1024 / 1024
    tracemalloc.stop()
    return lines - 1, elapsed, peak


def main() -> None:
    """Generate, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leads", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--keep", help="make the scratch files here and keep them")
    options = parser.parse_args()
    scratch = Path(options.keep or tempfile.mkdtemp(prefix="bench-insights-"))
    scratch.mkdir(parents=True, exist_ok=True)
    settings = {
        "ENV_NAME": "testing",
        "CONTENT_DB": str(scratch / "content.db"),
        "LEADS_DB": str(scratch / "leads.db"),
        "STAFF_REAUTH_MINUTES": "600",  # the export, after every page is measured
    }
    app = create_app(settings)  # migrates the empty leads.db
    with app.app_context():
        seed(app)
    started = time.perf_counter()
    fill(settings["LEADS_DB"], options.leads, options.days)
    db = sqlite3.connect(settings["LEADS_DB"])
    events = db.execute("SELECT count(*) FROM lead_events").fetchone()[0]
    db.close()
    print(
        f"{options.leads:,} leads and {events:,} events over {options.days} days "
        f"made in {time.perf_counter() - started:.1f} s ({scratch / 'leads.db'})\n"
    )
    client = signed_in_client(app)
    print(f"{'page':<48} {'p50 ms':>8} {'p95 ms':>8}  target p95 <= {TARGET_P95_MS} ms")
    missed = 0
    for name, path in pages(app):
        p50, p95 = time_page(client, path, options.runs)
        verdict = "PASS" if p95 <= TARGET_P95_MS else "MISS"
        missed += verdict == "MISS"
        print(f"{name:<48} {p50:>8.1f} {p95:>8.1f}  {verdict}")
    rows, seconds, peak = export_peak(client)
    print(f"\nexport: {rows:,} leads streamed in {seconds:.1f} s, peak Python memory {peak:.1f} MB")
    print(f"{missed} page(s) over the target" if missed else "every page within the target")


if __name__ == "__main__":
    main()
