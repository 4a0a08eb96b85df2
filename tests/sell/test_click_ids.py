"""Ad click ids, the landing page and the referring site, captured with a lead: as the
island posts them, through the plain form's hidden fields, checked and expired on the server,
and shown in `flask leads show`, the CSV export and the Meta Lead event."""

from __future__ import annotations

import csv
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest

from app.leads import search, store
from app.sale import erasure, lifecycle
from app.sell import attribution
from tests.helpers import JSON, database_at_version, lead_work_done, photo, post, sample_lead

FBCLID = "IwAR2F4-dbP0l7Mn1IawQQGCINEz7PYXQvwjNwB_qa2ofrHyiLjcbCRxTDMgk"
GCLID = "Cj0KCQiA5fetBhC9ARIsAP1UMgE_test-gclid_0123456789"
GBRAID = "0AAAAADwvxR_gbraid-0123456789"
WBRAID = "CjgKEAjw_wbraid-0123456789"
FBP = "fb.1.1596403881668.1116446470"
CLICK_COLUMNS = ("fbc", "fbp", "gclid", "gbraid", "wbraid", "google_click_at")
ATTRIBUTION_COLUMNS = (*CLICK_COLUMNS, "landing_page", "referrer_host")


def ago(**delta) -> datetime:
    return datetime.now(UTC) - timedelta(**delta)


def ms(moment: datetime) -> str:
    return str(int(moment.timestamp() * 1000))


def fbc(seen: datetime, fbclid: str = FBCLID) -> str:
    return f"fb.1.{ms(seen)}.{fbclid}"


def submitted(client, fields: dict, plain: bool = False) -> dict:
    """The lead an island post (JSON) or a plain form post of these fields saved."""
    response = post(client, fields, [photo()], headers=None if plain else JSON)
    if plain:
        assert response.status_code == 303, response.status_code
    else:
        assert response.get_json()["success"], response.get_json()
    lead_work_done(client.application)
    with client.application.app_context():
        return store.get_lead(search.list_leads()[0]["id"])


def hidden_fields(html: str) -> dict[str, str]:
    """The sell page's hidden fields outside the island, as the plain form posts them."""
    found = re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)" form="sell-form"', html
    )
    return {name: unescape(value) for name, value in found}


def test_island_post_stores_click_ids_landing_page_and_referrer_host(client):
    seen = ago(days=2)
    client.set_cookie("_fbp", FBP)
    lead = submitted(
        client,
        {
            "fbc": fbc(seen),
            "gclid": GCLID,
            "gbraid": GBRAID,
            "wbraid": WBRAID,
            "google_click_seen": ms(seen),
            "landing_page": "/sell-watch-boston",
            "referrer_host": "www.google.com",
            "utm_source": "google",
        },
    )
    assert lead["fbc"] == fbc(seen) and lead["fbp"] == FBP
    assert (lead["gclid"], lead["gbraid"], lead["wbraid"]) == (GCLID, GBRAID, WBRAID)
    assert lead["google_click_at"] == seen.isoformat(timespec="seconds")
    assert lead["landing_page"] == "/sell-watch-boston"
    assert lead["referrer_host"] == "www.google.com" and lead["utm_source"] == "google"


def test_plain_form_turns_its_own_addresses_fbclid_into_fbc_in_metas_format(client):
    query = f"/sell?fbclid={FBCLID}&gclid={GCLID}&utm_source=facebook"
    before = datetime.now(UTC)
    html = client.get(query, headers={"Referer": "https://l.facebook.com/"}).get_data(as_text=True)
    fields = hidden_fields(html)
    made = re.fullmatch(rf"fb\.1\.(\d{{13}})\.{FBCLID}", fields["fbc"])
    assert made, fields["fbc"]
    assert before.timestamp() - 1 <= int(made[1]) / 1000 <= datetime.now(UTC).timestamp()
    assert fields["gclid"] == GCLID and fields["google_click_seen"] == made[1]
    assert fields["landing_page"] == "/sell" and fields["referrer_host"] == "l.facebook.com"
    lead = submitted(client, fields, plain=True)
    assert lead["fbc"] == fields["fbc"] and lead["gclid"] == GCLID
    assert (lead["landing_page"], lead["referrer_host"]) == ("/sell", "l.facebook.com")
    assert lead["utm_source"] == "facebook"


def test_plain_form_takes_the_campaign_of_the_page_of_this_site_that_linked_to_it(client):
    landing = f"http://localhost/sell-watch-boston?gclid={GCLID}&utm_source=google&utm_medium=cpc"
    html = client.get("/sell", headers={"Referer": landing}).get_data(as_text=True)
    fields = hidden_fields(html)
    assert fields["gclid"] == GCLID and fields["utm_source"] == "google"
    assert fields["landing_page"] == "/sell-watch-boston" and fields["referrer_host"] == ""
    lead = submitted(client, fields, plain=True)
    assert (lead["gclid"], lead["utm_medium"], lead["landing_page"]) == (
        GCLID,
        "cpc",
        "/sell-watch-boston",
    )


def test_plain_form_from_a_page_of_this_site_without_a_campaign_claims_no_landing_page(client):
    html = client.get("/sell", headers={"Referer": "http://localhost/blog"}).get_data(as_text=True)
    fields = hidden_fields(html)
    assert fields["landing_page"] == fields["referrer_host"] == fields["gclid"] == ""


def test_fbc_is_fb_1_creation_time_in_ms_and_the_fbclid():
    seen = datetime(2025, 3, 4, 5, 6, 7, 890_000, tzinfo=UTC)
    assert attribution.fbc_from_fbclid(FBCLID, seen) == f"fb.1.1741064767890.{FBCLID}"
    assert attribution.fbc_from_fbclid("short", seen) == ""


MALFORMED = {
    "fbc": f"fb.1.123.{FBCLID}",  # creation time not in ms
    "gclid": "Cj0KCQiA<script>alert(1)</script>",
    "gbraid": "g" * 513,
    "landing_page": "https://elsewhere.example/sell",
    "referrer_host": "https://www.google.com/search?q=sell+my+rolex",
}


def test_malformed_values_are_dropped_and_the_lead_is_still_saved(client):
    client.set_cookie("_fbp", "fb.1.not-a-time.123")
    lead = submitted(client, MALFORMED | {"wbraid": WBRAID, "google_click_seen": ms(ago(hours=1))})
    dropped = ("fbc", "fbp", "gclid", "gbraid", "landing_page", "referrer_host")
    assert [lead[column] for column in dropped] == [None] * len(dropped)
    assert lead["wbraid"] == WBRAID and lead["google_click_at"]  # a bad id is dropped alone


@pytest.mark.parametrize(
    "path",
    ["//elsewhere.example/x", "/static/build/manifest.json", "/status/abc123", "/staff/leads"],
)
def test_landing_page_is_only_ever_a_public_page_of_this_site(client, path):
    assert submitted(client, {"landing_page": path})["landing_page"] is None


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "127.0.0.1:5000", "a..b", "a b.com"])
def test_referrer_host_is_another_sites_host_name_only(client, host):
    assert submitted(client, {"referrer_host": host})["referrer_host"] is None


def test_clicks_past_their_platforms_window_are_dropped(client):
    meta, google = attribution.META_CLICK_WINDOW, attribution.GOOGLE_CLICK_WINDOW
    stale = submitted(
        client,
        {
            "fbc": fbc(ago() - meta - timedelta(minutes=5)),
            "gclid": GCLID,
            "google_click_seen": ms(ago() - google - timedelta(minutes=5)),
        },
    )
    assert (stale["fbc"], stale["gclid"], stale["google_click_at"]) == (None, None, None)
    fresh = submitted(
        client,
        {
            "fbc": fbc(ago() - meta + timedelta(minutes=5)),
            "gclid": GCLID,
            "google_click_seen": ms(ago() - google + timedelta(minutes=5)),
        },
    )
    assert fresh["fbc"].startswith("fb.1.") and fresh["gclid"] == GCLID


def test_clicks_without_a_time_or_from_the_future_are_dropped(client):
    lead = submitted(client, {"gclid": GCLID, "fbc": fbc(datetime.now(UTC) + timedelta(days=3))})
    assert (lead["gclid"], lead["fbc"]) == (None, None)


def test_metas_own_fbc_cookie_is_kept_when_no_click_id_was_posted(client):
    cookie = fbc(ago(days=1))
    client.set_cookie("_fbc", cookie)
    assert submitted(client, {})["fbc"] == cookie
    client.set_cookie("_fbc", fbc(ago(days=8)))
    assert submitted(client, {})["fbc"] is None


def test_leads_show_and_csv_export_carry_every_attribution_column(client, runner, tmp_path):
    seen = ago(days=1)
    fields = {
        "fbc": fbc(seen),
        "gclid": GCLID,
        "google_click_seen": ms(seen),
        "landing_page": "/sell-rolex-watch",
        "referrer_host": "duckduckgo.com",
    }
    lead = submitted(client, fields)
    shown = runner.invoke(args=["leads", "show", str(lead["id"])]).output
    for column in ("fbc", "gclid", "google_click_at", "landing_page", "referrer_host"):
        assert re.search(rf"^{column}\s+{re.escape(str(lead[column]))}$", shown, re.M), column
    target = tmp_path / "leads.csv"
    runner.invoke(args=["leads", "export", "--csv", str(target)])
    with target.open(encoding="utf-8") as file:
        [row] = list(csv.DictReader(file))
    assert {column: row[column] for column in ATTRIBUTION_COLUMNS} == {
        column: lead[column] or "" for column in ATTRIBUTION_COLUMNS
    }


def test_erasure_blanks_click_ids_and_keeps_the_landing_page(app):
    record = sample_lead(fbc=fbc(ago(days=1)), fbp=FBP, gclid=GCLID, landing_page="/blog")
    with app.app_context():
        lead_id, _created = store.save_lead(record, [])
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "seller_declined"}, "new")
        erasure.erase(lead_id, "staff:1")
        lead = store.get_lead(lead_id)
    assert [lead[column] for column in ("fbc", "fbp", "gclid")] == [None, None, None]
    assert lead["landing_page"] == "/blog"


def test_an_older_database_gains_the_attribution_columns(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    old = database_at_version(path, 14)  # the release before step 15 added them
    old.commit()
    old.close()
    make_app(LEADS_DB=path)  # migrated as the app starts
    db = sqlite3.connect(path)
    columns = {row[1] for row in db.execute("PRAGMA table_info(leads)")}
    db.close()
    assert set(ATTRIBUTION_COLUMNS) <= columns


def test_meta_lead_event_carries_fbc_and_fbp_as_they_came(make_app, http_receiver, tmp_path):
    app = make_app(
        LEADS_DB=str(tmp_path / "leads.db"),
        META_PIXEL_ID="1234567890",
        META_CAPI_TOKEN="test-token",
        META_CAPI_URL=http_receiver.url + "/meta/{pixel_id}/events",
    )
    click = fbc(ago(hours=3))
    client = app.test_client()
    client.set_cookie("_fbp", FBP)
    submitted(client, {"fbc": click})
    [call] = http_receiver.wait_for(1)
    user_data = call["json"]["data"][0]["user_data"]
    assert (user_data["fbc"], user_data["fbp"]) == (click, FBP)
