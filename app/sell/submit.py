"""One submission path for both the island and the plain form: store photos, save, queue work."""

from __future__ import annotations

import re
import sqlite3
import uuid

from flask import current_app, request

from app.leads import store
from app.sell.forms import SellForm, chosen_files
from app.sell.uploads import discard_uploads, store_upload
from worker import enqueue_lead_work

SOURCE = "USA Website"
UTM_KEYS = ("utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term")
EVENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
HONEYPOT = "website"


def is_spam() -> bool:
    """People never see the honeypot field; form-filling bots usually fill it."""
    return bool(request.form.get(HONEYPOT, "").strip())


def event_id() -> str:
    """The browser's meta_event_id when it sent a sane one, else a fresh one (no-JS path)."""
    sent = request.form.get("metaEventId", "")
    return sent if EVENT_ID.fullmatch(sent) else str(uuid.uuid4())


def utm_values() -> dict:
    return {key: request.form.get(key, "").strip()[:200] or None for key in UTM_KEYS}


def ga_client_id() -> str | None:
    """GA4's client id from its _ga cookie (GA1.1.<id>.<time>), so server events join the visit."""
    parts = request.cookies.get("_ga", "").split(".")
    return ".".join(parts[2:4]) if len(parts) >= 4 else None


def lead_fields(form: SellForm) -> dict:
    """The SPEC §7 payload, plus where the submission came from."""
    return {
        "full_name": form.fullName.data,
        "email": form.email.data,
        "phone": form.phone.data,
        "watch_brand": form.watchBrand.data,
        "watch_model": form.watchModel.data or None,
        "watch_year": int(form.watchYear.data) if form.watchYear.data else None,
        "watch_condition": form.watchCondition.data,
        "has_box": bool(form.hasBox.data),
        "has_papers": bool(form.hasPapers.data),
        "additional_details": form.additionalDetails.data or "",
        "source": SOURCE,
        "meta_event_id": event_id(),
        "client_ip": request.remote_addr,
        "user_agent": request.headers.get("User-Agent", "")[:500],
        "ga_client_id": ga_client_id(),
        **utm_values(),
    }


class NotSaved(RuntimeError):
    """Nothing of the submission was kept (disk or database trouble); the seller must resend."""


def submit_lead(form: SellForm) -> int:
    """Save a valid submission (photos first, then the lead) and queue its work once.

    All or nothing: if a photo cannot be written or the lead cannot be committed, the photos
    already written are removed and NotSaved tells the route to say so.
    """
    incoming = store.incoming_dir()
    photos: list[dict] = []
    try:
        for upload in chosen_files(form.photos.data):
            photos.append(store_upload(upload, incoming))
        lead_id, created = store.save_lead(lead_fields(form), photos)
    except (OSError, sqlite3.Error) as error:
        discard_uploads(photos, incoming)
        current_app.logger.error("Submission not saved (%s: %s).", type(error).__name__, error)
        raise NotSaved from error
    if not created:
        discard_uploads(photos, incoming)
        current_app.logger.info("Lead %s submitted again; kept the first.", lead_id)
        return lead_id
    enqueue_lead_work(lead_id)
    return lead_id
