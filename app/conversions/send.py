"""Server-side conversion events: each event of a lead (the form's Lead, the Purchase) reported
once to each configured platform (Meta's Conversions API, app/conversions/meta.py; GA4's
Measurement Protocol, app/conversions/ga4.py), and each outcome recorded in the `conversions`
table and on the lead's timeline (app/conversions/records.py).

Before sending, the job reads the table: a settled outcome is never repeated, so a retry or a
requeue sends only what failed. Nothing is sent for a lead whose seller opted out (recorded
`opted_out`, app/privacy/choice.py), nor past the platform's window (`too_late`: Meta takes an
event_time at most 7 days old, GA4 a timestamp at most 72 hours old), nor when the platform
could not use it (`skipped`, such as a GA4 purchase without a client id). A send that fails is
recorded `failed` and the job raises, so RQ retries it (JOB_RETRY_INTERVALS).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from types import ModuleType

from flask import current_app

from app.conversions import ga4, meta, records
from app.conversions.events import AdEvent
from app.privacy.choice import DESCRIPTIONS as OPT_OUT_DESCRIPTIONS

PLATFORMS: dict[str, ModuleType] = {"meta": meta, "ga4": ga4}
HTTP_TIMEOUT = 10


class ReportIncomplete(RuntimeError):
    """A send failed (recorded `failed`); raised so the job is retried, which sends only
    what is not settled yet."""


def post_json(url: str, body: dict) -> None:
    """POST `body` as JSON to `url`; an HTTP error status or a timeout raises."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
        response.read()


def opted_out(lead: dict) -> str | None:
    """How the lead's seller opted out of sharing ('gpc' or 'choice'), or None: such a lead
    sends nothing to any platform, ever (app/privacy/choice.py)."""
    return lead.get("ad_opt_out") or None


def age_words(age: timedelta) -> str:
    """How old an event is, as people say it: '8 days' or '75 hours'."""
    hours = int(age.total_seconds() // 3600)
    return f"{hours // 24} days" if hours >= 96 else f"{hours} hours"


def withheld(platform: ModuleType, lead: dict, event: AdEvent) -> tuple[str, str] | None:
    """(status, reason) when the event is not to be sent to this platform, else None."""
    if how := opted_out(lead):
        return "opted_out", f"the seller opted out ({OPT_OUT_DESCRIPTIONS.get(how, how)})"
    if lead["erased_at"]:
        return "skipped", "the lead's personal data was erased"
    age = datetime.now(UTC) - event.time
    if age > platform.WINDOW:
        return "too_late", (
            f"the {event.label.lower()} is {age_words(age)} old; "
            f"{platform.NAME} takes events at most {platform.WINDOW_TEXT} old"
        )
    if reason := platform.unfit(lead, event):
        return "skipped", reason
    return None


def failure(error: OSError) -> str:
    """Why a send failed, for the timeline: the HTTP status, or the network's error."""
    if isinstance(error, urllib.error.HTTPError):
        return f"HTTP {error.code} {error.reason}"
    if isinstance(error, urllib.error.URLError):
        return f"no answer: {error.reason}"
    return f"no answer: {error}"


def send(name: str, lead: dict, event: AdEvent) -> tuple[str, str]:
    """Send the event to one platform: ('sent', '') or ('failed', why)."""
    platform = PLATFORMS[name]
    try:
        post_json(platform.endpoint(), platform.body(lead, event))
    except OSError as error:  # HTTPError and URLError are OSErrors, and so are timeouts
        current_app.logger.warning(
            "Lead %s: %s to %s failed: %s", lead["id"], event.label, platform.NAME, error
        )
        return "failed", failure(error)
    return "sent", ""


def report_to(name: str, lead: dict, event: AdEvent) -> str:
    """Send the event to one platform unless it is withheld, and record the outcome."""
    status, reason = withheld(PLATFORMS[name], lead, event) or send(name, lead, event)
    records.record(lead["id"], name, event.name, status, reason)
    return status


def report(lead: dict, event: AdEvent) -> dict[str, str]:
    """Report the event to each configured platform whose outcome is not settled yet; the
    status per platform ('already sent' and the like where it was settled before). Raises
    ReportIncomplete, after recording, if a send failed."""
    statuses = {}
    for name in records.configured_platforms():
        row = records.outcome(lead["id"], name, event.name)
        if row and row["status"] in records.SETTLED:
            statuses[name] = f"already {row['status']}"
        else:
            statuses[name] = report_to(name, lead, event)
    failed = [name for name, status in statuses.items() if status == "failed"]
    if failed:
        raise ReportIncomplete(f"Lead {lead['id']}: {event.label} to {', '.join(failed)} failed.")
    return statuses


def summary(statuses: dict[str, str]) -> str:
    """The job's result: each platform's status, or that none is configured."""
    return ", ".join(f"{name}: {status}" for name, status in statuses.items()) or "none configured"
