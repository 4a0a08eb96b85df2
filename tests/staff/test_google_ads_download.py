"""The Google Ads offline-conversions file from the staff area (endpoint conversions.google_ads):
staff only, both factors again as for the leads export, the same file the command prints, and
every download audited."""

from __future__ import annotations

import json

from flask import url_for

from app.leads.db import transaction
from tests.helpers import buy_lead, lead_work_done

GCLID = "Cj0KCQiA5fetBhC9ARIsAP1UMgE_test-gclid_0123456789"
PATH = "/staff/conversions/google-ads.csv"


def test_the_download_has_the_endpoint_the_dashboard_links_to(app):
    with app.test_request_context():
        assert url_for("staff.google_ads", since="2026-01-01") == PATH + "?since=2026-01-01"


def test_anonymous_visitors_are_sent_to_sign_in_and_get_no_file(app, add_lead):
    buy_lead(app, add_lead(gclid=GCLID))
    lead_work_done(app)
    response = app.test_client().get(PATH)
    assert response.status_code == 303 and response.headers["Location"] == "/staff/login"
    assert GCLID not in response.get_data(as_text=True)


def test_staff_download_the_file_after_both_factors_again_and_it_is_audited(
    app, staff, account, add_lead
):
    lead_id = add_lead(gclid=GCLID)
    buy_lead(app, lead_id)
    lead_work_done(app)
    client = app.test_client()
    staff.sign_in(client, account)
    with app.app_context(), transaction() as db:  # signed in longer ago than STAFF_REAUTH_MINUTES
        db.execute("UPDATE staff_sessions SET verified_at = '2000-01-01T00:00:00+00:00'")
    detour = client.get(PATH + "?since=2026-01-01")
    assert detour.status_code == 303 and detour.headers["Location"] == "/staff/confirm"

    staff.clock.advance()
    again = {"password": account.password, "code": account.code(staff.clock())}
    confirmed = staff.post(client, "/staff/confirm", again)
    assert confirmed.headers["Location"] == PATH + "?since=2026-01-01"  # back to the download
    response = client.get(PATH + "?since=2026-01-01")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    disposition = response.headers["Content-Disposition"]
    assert disposition == 'attachment; filename="google-ads-conversions-since-2026-01-01.csv"'
    assert response.headers["Cache-Control"] == "no-store"
    printed = app.test_cli_runner().invoke(
        args=["conversions", "google-ads", "--since", "2026-01-01"]
    )
    assert response.get_data(as_text=True).replace("\r\n", "\n") == printed.output
    assert GCLID in printed.output

    with app.app_context(), transaction() as db:
        [entry] = db.execute("SELECT * FROM audit WHERE action = 'conversions_exported'")
    assert entry["staff_id"] is not None
    assert json.loads(entry["data"]) == {
        "platform": "google_ads",
        "count": 1,
        "since": "2026-01-01",
    }


def test_a_since_that_is_not_a_date_is_a_bad_request(app, staff, account):
    client = app.test_client()
    staff.sign_in(client, account)
    assert client.get(PATH + "?since=last-week").status_code == 400
