"""The seller's privacy choice: Global Privacy Control and the "Your privacy choices"
page mark the lead, keep the pixel and the tag off the sell page, and stop every server-side
event; the page works without JavaScript and is never cached or frozen."""

import re

import pytest

from app.leads import history, store
from app.leads.db import get_db
from app.rendering.freeze import frozen_paths, is_anonymous_page
from app.sale.timeline import entries
from tests.helpers import JSON, PRODUCTION, SITE, lead_work_done, page_html, post, sample_lead
from worker.jobs import send_conversions

CHOICES = "/privacy-choices"
GPC = {"Sec-GPC": "1"}
PIXEL = {"META_PIXEL_ID": "1234567890", "GA4_MEASUREMENT_ID": "G-TEST123"}
YEAR = 365 * 24 * 3600


def choices_token(client, headers=None) -> str:
    html = client.get(CHOICES, headers=headers).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def choose(client, choice: str, **options):
    """Post the choices page's form as a browser without JavaScript would."""
    data = {"csrf_token": choices_token(client), "choice": choice}
    return client.post(CHOICES, data=data, **options)


def choice_cookie(response) -> str:
    """The Set-Cookie line of the choice's cookie (the flash message sets the session's too)."""
    [cookie] = [
        line for line in response.headers.getlist("Set-Cookie") if "privacy_opt_out" in line
    ]
    return cookie


def state_of(html: str) -> str:
    return re.search(r'data-choice-state="(on|off)"', html).group(1)


def saved_lead(app, event_id: str) -> dict:
    with app.app_context():
        row = get_db().execute("SELECT id FROM leads WHERE meta_event_id = ?", (event_id,))
        return store.get_lead(row.fetchone()["id"])


# Marking the lead


def test_sec_gpc_on_the_sell_form_post_marks_the_lead(app, client):
    response = post(client, {"metaEventId": "evt-gpc-000001"}, headers=JSON | GPC)
    assert response.get_json()["success"]
    assert saved_lead(app, "evt-gpc-000001")["ad_opt_out"] == "gpc"


def test_the_choice_cookie_marks_the_lead_even_on_the_plain_form(app, client):
    assert choose(client, "opt-out").status_code == 303
    response = post(client, {"metaEventId": "evt-choice-0001"})
    assert response.status_code == 303  # the plain form's redirect to /sell/thanks
    assert saved_lead(app, "evt-choice-0001")["ad_opt_out"] == "choice"


def test_a_lead_without_signal_or_choice_is_not_marked(app, client):
    assert post(client, {"metaEventId": "evt-open-00001"}, headers=JSON).get_json()["success"]
    assert saved_lead(app, "evt-open-00001")["ad_opt_out"] is None


def test_what_the_browser_reports_can_add_an_opt_out_but_nothing_else(app, client):
    # The island sends navigator.globalPrivacyControl as adOptOut: it can only ever say no.
    post(client, {"metaEventId": "evt-script-0001", "adOptOut": "gpc"}, headers=JSON)
    post(client, {"metaEventId": "evt-script-0002", "adOptOut": "yes please"}, headers=JSON)
    assert saved_lead(app, "evt-script-0001")["ad_opt_out"] == "gpc"
    assert saved_lead(app, "evt-script-0002")["ad_opt_out"] is None


def test_the_lead_column_takes_only_the_two_ways_of_opting_out(app):
    with app.app_context(), pytest.raises(Exception, match="CHECK constraint"):
        store.save_lead({**sample_lead(), "ad_opt_out": "maybe"}, [])


# Nothing leaves for an opted-out lead


def test_an_opted_out_lead_sends_nothing_while_an_opted_in_one_does(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    client = app.test_client()
    post(client, {"metaEventId": "evt-optout-0001"}, headers=JSON | GPC)
    post(client, {"metaEventId": "evt-optin-00001"}, headers=JSON)
    lead_work_done(app)
    calls = http_receiver.wait_for(2)
    assert sorted(call["path"].split("?")[0] for call in calls) == [
        "/meta/1234567890/events",
        "/mp/collect",
    ]
    meta = next(call["json"] for call in calls if call["path"].startswith("/meta/"))
    assert [event["event_id"] for event in meta["data"]] == ["evt-optin-00001"]
    opted_out = saved_lead(app, "evt-optout-0001")
    assert opted_out["conversions_sent_at"]  # done, so requeue never tries again
    with app.app_context():
        [entry] = [
            entry
            for entry in entries(history.lead_events(opted_out["id"]), {})
            if "conversion" in entry.title.lower()
        ]
        assert send_conversions(opted_out["id"]) == "already done"
    assert entry.title == "No conversion events sent: the seller opted out"
    assert entry.details == [("How", "Global Privacy Control signal")]
    assert len(http_receiver.requests) == 2


def test_the_job_says_why_it_sent_nothing(make_app, pipeline_settings, http_receiver):
    app = make_app(**pipeline_settings)
    with app.app_context():
        lead_id, _ = store.save_lead({**sample_lead(), "ad_opt_out": "choice"}, [])
        assert send_conversions(lead_id) == "not sent: the seller opted out (choice)"
        events = history.lead_events(lead_id)
    assert events[-1]["data"] == {"work": "conversions_sent", "withheld": "choice"}
    assert http_receiver.requests == []


# The sell page without the pixel and the tag


def test_sell_page_carries_pixel_and_tag_only_for_visitors_who_did_not_opt_out(make_app):
    client = make_app(**PIXEL).test_client()
    html = page_html(client)
    assert 'name="meta-pixel-id"' in html and 'name="ga4-measurement-id"' in html
    assert "https://www.facebook.com/tr?id=1234567890" in html
    gpc_html = client.get("/sell", headers=GPC).get_data(as_text=True)
    choose(client, "opt-out")
    chosen_html = page_html(client)
    for opted_out in (gpc_html, chosen_html):
        assert "meta-pixel-id" not in opted_out and "ga4-measurement-id" not in opted_out
        assert "facebook.com/tr" not in opted_out
        assert 'id="sell-form"' in opted_out  # the form itself is the same


# The choices page, without JavaScript


def test_opting_out_without_javascript_sets_the_cookie_and_confirms_it(client):
    page = client.get(CHOICES)
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "private, no-store"
    html = page.get_data(as_text=True)
    assert state_of(html) == "on" and 'value="opt-out"' in html

    response = choose(client, "opt-out")
    assert response.status_code == 303 and response.headers["Location"] == CHOICES
    cookie = choice_cookie(response)
    assert cookie.startswith("privacy_opt_out=1;")
    assert f"Max-Age={YEAR}" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "HttpOnly" not in cookie  # frozen pages' scripts read it

    html = client.get(CHOICES).get_data(as_text=True)
    assert state_of(html) == "off"
    assert re.search(r'role="status"[^>]*data-confirmation>.*Saved: you have opted out', html, re.S)
    assert 'value="opt-in"' in html and "Opt back in" in html


def test_opting_back_in_removes_the_cookie_and_confirms_it(client):
    choose(client, "opt-out")
    client.get(CHOICES)  # the opt-out's confirmation, shown once
    response = choose(client, "opt-in")
    assert response.status_code == 303
    cookie = choice_cookie(response)
    assert cookie.startswith("privacy_opt_out=;") and "Max-Age=0" in cookie
    html = client.get(CHOICES).get_data(as_text=True)
    assert state_of(html) == "on"
    assert "Saved: you have opted back in" in html
    assert "Saved: you have opted out" not in html


def test_the_page_says_the_browsers_gpc_signal_is_already_honoured(client):
    html = client.get(CHOICES, headers=GPC).get_data(as_text=True)
    assert state_of(html) == "off"
    gpc = re.search(r"<p[^>]*data-gpc>(.*?)</p>", html, re.S).group(1)
    assert "Global Privacy Control signal, and we already honor it" in gpc
    assert "data-gpc" not in client.get(CHOICES).get_data(as_text=True)


def test_a_post_without_its_token_changes_nothing_and_says_so(client):
    response = client.post(CHOICES, data={"choice": "opt-out"})
    assert response.status_code == 400
    assert "privacy_opt_out" not in str(response.headers.getlist("Set-Cookie"))
    html = response.get_data(as_text=True)
    assert "your choice was not saved" in html and state_of(html) == "on"


def test_an_unknown_choice_is_refused(client):
    data = {"csrf_token": choices_token(client), "choice": "sell-everything"}
    response = client.post(CHOICES, data=data)
    assert response.status_code == 400
    assert "privacy_opt_out" not in str(response.headers.getlist("Set-Cookie"))


def test_production_keeps_the_choice_in_a_secure_host_only_cookie(make_app):
    client = make_app(**PRODUCTION).test_client()
    html = client.get(CHOICES, base_url=SITE).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    response = client.post(CHOICES, data={"csrf_token": token, "choice": "opt-out"}, base_url=SITE)
    assert response.status_code == 303
    cookie = choice_cookie(response)
    assert cookie.startswith("__Host-privacy_opt_out=1;")
    assert "Secure" in cookie and "Domain" not in cookie and "Path=/" in cookie
    assert state_of(client.get(CHOICES, base_url=SITE).get_data(as_text=True)) == "off"


def test_the_page_is_never_page_cached_or_frozen_with_a_visitors_state(app):
    opted_out = app.test_client()
    choose(opted_out, "opt-out")
    assert state_of(opted_out.get(CHOICES).get_data(as_text=True)) == "off"
    assert state_of(app.test_client().get(CHOICES).get_data(as_text=True)) == "on"
    assert not is_anonymous_page(app, CHOICES)
    assert CHOICES not in frozen_paths(app)


def test_every_page_links_the_choices_page_in_its_footer(client):
    for path in ("/", "/sell", "/privacy", "/blog"):
        footer = client.get(path).get_data(as_text=True).split("<footer")[1]
        assert re.search(
            r'<a href="/privacy-choices"[^>]*>Do Not Sell or Share My Personal Information</a>',
            footer,
        ), path
