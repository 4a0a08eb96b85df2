"""A seller's submission: read from the posted form once (`Submission`), then saved with its
photos and its work queued (`submit_lead`), one path for the island and the plain form alike.

The plain form and the island post the same fields; the campaign parameters and the event id
also come from the page's own URL (GET), so both readers live here.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from flask import Request, current_app
from werkzeug.datastructures import FileStorage

from app import queue
from app.leads import storage, store
from app.photos.forms import chosen_files
from app.photos.intake import keep_photos
from app.photos.uploads import discard_uploads
from app.prices.index import InstantRange
from app.privacy.choice import opt_out
from app.security.client import client_address
from app.sell.attribution import clean_fields, lead_columns, utc_now
from app.sell.forms import SellForm
from app.sell.instant_range import range_for

SOURCE = "USA Website"
UTM_KEYS = ("utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term")
EVENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
FIELD_LENGTH = 200
USER_AGENT_LENGTH = 500
# GA's _ga cookie: "GA1.<depth>.<random number>.<first visit, in seconds>".
GA_COOKIE = re.compile(r"GA1\.\d{1,2}\.(\d{1,20}\.\d{1,20})")


def campaign_values(source: Mapping) -> dict[str, str]:
    """The UTM parameters as sent (trimmed, bounded); missing ones are empty."""
    return {key: source.get(key, "").strip()[:FIELD_LENGTH] for key in UTM_KEYS}


def event_id_from(source: Mapping) -> str:
    """The browser's meta_event_id when it sent a sane one, else a fresh one (no-JS path)."""
    sent = source.get("metaEventId", "")
    return sent if EVENT_ID.fullmatch(sent) else str(uuid.uuid4())


def ga_client_id(cookies: Mapping) -> str | None:
    """GA4's client id from its _ga cookie (GA1.1.<id>.<time>), so server events join the
    visit; None for a cookie of any other shape (it is stored and sent to Google as it is)."""
    found = GA_COOKIE.fullmatch(cookies.get("_ga", ""))
    return found.group(1) if found else None


@dataclass(frozen=True)
class Submission:
    """A validated sell-form post: its fields, photos, campaign values and where it came from."""

    fields: dict
    photos: list[FileStorage]
    utm: dict[str, str | None]
    event_id: str
    client_ip: str | None
    user_agent: str
    ga_client_id: str | None
    ad_opt_out: str | None
    attribution: dict[str, str | None]
    instant_range: InstantRange | None = None

    @classmethod
    def from_request(cls, form: SellForm, request: Request) -> Submission:
        """A validated form plus where it came from."""
        now, posted = utc_now(), form.visit_values()
        return cls(
            fields=form.lead_fields(),
            photos=chosen_files(form.photos.data),
            utm={key: value or None for key, value in campaign_values(posted).items()},
            event_id=event_id_from(posted),
            client_ip=client_address(),
            user_agent=request.headers.get("User-Agent", "")[:USER_AGENT_LENGTH],
            ga_client_id=ga_client_id(request.cookies),
            ad_opt_out=opt_out(request, posted["adOptOut"]),
            attribution=lead_columns(clean_fields(posted, now), request.cookies, now),
            instant_range=range_for(form),
        )

    def lead_record(self) -> dict:
        """The form's validated fields, plus where the submission came from: one row of `leads`."""
        return {
            **self.fields,
            "source": SOURCE,
            "meta_event_id": self.event_id,
            "client_ip": self.client_ip,
            "user_agent": self.user_agent,
            "ga_client_id": self.ga_client_id,
            "ad_opt_out": self.ad_opt_out,
            **self.utm,
            **self.attribution,
            "instant_range": self.instant_range.as_record() if self.instant_range else None,
        }


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
