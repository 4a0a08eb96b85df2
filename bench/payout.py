"""The payout by bank API, measured (docs/payouts.md): how long from the second person's approval
to the lead being `bought`, and the bank's webhook's answer under load (target p95 50 ms, as the
label provider's).

Starts the site under gunicorn with production settings and payouts sent through the bank's API,
Redis, and one `flask rq worker`, over a scratch leads.db, with the bank's fake
(tests/payouts/fake_increase.py) over HTTPS with a throwaway CA's certificate (production refuses
an http:// bank), answering as the real networks do: a released transfer is submitted, then
complete --network-seconds later, each change a signed event posted to the site's webhook. Then,
one payout at a time, --payouts deals are asked for and approved (as the two staff members'
posts do, in this process, on the same database and queue) and the time from each approval to
`bought` is taken; and --events signed events about those transfers (a share repeated, some
about transfers not ours) are posted from --clients processes while the worker applies them,
each reading its transfer back from the bank. Prints the figures. Passes or fails nothing.

    .venv/bin/python bench/payout.py [--payouts 20] [--network-seconds 2] [--events 1000]
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import ssl
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    SECRET_KEY,
    VENV_BIN,
    exit_on_sigterm,
    free_port,
    gunicorn_command,
    results_dir,
    server,
    site_env,
    started,
    tls_files,
    work_dir,
)

TARGET_P95_MS = 50
SECRET = "whsec-bench-payouts-41d0"


def settings(folder: Path, redis_port: int, bank) -> dict[str, str]:
    """The site's production settings with payouts through the bank's fake, over the scratch
    instance; its certificate trusted by every process (httpx reads SSL_CERT_FILE)."""
    from tests.payouts.fake_increase import ACCOUNT_NUMBER_ID

    return site_env() | {
        "LEADS_DB": str(folder / "leads.db"),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "RATELIMIT_SINGLE_PROCESS": "",
        "PAYOUT_PROVIDER": "increase",
        "PAYOUT_MAX_AMOUNT": "25000",
        "PAYOUT_DAILY_LIMIT": "1000000",
        "INCREASE_API_KEY": "inc-bench-key",
        "INCREASE_API_BASE": bank.api_base,
        "INCREASE_ACCOUNT_NUMBER_ID": ACCOUNT_NUMBER_ID,
        "INCREASE_WEBHOOK_SECRET": SECRET,
        "SSL_CERT_FILE": str(tls_files()["CA"]),
    }


def bank_fake(network_seconds: float):
    """The bank's fake over HTTPS with the throwaway CA's certificate."""
    from tests.payouts.fake_increase import FakeIncrease

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls_files()["TLS_CERT"], tls_files()["TLS_KEY"])
    return FakeIncrease(tls=context, network_seconds=network_seconds)


def post(site: str, body: bytes, headers: dict) -> tuple[int, float]:
    """One POST to the webhook as the bank sends it; (status, milliseconds to the whole answer)."""
    request = urllib.request.Request(site + "/webhooks/increase", data=body, method="POST",
                                     headers=headers | {"Host": "bench.example"})  # fmt: skip
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, (time.perf_counter() - began) * 1000


def state_of(path: Path, lead_id: int) -> str:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()[0]
    finally:
        db.close()


def wait_for(check, timeout: float = 120, interval: float = 0.01):
    """Poll `check` until it is true; the seconds that took."""
    began = time.perf_counter()
    while not check():
        if time.perf_counter() - began > timeout:
            raise RuntimeError("timed out")
        time.sleep(interval)
    return time.perf_counter() - began


def pay_one(app, path: Path, offer: int) -> float:
    """One deal asked for and approved; the seconds from the approval's commit to `bought`."""
    from app.payouts import ledger, two_people
    from tests.payouts.steps import deal_to_pay

    lead_id = deal_to_pay(app, offer)
    with app.app_context():
        ledger_row = two_people.ask(lead_id, "staff:1", shown(app, lead_id))
        wait_for(lambda: ledger.get(ledger_row)["transfer_id"])  # the worker created it
        two_people.approve(lead_id, ledger_row, "staff:2")
    return wait_for(lambda: state_of(path, lead_id) == "bought")


def shown(app, lead_id: int) -> dict:
    """What the lead's page shows for the payout, as the ask's form carries it."""
    from app.leads.db import get_db
    from app.payouts import readiness
    from app.sale.purchase import record

    db = get_db()
    lead = dict(db.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone())
    proposal = readiness.proposal(db, lead, record.get(lead_id))
    assert not proposal.problems, proposal.problems
    return {"amount_cents": proposal.amount_cents, "rail": proposal.rail, "last4": proposal.last4}


def event_bodies(bank, count: int, rng: random.Random) -> list[tuple[bytes, dict]]:
    """`count` signed events: about the transfers paid, 10 % repeated, 5 % not ours."""
    transfers, signed = list(bank.transfers), []
    while len(signed) < count:
        roll, number = rng.random(), len(signed) + 1
        about = (
            f"real_time_payments_transfer_other{number}" if roll < 0.05 else rng.choice(transfers)
        )
        event = {"id": f"event_bench{number:06d}", "type": "event",
                 "category": "real_time_payments_transfer.updated",
                 "associated_object_id": about}  # fmt: skip
        signed.append(bank.signed(event, SECRET))
        if roll > 0.9 and len(signed) < count:
            signed.append(bank.signed(event, SECRET))  # the bank delivering it again
    return signed


def applied(path: Path) -> tuple[int, int]:
    """Events stored, and those the worker has applied."""
    db = sqlite3.connect(path)
    stored, done = db.execute("SELECT count(*), count(processed_at) FROM payout_events").fetchone()
    db.close()
    return stored, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payouts", type=int, default=20)
    parser.add_argument("--network-seconds", type=float, default=2.0)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=4)
    options = parser.parse_args()
    exit_on_sigterm()
    folder, rng, logs = work_dir(), random.Random(43), results_dir()
    redis_port, port = free_port(), free_port()
    bank = bank_fake(options.network_seconds)
    env = settings(folder, redis_port, bank)
    os.environ["SSL_CERT_FILE"] = env["SSL_CERT_FILE"]  # this process asks the bank too
    subprocess.run([str(VENV_BIN / "flask"), "--app", "app", "leads", "migrate"], cwd=ROOT,
                   env=env, check=True, capture_output=True)  # fmt: skip
    from app import create_app

    payouts = {key: env[key] for key in env if key.startswith(("PAYOUT_", "INCREASE_"))}
    app = create_app({"ENV_NAME": "testing", "LEADS_DB": env["LEADS_DB"],
                      "PURCHASE_DATA_KEY": SECRET_KEY, "REDIS_URL": env["REDIS_URL"],
                      **payouts})  # fmt: skip
    site = f"http://127.0.0.1:{port}"
    with ExitStack() as stack:
        stack.enter_context(started(["redis-server", "--port", str(redis_port), "--save", "",
                                     "--appendonly", "no"], logs / "redis.log", env))  # fmt: skip
        time.sleep(0.5)
        stack.enter_context(server(gunicorn_command("app:create_app()", port),
                                   logs / "site.log", site + "/", env))  # fmt: skip
        stack.enter_context(started([str(VENV_BIN / "flask"), "--app", "app", "rq", "worker"],
                                    logs / "worker.log", env))  # fmt: skip
        bank.deliver_to(lambda body, headers: post(site, body, headers)[0], SECRET)
        pay_one(app, folder / "leads.db", 9000)  # warm-up: the worker's and gunicorn's first
        seconds = sorted(
            pay_one(app, folder / "leads.db", 9000 + n) for n in range(options.payouts)
        )
        bank.delivery = None
        bodies = event_bodies(bank, options.events + 20, rng)
        for signed in bodies[:20]:  # warm-up: each gunicorn worker's first posts
            post(site, *signed)
        bodies = bodies[20:]
        began = time.monotonic()
        # From processes of their own: the bank's fake answers the worker from this one.
        payloads, headers = [body for body, _ in bodies], [signed for _, signed in bodies]
        with ProcessPoolExecutor(max_workers=options.clients) as pool:
            answers = list(pool.map(post, [site] * len(bodies), payloads, headers))
        sent_in = time.monotonic() - began
        while (progress := applied(folder / "leads.db"))[1] < progress[0]:
            time.sleep(0.2)
        worked_in = time.monotonic() - began
    timings = sorted(ms for _, ms in answers)
    overhead = [s - options.network_seconds for s in seconds]
    p95 = timings[round(0.95 * len(timings)) - 1]
    print(f"{options.payouts} payouts, one at a time, the bank's network taking "
          f"{options.network_seconds:.1f} s after each release")  # fmt: skip
    print(
        f"approval to bought: median {statistics.median(seconds):.2f} s, max {seconds[-1]:.2f} s "
        f"(the site's own share, without the network's: median {statistics.median(overhead):.2f}"
        f" s, max {overhead[-1]:.2f} s)"
    )
    print(f"{len(timings)} webhook posts from {options.clients} clients in {sent_in:.1f} s, "
          f"statuses {sorted({status for status, _ in answers})}")  # fmt: skip
    print(
        f"answer time: p50 {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms, "
        f"p99 {timings[round(0.99 * len(timings)) - 1]:.1f} ms "
        f"(target p95 <= {TARGET_P95_MS} ms: {'PASS' if p95 <= TARGET_P95_MS else 'MISS'})"
    )
    print(f"every event applied by the worker {worked_in:.1f} s after the first post "
          f"({progress[1]} events stored once each)")  # fmt: skip


if __name__ == "__main__":
    main()
