"""How long a fresh machine takes to come back from the replica with 100,000 leads.

    .venv/bin/python bench/replica_restore.py [--leads 100000]

Builds a leads.db of that many leads, each with the three timeline events a lead's first
minutes give it (submitted, its work done, a staff note), its work done, on a local S3 server
(moto's, from the test packages); lets Litestream replicate it as deploy/
watchbuyers-litestream.service does, until the replica holds it all; then times
`flask leads restore --from-replica` into an empty instance, as the restore drill runs it, and
prints the sizes and seconds. The leads carry no files: their restore is the database's.
"""

from __future__ import annotations

import argparse
import base64
import secrets
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import boto3

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.leads.store import WORK_COLUMNS  # noqa: E402
from bench.common import ROOT, VENV_BIN, free_port, started, table, work_dir  # noqa: E402

LEAD_COLUMNS = """full_name, email, phone, watch_brand, watch_model, watch_year, watch_condition,
    has_box, has_papers, additional_details, source, meta_event_id, created_at, reference, state"""
# Their work done, as a live database's leads have it: the restore's requeue finds none owed.


def fill(path: Path, leads: int) -> None:
    """`leads` leads with three events each, written in one transaction."""
    db = sqlite3.connect(path)
    with db:
        done = ", ".join(f"{column} = created_at" for column in WORK_COLUMNS)
        db.execute(
            f"""WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO leads ({LEAD_COLUMNS})
            SELECT 'Seller ' || i, 'seller' || i || '@example.com', '(212) 555-0100', 'Rolex',
                'Submariner Date 126610LN', 2019, 'Very Good - Minor wear', 1, i % 2,
                'Bought new in 2019; serviced 2024.', 'USA Website', 'evt-bench-' || i,
                strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now', '-' || (i % 700) || ' days'),
                printf('WB-B%07d', i), 'contacted'
            FROM n""",
            (leads,),
        )
        for kind, data in (
            ("submitted", '{"source": "USA Website"}'),
            ("work_done", '{"work": "staff_notified"}'),
            ("note", '{"text": "Called; sending photos of the caseback tomorrow."}'),
        ):
            db.execute(
                "INSERT INTO lead_events (lead_id, at, actor, kind, data) "
                "SELECT id, created_at, 'system', ?, ? FROM leads",
                (kind, data),
            )
        db.execute(f"UPDATE leads SET {done}")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def run(command: list[str], env: dict) -> str:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    return done.stdout


def replica_objects(storage: str, bucket: str) -> int:
    client = boto3.client("s3", endpoint_url=storage, region_name="us-east-1",
                          aws_access_key_id="bench", aws_secret_access_key="bench")  # fmt: skip
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix="bench/db/")
    return sum(len(page.get("Contents", ())) for page in pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--leads", type=int, default=100_000)
    leads = parser.parse_args().leads
    folder = work_dir() / f"replica-restore-{int(time.time())}"
    (folder / "old").mkdir(parents=True)
    port = free_port()
    storage = f"http://127.0.0.1:{port}"
    base = {
        "PATH": f"{VENV_BIN}:/usr/bin:/bin",
        "FLASK_APP": "app",
        "APP_ENV": "development",
        "REPLICA_URL": "s3://bench-replica/bench",
        "REPLICA_ENDPOINT": storage,
        "REPLICA_ENCRYPTION_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        "REPLICA_ACCESS_KEY_ID": "bench",
        "REPLICA_SECRET_ACCESS_KEY": "bench",
    }
    old = base | {"LEADS_DB": str(folder / "old" / "leads.db")}
    flask = [str(VENV_BIN / "python"), "-m", "flask"]
    with started([str(VENV_BIN / "moto_server"), "-p", str(port)], folder / "s3.log", base):
        time.sleep(2)
        boto3.client("s3", endpoint_url=storage, region_name="us-east-1",
                     aws_access_key_id="bench", aws_secret_access_key="bench",
                     ).create_bucket(Bucket="bench-replica")  # fmt: skip
        run([*flask, "leads", "migrate"], old)
        began = time.monotonic()
        fill(Path(old["LEADS_DB"]), leads)
        filled = time.monotonic() - began
        size = Path(old["LEADS_DB"]).stat().st_size
        config = folder / "litestream.yml"
        run([*flask, "leads", "replication", "litestream-config", "--to", str(config)], old)
        began = time.monotonic()
        litestream = [str(VENV_BIN / "litestream"), "replicate", "-config", str(config)]
        with started(litestream, folder / "litestream.log", old):
            while replica_objects(storage, "bench-replica") == 0:
                time.sleep(0.2)
            time.sleep(3)  # let its first snapshot's compactions settle
        replicated = time.monotonic() - began
        new = base | {"LEADS_DB": str(folder / "new" / "leads.db")}
        began = time.monotonic()
        output = run([*flask, "leads", "restore", "--from-replica"], new)
        restored = time.monotonic() - began
    print(output)
    print(table(["step", "value"], [
        ["leads (3 events each)", f"{leads:,}"],
        ["leads.db", f"{size / 1e6:.1f} MB"],
        ["fill", f"{filled:.1f} s"],
        ["first replication (snapshot)", f"{replicated:.1f} s"],
        ["restore --from-replica, whole command", f"{restored:.1f} s"],
    ], right={1}))  # fmt: skip


if __name__ == "__main__":
    main()
