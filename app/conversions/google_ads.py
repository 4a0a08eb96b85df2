"""The Google Ads offline-conversions file: one row per purchase that came from a Google ad
click, for staff to upload in Google Ads (Goals > Conversions > Uploads).

The format is Google's "conversions from clicks" upload template, as Google Ads Help describes
it in "Import conversions from ad clicks into Google Ads" (support.google.com/google-ads/answer/
7014069) and its CSV template: a first line `Parameters:TimeZone=<zone>`, then the header row
and one row per conversion. Columns:

- `Google Click ID`, `GBRAID`, `WBRAID`: the click; exactly one per row (Google takes one click
  identifier per conversion: the Ads API's ClickConversion refuses gclid with gbraid or wbraid).
  A lead with several sends its gclid, else its wbraid (iOS web clicks), else its gbraid.
- `Conversion Name`: the conversion action's name in Google Ads, GOOGLE_ADS_CONVERSION_NAME.
- `Conversion Time`: `yyyy-MM-dd HH:mm:ss`, local time in the zone of the Parameters line. That
  zone is BUSINESS_TIMEZONE as a time zone ID (America/New_York), which the help recommends
  over a fixed offset so that daylight saving time is right; Google rejects a `T` or an offset
  written `+00:00` in this column, so the zone is said once, in the Parameters line.
- `Conversion Value` (the value of app/conversions/events.py, to the cent),
  `Conversion Currency` (USD) and `Order ID` (the lead's reference: Google counts an order id
  once per conversion action, so uploading the same purchase again adds nothing).

Only bought leads with a Google click id whose seller did not opt out are in the file.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime, timedelta

from flask import current_app

from app.conversions.events import CURRENCY, Purchase, purchase_from
from app.leads.db import get_db
from app.leads.display import business_zone
from app.leads.state import State

CLICK_COLUMNS = {"gclid": "Google Click ID", "gbraid": "GBRAID", "wbraid": "WBRAID"}
CLICK_PREFERENCE = ("gclid", "wbraid", "gbraid")
COLUMNS = (
    *CLICK_COLUMNS.values(),
    "Conversion Name",
    "Conversion Time",
    "Conversion Value",
    "Conversion Currency",
    "Order ID",
)
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
LOOKBACK = timedelta(days=90)  # Google Ads' longest click window: older clicks are refused


def default_since() -> date:
    """The first day a file covers unless told: 90 days back in business time, since Google
    refuses the conversion of a click older than that."""
    return (datetime.now(UTC).astimezone(business_zone()) - LOOKBACK).date()


def click_id(lead: dict) -> tuple[str, str]:
    """(column, id) of the one click id the row carries, by Google's preference."""
    kind = next(kind for kind in CLICK_PREFERENCE if lead[kind])
    return CLICK_COLUMNS[kind], lead[kind]


def eligible_purchases(since: date) -> list[tuple[dict, Purchase]]:
    """(lead, purchase) of each bought lead with a Google click id and no opt-out whose
    purchase was on or after `since` (business time), in the order they happened."""
    rows = get_db().execute(
        "SELECT leads.*, lead_events.at AS bought_at, lead_events.data AS bought_data "
        "FROM leads JOIN lead_events ON lead_events.lead_id = leads.id "
        "AND lead_events.kind = 'state_changed' "
        f"AND json_extract(lead_events.data, '$.to') = '{State.BOUGHT}' "
        f"WHERE leads.state = '{State.BOUGHT}' AND leads.ad_opt_out IS NULL "
        "AND leads.erased_at IS NULL "
        "AND (coalesce(leads.gclid, '') != '' OR coalesce(leads.gbraid, '') != '' "
        "OR coalesce(leads.wbraid, '') != '')"
    )
    zone = business_zone()
    found = []
    for row in rows:
        lead = dict(row)
        purchase = purchase_from(lead, lead["bought_at"], json.loads(lead["bought_data"]))
        if purchase.time.astimezone(zone).date() >= since:
            found.append((lead, purchase))
    return sorted(found, key=lambda pair: pair[1].time)


def conversion_row(lead: dict, purchase: Purchase, name: str) -> list[str]:
    """One upload row: the click id in its own column, the others empty."""
    column, value = click_id(lead)
    clicks = [value if heading == column else "" for heading in CLICK_COLUMNS.values()]
    moment = purchase.time.astimezone(business_zone()).strftime(TIME_FORMAT)
    return [*clicks, name, moment, f"{purchase.value:.2f}", CURRENCY, purchase.reference]


def write_upload(file: io.TextIOBase, since: date) -> int:
    """Write the upload file of purchases since `since` to `file`; how many rows it holds."""
    config = current_app.config
    writer = csv.writer(file, lineterminator="\r\n")
    writer.writerow([f"Parameters:TimeZone={config['BUSINESS_TIMEZONE']}"])
    writer.writerow(COLUMNS)
    purchases = eligible_purchases(since)
    for lead, purchase in purchases:
        writer.writerow(conversion_row(lead, purchase, config["GOOGLE_ADS_CONVERSION_NAME"]))
    return len(purchases)


def upload_file(since: date) -> tuple[str, int]:
    """The upload file's text and its number of conversions."""
    buffer = io.StringIO()
    count = write_upload(buffer, since)
    return buffer.getvalue(), count
