"""The health check deploy/watchbuyers-health.timer runs every minute (`flask leads health
check`): owed work queued again and stranded uploads removed, so no operator has to remember a
command after a part failed."""

from __future__ import annotations

from app import queue
from app.photos import intake
from app.sale import pending


def sweep() -> str:
    """With Redis, queue again the owed work no worker has in hand (without it, each of the
    site's processes sweeps its own way: app/queue.py); what was done."""
    if not queue.on_redis():
        return "no Redis: the site's own processes sweep"
    try:
        queued = pending.sweep()
    except pending.QueueDown:
        return "Redis does not answer: nothing queued"
    return f"queued {queued.count()} owed jobs"


def check_health() -> str:
    """Sweep, remove the uploads a crash stranded, and say what was done."""
    swept = sweep()
    return f"{swept}; removed {intake.remove_stranded_uploads()} stranded uploads"
