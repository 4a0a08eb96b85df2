"""The seller's "do not sell or share" choice holds whenever it is expressed (F3): GPC or the
choices cookie on their status page, or told to staff, marks the lead, and every send and the
Google Ads file read the lead's choice when they run. An opted-out visitor's pages carry a
CSP naming no ad host. The GA client id is kept only in the shape GA writes it (F9)."""

from __future__ import annotations

import time

import pytest

from app.conversions import google_ads, records
from app.leads import history, store
from app.privacy.choice import COOKIE
from app.sell.submission import ga_client_id
from tests.helpers import buy_lead, give_token, lead_work_done, save_sample_lead

GCLID = "Cj0KCQiA5fetBhC9ARIsAP1UMgE_test-gclid_0123456789"
CLICKS = {"fbc": "fb.1.1596403881668.IwAR2F4-dbP0l7Mn1Iaw", "ga_client_id": "1234567.1700000000"}
AD_HOSTS = ("facebook", "google")


def opt_out_of(app, lead_id: int) -> str | None:
    with app.app_context():
        return store.get_lead(lead_id)["ad_opt_out"]


@pytest.mark.parametrize(
    ("signal", "how"),
    [({"headers": {"Sec-GPC": "1"}}, "gpc"), ({"cookie": True}, "choice")],
    ids=["gpc", "choices-cookie"],
)
def test_a_seller_who_opts_out_on_their_status_page_is_never_reported(
    make_app, pipeline_settings, http_receiver, signal, how
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, gclid=GCLID, **CLICKS)
    lead_work_done(app)
    token, client = give_token(app, lead_id), app.test_client()
    assert client.get(f"/status/{token}").status_code == 200
    assert opt_out_of(app, lead_id) is None  # a visit without the signal changes nothing
    if signal.get("cookie"):
        client.set_cookie(COOKIE, "1")  # as the choices page sets it
    client.get(f"/status/{token}", headers=signal.get("headers", {}))
    assert opt_out_of(app, lead_id) == how
    http_receiver.requests.clear()
    buy_lead(app, lead_id)
    lead_work_done(app)
    time.sleep(0.3)
    assert http_receiver.requests == []
    with app.app_context():
        statuses = {row["platform"]: row["status"] for row in records.lead_outcomes(lead_id)
                    if row["event"] == "purchase"}  # fmt: skip
        assert statuses == {"meta": "opted_out", "ga4": "opted_out"}
        kinds = [event["kind"] for event in history.lead_events(lead_id)]
        assert kinds.count("ad_opt_out") == 1
        text, rows = google_ads.upload_file(google_ads.default_since())
    assert rows == 0 and GCLID not in text


def test_an_opted_out_visitor_gets_a_csp_naming_no_ad_host(make_app):
    app = make_app(META_PIXEL_ID="1234567890", GA4_MEASUREMENT_ID="G-TEST12345")
    client = app.test_client()
    usual = client.get("/sell").headers["Content-Security-Policy"]
    assert all(host in usual for host in AD_HOSTS)
    for headers in ({"Sec-GPC": "1"},):
        answer = client.get("/sell", headers=headers)
        policies = answer.headers.get_all("Content-Security-Policy")
        assert len(policies) == 1 and not any(host in policies[0] for host in AD_HOSTS)
        assert "X-Without-Ads" not in answer.headers
        assert "connect.facebook.net" not in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("cookie", "kept"),
    [
        ("GA1.1.1234567890.1700000000", "1234567890.1700000000"),
        ("GA1.2.987.654", "987.654"),
        ("GA1.1.<script>.1", None),
        ("GA1.1.1.1" + "9" * 16_000, None),
        ("GA1.1.12345", None),
        ("", None),
    ],
    ids=["usual", "depth-2", "markup", "16-kb", "cut-short", "none"],
)
def test_the_ga_client_id_is_kept_only_in_gas_own_shape(cookie, kept):
    assert ga_client_id({"_ga": cookie}) == kept
