"""One submission path for both the island and the plain form: store photos, save, queue work;
and the same for photos a seller adds later from their status page."""

from __future__ import annotations

import sqlite3

from flask import current_app

from app import queue
from app.leads import storage, store
from app.sell.submission import Submission
from app.sell.uploads import discard_uploads, store_upload


class NotSaved(RuntimeError):
    """Nothing of the submission was kept (disk or database trouble); the seller must resend."""


def submit_lead(submission: Submission) -> str:
    """Save a valid submission (photos first, then the lead) and queue its work once; returns
    the lead's reference (the first one's, for the same submit sent twice).

    All or nothing: if a photo cannot be written or the lead cannot be committed, the photos
    already written are removed and NotSaved tells the route to say so.
    """
    incoming = storage.incoming_dir()
    photos: list[dict] = []
    try:
        for upload in submission.photos:
            photos.append(store_upload(upload, incoming))
        lead_id, created = store.save_lead(submission.lead_record(), photos)
    except (OSError, sqlite3.Error) as error:
        discard_uploads(photos, incoming)
        current_app.logger.error("Submission not saved (%s: %s).", type(error).__name__, error)
        raise NotSaved from error
    if not created:
        discard_uploads(photos, incoming)
        current_app.logger.info("Lead %s submitted again; kept the first.", lead_id)
    else:
        queue.enqueue(queue.PROCESS_LEAD, lead_id)
    return store.get_lead(lead_id)["reference"]


def add_photos(lead_id: int, uploads: list, max_count: int) -> None:
    """Keep a seller's later photos (files first, then their rows), all or none, and queue their
    processing and the staff e-mail. Raises store.NoRoom past `max_count` photos in all and
    NotSaved on disk or database trouble; either way no file is left behind."""
    incoming = storage.incoming_dir()
    photos: list[dict] = []
    try:
        for upload in uploads:
            photos.append(store_upload(upload, incoming))
        event_id = store.add_photos(lead_id, photos, max_count)
    except (store.NoRoom, LookupError):
        discard_uploads(photos, incoming)
        raise
    except (OSError, sqlite3.Error) as error:
        discard_uploads(photos, incoming)
        current_app.logger.error("Photos not added (%s: %s).", type(error).__name__, error)
        raise NotSaved from error
    current_app.logger.info("Lead %s: the seller added %s photos.", lead_id, len(photos))
    queue.enqueue(queue.PROCESS_LEAD, lead_id)
    queue.enqueue(queue.ALERT_STAFF, lead_id, event_id)
