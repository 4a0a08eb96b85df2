"""The label provider's webhook: answered as soon as the event is verified and stored (the
provider retries what is not answered quickly), its work queued as a job by the stored row's
id. Off (404) while MAILIN_ENABLED is off."""

from __future__ import annotations

from flask import abort, current_app, request

from app import queue
from app.shipping import webhook


def easypost_webhook():
    """POST /webhooks/easypost: 200 for a verified event, stored once (in production, one from
    the provider's test mode is answered 200 and dropped); 401 unsigned, 400 not an event, 413
    too large."""
    if not current_app.config["MAILIN_ENABLED"]:
        abort(404)
    limit = current_app.config["EASYPOST_WEBHOOK_MAX_BYTES"]
    if (request.content_length or 0) > limit:
        return plain("The body is too large.", 413)
    body = request.stream.read(limit + 1)
    if len(body) > limit:
        return plain("The body is too large.", 413)
    try:
        event = webhook.verified_event(body, request.headers)
    except webhook.Refused as refused:
        current_app.logger.warning("EasyPost webhook refused (%s): %s", refused.status, refused)
        return plain(str(refused), refused.status)
    if webhook.not_for_this_site(event):  # 200, so the provider does not send it again
        current_app.logger.warning("EasyPost webhook: a %r-mode event dropped.", event.get("mode"))
        return plain("Not applied: a test-mode event is never applied in production.", 200)
    stored = webhook.store_event(event)
    if stored is not None:
        queue.enqueue(queue.APPLY_SHIPMENT_EVENT, stored)
    return plain("Stored." if stored is not None else "Already stored.", 200)


def plain(text: str, status: int):
    """A short plain-text answer for the provider's delivery log."""
    return text + "\n", status, {"Content-Type": "text/plain; charset=utf-8"}
