"""The Google Ads offline-conversions file from `flask conversions google-ads`: Google's
"conversions from clicks" template (the Parameters line, the header, one click id per row, the
time in the declared zone), holding only purchases from a Google click whose seller did not opt
out, since the day asked for."""

from __future__ import annotations

import csv
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.leads import history, store
from tests.helpers import buy_lead, lead_work_done, save_sample_lead

GCLID = "Cj0KCQiA5fetBhC9ARIsAP1UMgE_test-gclid_0123456789"
GBRAID = "0AAAAADwvxR_gbraid-0123456789"
WBRAID = "CjgKEAjw_wbraid-0123456789"
HEADER = [
    "Google Click ID",
    "GBRAID",
    "WBRAID",
    "Conversion Name",
    "Conversion Time",
    "Conversion Value",
    "Conversion Currency",
    "Order ID",
]
NEW_YORK = ZoneInfo("America/New_York")


def upload(app, *args: str) -> tuple[str, list[dict]]:
    """The command's first line and its conversions, by column."""
    result = app.test_cli_runner().invoke(args=["conversions", "google-ads", *args])
    assert result.exit_code == 0, result.output
    first, *rest = result.output.splitlines()
    reader = csv.reader(rest)
    assert next(reader) == HEADER
    return first, [dict(zip(HEADER, row, strict=True)) for row in reader]


def reference(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["reference"]


def recorded_in_new_york(app, lead_id: int) -> str:
    """When staff recorded the lead bought, as the file writes it."""
    with app.app_context():
        [event] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "bought"]
    return datetime.fromisoformat(event["at"]).astimezone(NEW_YORK).strftime("%Y-%m-%d %H:%M:%S")


def day_in_new_york(days_ago: int) -> str:
    return (datetime.now(NEW_YORK).date() - timedelta(days=days_ago)).isoformat()


@pytest.fixture
def ads_app(make_app):
    return make_app(GOOGLE_ADS_CONVERSION_NAME="Watch bought, offline")


def test_the_file_is_googles_template_with_only_purchases_from_google_clicks(ads_app):
    app = ads_app
    by_gclid = save_sample_lead(app, gclid=GCLID, wbraid=WBRAID)
    by_wbraid = save_sample_lead(app, gbraid=GBRAID, wbraid=WBRAID)
    by_gbraid = save_sample_lead(app, gbraid=GBRAID)
    no_click = save_sample_lead(app, fbc="fb.1.1596403881668.IwAR2F4-dbP0l7Mn1Iaw")
    opted_out = save_sample_lead(app, gclid=GCLID, ad_opt_out="choice")
    not_bought = save_sample_lead(app, gclid=GCLID)
    before_since = save_sample_lead(app, gclid=GCLID)
    buy_lead(app, by_gclid, amount=9500)
    buy_lead(app, by_wbraid, amount=12000, paid_days_ago=10)
    buy_lead(app, by_gbraid, amount=4100, paid_days_ago=2)
    for lead_id in (no_click, opted_out):
        buy_lead(app, lead_id)
    buy_lead(app, before_since, paid_days_ago=20)
    lead_work_done(app)

    first, rows = upload(app, "--since", day_in_new_york(15))
    assert first == "Parameters:TimeZone=America/New_York"
    assert [row["Order ID"] for row in rows] == [
        reference(app, lead_id) for lead_id in (by_wbraid, by_gbraid, by_gclid)
    ]  # in the order they were bought; none of the others, nor the one not bought
    assert reference(app, not_bought) not in {row["Order ID"] for row in rows}
    wbraid_row, gbraid_row, gclid_row = rows
    assert (gclid_row["Google Click ID"], gclid_row["GBRAID"], gclid_row["WBRAID"]) == (
        GCLID,
        "",
        "",
    )  # one click id per row: the gclid first
    assert (wbraid_row["Google Click ID"], wbraid_row["GBRAID"], wbraid_row["WBRAID"]) == (
        "",
        "",
        WBRAID,
    )  # then the web click's wbraid
    assert (gbraid_row["GBRAID"], gbraid_row["WBRAID"]) == (GBRAID, "")
    assert gclid_row == gclid_row | {
        "Conversion Name": "Watch bought, offline",
        "Conversion Time": recorded_in_new_york(app, by_gclid),
        "Conversion Value": "9500.00",
        "Conversion Currency": "USD",
    }
    # Paid on an earlier day: noon of that day, in the zone of the Parameters line.
    assert wbraid_row["Conversion Time"] == f"{day_in_new_york(10)} 12:00:00"
    assert wbraid_row["Conversion Value"] == "12000.00"


def test_the_file_says_the_business_time_zone_and_writes_its_local_times(make_app):
    app = make_app(BUSINESS_TIMEZONE="America/Los_Angeles")
    lead_id = save_sample_lead(app, gclid=GCLID)
    buy_lead(app, lead_id, paid_days_ago=3)
    lead_work_done(app)
    first, [row] = upload(app)
    day = (datetime.now(ZoneInfo("America/Los_Angeles")).date() - timedelta(days=3)).isoformat()
    assert first == "Parameters:TimeZone=America/Los_Angeles"
    assert row["Conversion Time"] == f"{day} 12:00:00"
    assert row["Conversion Name"] == "Purchase"  # GOOGLE_ADS_CONVERSION_NAME's default


def test_the_file_carries_the_margin_value_when_set(make_app):
    app = make_app(CONVERSION_VALUE="margin", CONVERSION_MARGIN_PERCENT="12.5")
    lead_id = save_sample_lead(app, gclid=GCLID)
    buy_lead(app, lead_id, amount=9999)
    lead_work_done(app)
    _, [row] = upload(app)
    assert row["Conversion Value"] == "1249.88"


def test_without_purchases_the_file_is_the_template_alone(make_app):
    first, rows = upload(make_app(), "--since", "2026-01-01")
    assert first == "Parameters:TimeZone=America/New_York" and rows == []


def test_a_since_that_is_not_a_date_is_refused(make_app):
    result = make_app().test_cli_runner().invoke(args=["conversions", "google-ads", "--since", "x"])
    assert result.exit_code == 2
    assert "'x' does not match the format '%Y-%m-%d'" in result.output
