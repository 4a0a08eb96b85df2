"""One submission path for both the island and the plain form: store photos, save, queue work."""

from __future__ import annotations

from flask import current_app

from app import queue
from app.leads import storage, store
from app.photos.intake import keep_photos
from app.photos.uploads import discard_uploads
from app.sell.submission import Submission


def submit_lead(submission: Submission) -> str:
    """Save a valid submission (photos first, then the lead) and queue its work once; returns
    the lead's reference (the first one's, for the same submit sent twice).

    All or nothing: if a photo cannot be written or the lead cannot be committed, the photos
    already written are removed and NotSaved (app/photos/intake.py) tells the route to say so.
    """
    record = submission.lead_record()
    saved = keep_photos(submission.photos, lambda photos: (store.save_lead(record, photos), photos))
    (lead_id, created), photos = saved
    if not created:
        discard_uploads(photos, storage.incoming_dir())
        current_app.logger.info("Lead %s submitted again; kept the first.", lead_id)
    else:
        queue.enqueue(queue.PROCESS_LEAD, lead_id)
    return store.get_lead(lead_id)["reference"]
