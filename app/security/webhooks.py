"""The one way a provider's webhook is answered (the label provider's, the bank's): the raw body
read only up to the provider's limit, so its signature is checked on exactly the bytes sent and
a body too large is refused unread; verified and stored once by the provider's own module,
unless that module says a verified event is not for this site (answered, so it is not sent
again, but never stored); the work queued as a job by the stored row's id; and a short
plain-text answer at once, for the provider's delivery log (a provider retries what is not
answered quickly)."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app, request


class Refused(Exception):
    """The request is not a verified event; `status` is the answer's."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def raw_body(limit: int) -> bytes:
    """The request's raw bytes, at most `limit` of them; Refused(413) beyond (by its declared
    length, or by what it turns out to hold)."""
    if (request.content_length or 0) > limit:
        raise Refused(413, "The body is too large.")
    body = request.stream.read(limit + 1)
    if len(body) > limit:
        raise Refused(413, "The body is too large.")
    return body


def receive(
    provider: str,
    limit: int,
    verify: Callable[[bytes, object], dict],
    store: Callable[[dict], int | None],
    queue_job: Callable[[int], object],
    not_applied: Callable[[dict], str | None] = lambda event: None,
):
    """Answer a webhook: 200 for a verified event, stored once (`store` gives the new row's id,
    None for one stored before) with its job queued by that id (`queue_job`); 200 and nothing
    stored for one `not_applied` gives a reason for; the status of `verify`'s or the size's
    refusal otherwise. Refusals and dropped events are logged with the provider's name."""
    try:
        event = verify(raw_body(limit), request.headers)
    except Refused as refused:
        current_app.logger.warning("%s webhook refused (%s): %s", provider, refused.status, refused)
        return plain(str(refused), refused.status)
    reason = not_applied(event)
    if reason is not None:
        current_app.logger.warning("%s webhook: %r dropped: %s.", provider, event["id"], reason)
        return plain(f"Not applied: {reason}.", 200)
    stored = store(event)
    if stored is not None:
        queue_job(stored)
    return plain("Stored." if stored is not None else "Already stored.", 200)


def plain(text: str, status: int):
    """A short plain-text answer for the provider's delivery log."""
    return text + "\n", status, {"Content-Type": "text/plain; charset=utf-8"}
