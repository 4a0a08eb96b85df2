"""What the health check looks at, each a fault staff are told of once (app/health/faults.py):
Redis not answering, work owed longer than OWED_WORK_ALERT_MINUTES (the workers are down or
failing), jobs that failed after all their retries, and a disk nearly full. The mail relay is
tried by the worker's side of the check (worker/health_alerts.py), which sends the e-mails."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import current_app

from app import queue
from app.leads import storage
from app.leads.db import get_db
from app.leads.display import local_time

# A failure this recent keeps "jobs are failing" open: the sweep queues a failed job's work
# again every minute, so a cause that lasts fails it again within a retry cycle (about 6 min).
FAILED_WITHIN = timedelta(minutes=15)


def observe() -> dict[str, str]:
    """Each fault seen now (kind -> what was seen); empty when all is well. Failing jobs are
    read from Redis, so only while it answers."""
    seen = {"redis": redis_fault()}
    checks = {"owed": owed_fault, "failing": None if seen["redis"] else failing_fault,
              "disk": disk_fault}  # fmt: skip
    seen |= {kind: check() for kind, check in checks.items() if check}
    return {kind: detail for kind, detail in seen.items() if detail}


def redis_fault() -> str | None:
    """Redis does not answer (with REDIS_URL set)."""
    error = queue.redis_error()
    return f"Redis does not answer ({error})." if error else None


def owed_fault() -> str | None:
    """Work the sweep has seen owed for longer than OWED_WORK_ALERT_MINUTES."""
    minutes = current_app.config["OWED_WORK_ALERT_MINUTES"]
    cutoff = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")
    count, oldest = (
        get_db()
        .execute("SELECT count(*), min(first_seen) FROM owed_work WHERE first_seen < ?", (cutoff,))
        .fetchone()
    )
    if not count:
        return None
    jobs, since = "1 job has" if count == 1 else f"{count} jobs have", local_time(oldest)
    return f"{jobs} been owed for more than {minutes} minutes, the oldest since {since}."


def failing_fault() -> str | None:
    """Jobs whose last try failed within FAILED_WITHIN, by name, with their errors."""
    failed = queue.failed_since(FAILED_WITHIN.total_seconds()) if queue.on_redis() else []
    if not failed:
        return None
    lines = [f"{name.removeprefix('worker.jobs.')}{ids}: {error}" for name, ids, error in failed]
    shown = "; ".join(lines[:10]) + (f"; and {len(lines) - 10} more" if len(lines) > 10 else "")
    return f"{len(failed)} jobs failed after all their retries in the last 15 minutes: {shown}."


def disk_fault() -> str | None:
    """A disk holding leads.db or the private storage with less than DISK_FREE_ALERT_PERCENT
    free."""
    percent = current_app.config["DISK_FREE_ALERT_PERCENT"]
    folders = (Path(current_app.config["LEADS_DB"]).parent, storage.storage_dir())
    for folder in (folder for folder in folders if folder.exists()):
        usage = shutil.disk_usage(folder)
        if nearly_full(usage, percent):
            free = usage.free * 100 / usage.total
            return (f"The disk holding {folder} has {free:.1f}% free "
                    f"({usage.free // 2**20:,} MB), under {percent}%.")  # fmt: skip
    return None


def nearly_full(usage, percent: float) -> bool:
    """Whether a disk's free space (shutil.disk_usage) is under `percent` of it."""
    return usage.free * 100 < percent * usage.total
