"""Keeping uploaded photos: every file copied to private storage first, then the database rows
that name them, all or none. The sell form keeps a new lead's photos this way, the status page
a seller's later ones."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from flask import current_app
from werkzeug.datastructures import FileStorage

from app import queue
from app.leads import storage, store
from app.photos.uploads import discard_uploads, store_upload

T = TypeVar("T")


class NotSaved(RuntimeError):
    """Nothing of the submission was kept (disk or database trouble); the seller must resend."""


def keep_photos(uploads: list[FileStorage], save: Callable[[list[dict]], T]) -> T:
    """Store each upload, then `save(photos)` their records; what `save` returns.

    All or nothing: if a file cannot be written or `save` raises, the files already written are
    removed; disk and database trouble become NotSaved, anything else is raised as it was.
    """
    incoming = storage.incoming_dir()
    photos: list[dict] = []
    try:
        for upload in uploads:
            photos.append(store_upload(upload, incoming))
        return save(photos)
    except (OSError, sqlite3.Error) as error:
        discard_uploads(photos, incoming)
        current_app.logger.error("Photos not kept (%s: %s).", type(error).__name__, error)
        raise NotSaved from error
    except BaseException:
        discard_uploads(photos, incoming)
        raise


def add_photos(lead_id: int, uploads: list[FileStorage]) -> None:
    """Keep a seller's later photos with their lead, up to PHOTO_MAX_COUNT in all, and queue
    their processing and the staff e-mail. Raises store.NoRoom past the limit, LookupError for
    an erased lead and NotSaved on disk or database trouble; no file is left behind."""
    max_count = current_app.config["PHOTO_MAX_COUNT"]
    event_id = keep_photos(uploads, lambda photos: store.add_photos(lead_id, photos, max_count))
    current_app.logger.info("Lead %s: the seller added %s photos.", lead_id, len(uploads))
    queue.enqueue(queue.PROCESS_LEAD, lead_id)
    queue.enqueue(queue.ALERT_STAFF, lead_id, event_id)
