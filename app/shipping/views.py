"""The label provider's webhook: answered as soon as the event is verified and stored (the
provider retries what is not answered quickly), its work queued as a job by the stored row's
id (app/security/webhooks.py). Off (404) while MAILIN_ENABLED is off."""

from __future__ import annotations

from functools import partial

from flask import abort, current_app

from app import queue
from app.security import webhooks
from app.shipping import webhook


def easypost_webhook():
    """POST /webhooks/easypost: 200 for a verified event, stored once (in production, one from
    the provider's test mode is answered 200 and dropped); 401 unsigned, 400 not an event, 413
    too large."""
    if not current_app.config["MAILIN_ENABLED"]:
        abort(404)
    limit = current_app.config["EASYPOST_WEBHOOK_MAX_BYTES"]
    return webhooks.receive("EasyPost", limit, webhook.verified_event, webhook.store_event,
                            partial(queue.enqueue, queue.APPLY_SHIPMENT_EVENT),
                            webhook.not_for_this_site)  # fmt: skip
