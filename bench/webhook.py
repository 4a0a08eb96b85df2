"""The label provider's webhook under load: answered in under 50 ms p95 while the jobs do the
work (issue 37's target, docs/shipping.md).

Starts the site under gunicorn with production settings and the sale by mail on, Redis, and one
`flask rq worker` (the jobs' own process, as deployed), over a scratch leads.db holding --parcels
parcels with labels. Then POSTs --events signed tracking events (each parcel moved along, with a
share of repeats, a late stale status and unknown tracking codes) from --clients threads, and
prints p50/p95/p99 of the answer time seen by the client, then how long the worker took to apply
them all and what it did. Passes or fails nothing.

    .venv/bin/python bench/webhook.py [--events 2000] [--clients 4] [--parcels 200]
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    VENV_BIN,
    exit_on_sigterm,
    free_port,
    gunicorn_command,
    results_dir,
    server,
    site_env,
    started,
    work_dir,
)

SECRET = "whsec-bench-5e0a"
TARGET_P95_MS = 50
STATUSES = ("pre_transit", "in_transit", "out_for_delivery", "delivered")


def settings(folder: Path, redis_port: int) -> dict[str, str]:
    """The site's production settings with the sale by mail on, over the scratch instance."""
    return site_env() | {
        "LEADS_DB": str(folder / "leads.db"),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "RATELIMIT_SINGLE_PROCESS": "",
        "MAILIN_ENABLED": "1",
        "MAILIN_MAX_VALUE": "25000",
        "MAILIN_POLICY_REFERENCE": "HV-BENCH",
        "MAILIN_CARRIER_ACCOUNT": "ca_bench",
        "MAILIN_RECEIVING_ADDRESS": "USWB Receiving; 41 Orchard Street; ; New York; NY; 10002; 1",
        "EASYPOST_API_KEY": "EZAK-bench",
        "EASYPOST_WEBHOOK_SECRET": SECRET,
    }


def migrate(env: dict) -> None:
    subprocess.run([str(VENV_BIN / "flask"), "--app", "app", "leads", "migrate"], cwd=ROOT,
                   env=env, check=True, capture_output=True)  # fmt: skip


def add_parcels(path: Path, count: int) -> list[str]:
    """`count` leads with an inbound parcel each, its label bought; their tracking codes."""
    db = sqlite3.connect(path)
    codes = []
    with db:
        for number in range(1, count + 1):
            db.execute(
                "INSERT INTO leads (created_at, full_name, email, phone, watch_brand, "
                "watch_condition, has_box, has_papers, source, meta_event_id, reference, state) "
                "VALUES ('2026-11-20T10:00:00+00:00', 'Bench Seller', 'b@example.com', "
                "'2125550100', 'Rolex', 'Excellent - Like new', 1, 1, 'USA Website', ?, ?, "
                "'accepted')",
                (f"bench-{number}", f"USWB-B{number:05d}"),
            )
            code = f"1ZBENCH{number:08d}"
            db.execute(
                "INSERT INTO shipments (lead_id, leg, deal_event_id, state, insured_value, "
                "policy, from_address_id, provider_shipment_id, tracking_code, created_at, "
                "bought_at, updated_at) VALUES (?, 'inbound', ?, 'label_ready', 18500, "
                "'HV-BENCH', 'adr_bench', ?, ?, '2026-11-20T10:00:00+00:00', "
                "'2026-11-20T10:00:00+00:00', '2026-11-20T10:00:00+00:00')",
                (number, number, f"shp_{number}", code),
            )
            codes.append(code)
    db.close()
    return codes


def events(codes: list[str], count: int, rng: random.Random) -> list[bytes]:
    """`count` event bodies: parcels moved along, 10 % repeated, 5 % unknown codes."""
    bodies, number = [], 0
    while len(bodies) < count:
        number += 1
        roll = rng.random()
        code = f"1ZUNKNOWN{number}" if roll < 0.05 else rng.choice(codes)
        event = {"id": f"evt_{number}", "object": "Event", "description": "tracker.updated",
                 "result": {"object": "Tracker", "tracking_code": code,
                            "status": rng.choice(STATUSES)}}  # fmt: skip
        body = json.dumps(event).encode()
        bodies.append(body)
        if roll > 0.9 and len(bodies) < count:
            bodies.append(body)  # the provider delivering it again
    return bodies


def post(site: str, body: bytes) -> float:
    """One signed POST; the milliseconds until the whole answer was read."""
    digest = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    request = urllib.request.Request(
        site + "/webhooks/easypost", data=body, method="POST",
        headers={"X-Hmac-Signature": f"hmac-sha256-hex={digest}",
                 "Content-Type": "application/json", "Host": "bench.example"},
    )  # fmt: skip
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()
        assert answer.status == 200, answer.status
    return (time.perf_counter() - began) * 1000


def applied(path: Path) -> tuple[int, int]:
    """Events stored, and those the worker has applied."""
    db = sqlite3.connect(path)
    stored, done = db.execute(
        "SELECT count(*), count(processed_at) FROM shipment_events"
    ).fetchone()
    db.close()
    return stored, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--parcels", type=int, default=200)
    options = parser.parse_args()
    exit_on_sigterm()
    folder, rng = work_dir(), random.Random(37)
    redis_port, port = free_port(), free_port()
    env = settings(folder, redis_port)
    migrate(env)
    codes = add_parcels(folder / "leads.db", options.parcels)
    bodies = events(codes, options.events, rng)
    logs = results_dir()
    with ExitStack() as stack:
        stack.enter_context(started(["redis-server", "--port", str(redis_port), "--save", "",
                                     "--appendonly", "no"], logs / "redis.log", env))  # fmt: skip
        time.sleep(0.5)
        site = f"http://127.0.0.1:{port}"
        stack.enter_context(server(gunicorn_command("app:create_app()", port),
                                   logs / "site.log", site + "/", env))  # fmt: skip
        stack.enter_context(started([str(VENV_BIN / "flask"), "--app", "app", "rq", "worker"],
                                    logs / "worker.log", env))  # fmt: skip
        for body in bodies[:20]:  # warm-up: each gunicorn worker's first requests
            post(site, body)
        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=options.clients) as pool:
            timings = sorted(pool.map(lambda body: post(site, body), bodies[20:]))
        sent_in = time.monotonic() - began
        while (progress := applied(folder / "leads.db"))[1] < progress[0]:
            time.sleep(0.2)
        worked_in = time.monotonic() - began
    p95 = timings[round(0.95 * len(timings)) - 1]
    print(f"{len(timings)} webhook posts from {options.clients} clients in {sent_in:.1f} s "
          f"({len(set(bodies))} distinct events, {options.parcels} parcels)")  # fmt: skip
    print(
        f"answer time: p50 {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms, "
        f"p99 {timings[round(0.99 * len(timings)) - 1]:.1f} ms "
        f"(target p95 <= {TARGET_P95_MS} ms: {'PASS' if p95 <= TARGET_P95_MS else 'MISS'})"
    )
    print(
        f"every event applied by the worker {worked_in:.1f} s after the first post "
        f"({progress[1]} events stored once each)"
    )


if __name__ == "__main__":
    main()
