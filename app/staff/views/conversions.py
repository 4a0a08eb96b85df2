"""The staff download of the Google Ads offline-conversions file (app/conversions/google_ads.py):
`/staff/conversions/google-ads.csv?since=YYYY-MM-DD`, endpoint `staff.google_ads`.

The file holds Google click ids, each pointing to one person's browser, so it is guarded as the
leads export is: both factors again within STAFF_REAUTH_MINUTES, and every download audited.
"""

from __future__ import annotations

from datetime import date

from flask import Response, abort, request

from app.conversions import google_ads as upload
from app.staff.auth import record, require_recent_auth


def requested_since() -> date:
    """The `since` day of the query string (YYYY-MM-DD), by default 90 days back; 400 if it
    is not a date."""
    text = request.args.get("since", "").strip()
    if not text:
        return upload.default_since()
    try:
        return date.fromisoformat(text)
    except ValueError:
        abort(400)


@require_recent_auth
def google_ads():
    """The Google Ads upload file of purchases since a day, as a download; audited."""
    since = requested_since()
    text, count = upload.upload_file(since)
    record(
        "conversions_exported",
        data={"platform": "google_ads", "count": count, "since": since.isoformat()},
    )
    name = f"google-ads-conversions-since-{since.isoformat()}.csv"
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
