"""The migration step of the `conversions` table: what each ad platform was told about each lead
(docs/sale.md, "Conversions reported back"; app/leads/schema/ runs it)."""

from __future__ import annotations

CONVERSIONS = (
    # One row per lead, platform and event: the server-side event jobs (app/conversions/send.py)
    # look here before they send, so a retry or a requeue never reports an event twice. `status`
    # is the last outcome: sent; failed (the job is retried, `flask leads requeue` tries again);
    # too_late (past the platform's window: never sent); opted_out (the seller said no: never
    # sent); skipped (the platform could not take it, such as GA4 without a client id). Only a
    # failed row is ever tried again. `attempts` counts the sends tried, `at` is the time of the
    # last outcome and `reason` says why it was not sent. Every outcome is also on the timeline.
    """CREATE TABLE conversions (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        platform TEXT NOT NULL CHECK (platform IN ('meta', 'ga4')),
        event TEXT NOT NULL CHECK (event IN ('lead', 'purchase')),
        status TEXT NOT NULL
            CHECK (status IN ('sent', 'failed', 'too_late', 'opted_out', 'skipped')),
        attempts INTEGER NOT NULL DEFAULT 0,
        at TEXT NOT NULL,
        reason TEXT,
        UNIQUE (lead_id, platform, event)
    )""",
)
