"""The migration step of the site's own health (app/health/, docs/deployment.md, "When a part
fails"): when each piece of owed work was first seen owed, and each fault staff are told of
once (app/leads/schema/ runs it)."""

from __future__ import annotations

HEALTH = (
    # Each job the records say is owed (app/sale/pending.py), by its name and ids (JSON), since
    # the first sweep that saw it; the row goes once it is no longer owed. Without Redis the
    # sweep queues only what has been owed a while (another live process may be on newer
    # work); the health check alerts staff to what has been owed too long.
    """CREATE TABLE owed_work (
        job TEXT NOT NULL,
        ids TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        PRIMARY KEY (job, ids)
    ) WITHOUT ROWID""",
    # One row per fault the health check saw (Redis unreachable, work owed too long, jobs
    # failing, the disk nearly full, the mail relay refusing), from the check that first saw
    # it; `told_at` is claimed before staff are e-mailed, so each fault is told once. A fault
    # that clears goes, once told; one that cleared before staff could be told (the mail relay
    # itself, say) stays until they are, and says when it ended.
    """CREATE TABLE faults (
        kind TEXT PRIMARY KEY,
        since TEXT NOT NULL,
        detail TEXT NOT NULL,
        told_at TEXT,
        cleared_at TEXT
    ) WITHOUT ROWID""",
)
