"""The bank's webhook: answered as soon as the event is verified and stored (the bank retries
what is not answered quickly), its work queued as a job by the stored row's id
(app/security/webhooks.py). Off (404) while payouts are recorded by hand (PAYOUT_PROVIDER
unset)."""

from __future__ import annotations

from functools import partial

from flask import abort, current_app

from app import queue
from app.payouts import bank_events
from app.security import webhooks


def increase_webhook():
    """POST /webhooks/increase: 200 for a verified event, stored once; 401 unsigned, forged or
    stale, 400 not an event, 413 too large."""
    if not current_app.config["PAYOUT_PROVIDER"]:
        abort(404)
    limit = current_app.config["INCREASE_WEBHOOK_MAX_BYTES"]
    return webhooks.receive("Bank", limit, bank_events.verified_event, bank_events.store_event,
                            partial(queue.enqueue, queue.APPLY_PAYOUT_EVENT))  # fmt: skip
