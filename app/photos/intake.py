"""Keeping uploaded photos: every file copied to private storage first, then the database rows
that name them, all or none. The sell form keeps a new lead's photos this way, the status page
a seller's later ones. A process that dies between the two leaves files no row names: the
sweep removes them once no live request can still be writing them (STRANDED_AFTER)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from flask import current_app
from werkzeug.datastructures import FileStorage

from app import queue
from app.leads import storage, store
from app.photos.uploads import discard_uploads, store_upload

T = TypeVar("T")
# Well past any request's life (gunicorn's 120 s time-out), so only a dead process's files.
STRANDED_AFTER = timedelta(hours=1)


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


def remove_stranded_uploads() -> int:
    """Delete the files in storage/incoming/ unchanged for STRANDED_AFTER that no photo row
    names (a process that died between the files and the rows left them); how many. A file a
    lead still waits on is named by its row and stays, however old."""
    incoming = storage.incoming_dir()
    if not incoming.is_dir():
        return 0
    cutoff = time.time() - STRANDED_AFTER.total_seconds()
    old = {path.name: path for path in incoming.iterdir() if path.stat().st_mtime < cutoff}
    stranded = set(old) - store.named_uploads(list(old))
    for name in stranded:
        old[name].unlink(missing_ok=True)
        current_app.logger.warning("Removed a stranded upload from storage/incoming/.")
    return len(stranded)
