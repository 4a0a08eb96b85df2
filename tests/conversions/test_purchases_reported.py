"""Purchases reported back: when a lead becomes bought, Meta's Conversions API gets a
Purchase and GA4's Measurement Protocol a purchase, each once, with the fields the platforms
document as required, checked here field by field as the local receivers got them; too late,
opted out and skipped are recorded instead of sent; a failed send is retried. The form's Lead
event is reported through the same `conversions` table."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest

from app.config import ConfigError
from app.content import queries
from app.conversions import events, records
from app.conversions.send import ReportIncomplete
from app.leads import history, store
from app.leads.db import transaction
from app.leads.history import append_event
from app.sale.timeline import entries
from tests.helpers import HttpReceiver, buy_lead, lead_work_done, save_sample_lead, wait_until
from worker.jobs import report_purchase, send_conversions

NEW_YORK = ZoneInfo("America/New_York")
FBC = "fb.1.1596403881668.IwAR2F4-dbP0l7Mn1IawQQGCINEz7PYXQvwjNwB"
FBP = "fb.1.1596403881668.1116446470"
GA_CLIENT_ID = "1197596843.1673515465"
CLICKS = {"fbc": FBC, "fbp": FBP, "ga_client_id": GA_CLIENT_ID}
META_PATH = "/meta/1234567890/events"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def failing_receiver():
    """The http_receiver's stand-in for Meta and Google that answers 500 to the first
    `receiver.failures[path prefix]` requests on a path, then 200; records every request."""
    received: list = []
    failures: dict[str, int] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            prefix = next((p for p in failures if self.path.startswith(p)), None)
            failing = prefix is not None and failures[prefix] > 0
            if failing:
                failures[prefix] -= 1
            received.append({"path": self.path, "json": json.loads(body), "failed": failing})
            self.send_response(500 if failing else 200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"error": "try again"}' if failing else b'{"events_received": 1}')

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    receiver = HttpReceiver(f"http://127.0.0.1:{server.server_port}", received)
    receiver.failures = failures
    yield receiver
    server.shutdown()
    server.server_close()


def aimed_at(receiver) -> dict:
    """Settings that send Meta's and GA4's events to this receiver."""
    return {
        "META_CAPI_URL": receiver.url + "/meta/{pixel_id}/events",
        "GA4_API_URL": receiver.url + "/mp/collect",
    }


def by_platform(calls: list[dict]) -> dict[str, dict]:
    """The requests by platform: 'meta' and 'ga4'."""
    return {("meta" if c["path"].startswith("/meta/") else "ga4"): c for c in calls}


def outcomes(app, lead_id: int) -> dict[tuple[str, str], dict]:
    with app.app_context():
        rows = records.lead_outcomes(lead_id)
    return {(row["event"], row["platform"]): row for row in rows}


def timeline_titles(app, lead_id: int) -> list[str]:
    with app.app_context():
        return [entry.title for entry in reversed(entries(history.lead_events(lead_id), {}))]


def bought_time(app, lead_id: int) -> datetime:
    """When staff recorded the lead bought (the purchase time when paid today)."""
    with app.app_context():
        [event] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "bought"]
    return datetime.fromisoformat(event["at"])


def noon_in_new_york(days_ago: int) -> datetime:
    day = datetime.now(NEW_YORK).date() - timedelta(days=days_ago)
    return datetime.combine(day, clock(12), tzinfo=NEW_YORK)


def reference(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["reference"]


# What Meta and GA4 receive


def test_a_purchase_sends_meta_and_ga4_every_field_they_require(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id, amount=9500)
    lead_work_done(app)
    calls = by_platform(http_receiver.wait_for(2))
    ref, bought_at = reference(app, lead_id), bought_time(app, lead_id)

    meta = calls["meta"]
    assert meta["path"] == META_PATH and meta["json"]["access_token"] == "test-token"
    [event] = meta["json"]["data"]
    assert event["event_name"] == "Purchase"
    assert event["event_time"] == int(bought_at.timestamp())  # paid today: when it was recorded
    assert event["event_id"] == f"purchase-{ref}"  # stable, and not the Lead's browser event id
    assert event["action_source"] == "system_generated"
    assert event["user_data"] == {
        "em": [sha256("jane@example.com")],
        "ph": [sha256("12125550100")],  # "(212) 555-0100" with the US country code
        "external_id": [sha256(ref)],
        "fbc": FBC,
        "fbp": FBP,
    }
    assert event["custom_data"] == {
        "value": 9500,
        "currency": "USD",
        "order_id": ref,
        "content_category": "Rolex",
        "content_name": "Submariner",
    }
    assert "event_source_url" not in event  # not a website event

    ga4 = calls["ga4"]
    query = parse_qs(urlsplit(ga4["path"]).query)
    assert urlsplit(ga4["path"]).path == "/mp/collect"
    assert query == {"measurement_id": ["G-TEST123"], "api_secret": ["test-secret"]}
    assert ga4["json"]["client_id"] == GA_CLIENT_ID
    assert ga4["json"]["timestamp_micros"] == int(bought_at.timestamp()) * 1_000_000
    [purchase] = ga4["json"]["events"]
    assert purchase["name"] == "purchase"
    assert purchase["params"] == {
        "transaction_id": ref,
        "value": 9500,
        "currency": "USD",
        "items": [
            {"item_name": "Rolex Submariner", "item_brand": "Rolex", "price": 9500, "quantity": 1}
        ],
    }

    rows = outcomes(app, lead_id)
    for platform in ("meta", "ga4"):
        row = rows[("purchase", platform)]
        assert (row["status"], row["attempts"], row["reason"]) == ("sent", 1, None)
    titles = timeline_titles(app, lead_id)
    assert "Purchase reported to Meta" in titles and "Purchase reported to GA4" in titles


def test_running_the_purchase_job_again_sends_nothing_more(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id)
    lead_work_done(app)
    http_receiver.wait_for(2)
    with app.app_context():
        assert report_purchase(lead_id) == "meta: already sent, ga4: already sent"
        assert report_purchase(lead_id) == "meta: already sent, ga4: already sent"
    time.sleep(0.3)
    assert len(http_receiver.requests) == 2
    assert [row["attempts"] for row in outcomes(app, lead_id).values()] == [1, 1]


# Past a platform's window: recorded, never sent


def test_a_purchase_paid_four_days_ago_reaches_meta_but_is_too_late_for_ga4(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id, paid_days_ago=4)
    lead_work_done(app)
    [call] = http_receiver.wait_for(1)
    time.sleep(0.3)
    assert len(http_receiver.requests) == 1 and call["path"] == META_PATH
    # The hour is not known: noon of the payment day, in the business's time zone.
    assert call["json"]["data"][0]["event_time"] == int(noon_in_new_york(4).timestamp())
    ga4 = outcomes(app, lead_id)[("purchase", "ga4")]
    assert (ga4["status"], ga4["attempts"]) == ("too_late", 0)
    assert ga4["reason"].endswith("GA4 takes events at most 72 hours old")
    assert "Purchase not reported to GA4: too late" in timeline_titles(app, lead_id)


def test_a_purchase_paid_eight_days_ago_is_too_late_for_both(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id, paid_days_ago=8)
    lead_work_done(app)
    rows = outcomes(app, lead_id)
    meta, ga4 = rows[("purchase", "meta")], rows[("purchase", "ga4")]
    assert (meta["status"], meta["attempts"]) == ("too_late", 0)
    # Noon of the payment day, eight days back: between 7.5 and 8.5 days ago.
    assert re.fullmatch(
        r"the purchase is [78] days old; Meta takes events at most 7 days old", meta["reason"]
    )
    assert ga4["status"] == "too_late"
    assert http_receiver.requests == []
    titles = timeline_titles(app, lead_id)
    assert "Purchase not reported to Meta: too late" in titles


# The seller's choice, and what GA4 cannot take


def test_an_opted_out_sellers_purchase_sends_nothing_and_is_recorded(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, ad_opt_out="gpc", **CLICKS)
    buy_lead(app, lead_id)
    lead_work_done(app)
    rows = outcomes(app, lead_id)
    for platform in ("meta", "ga4"):
        row = rows[("purchase", platform)]
        assert (row["status"], row["attempts"]) == ("opted_out", 0)
        assert row["reason"] == "the seller opted out (Global Privacy Control signal)"
    with app.app_context():
        assert report_purchase(lead_id) == "meta: already opted_out, ga4: already opted_out"
    time.sleep(0.3)
    assert http_receiver.requests == []
    assert "Purchase not reported to Meta: the seller opted out" in timeline_titles(app, lead_id)


def test_a_purchase_without_a_ga_client_id_reaches_meta_and_is_skipped_for_ga4(
    make_app, pipeline_settings, http_receiver
):
    app = make_app(**pipeline_settings)
    lead_id = save_sample_lead(app, fbc=FBC)  # no _ga cookie, no _fbp
    buy_lead(app, lead_id)
    lead_work_done(app)
    [call] = http_receiver.wait_for(1)
    assert call["path"] == META_PATH
    assert set(call["json"]["data"][0]["user_data"]) == {"em", "ph", "external_id", "fbc"}
    ga4 = outcomes(app, lead_id)[("purchase", "ga4")]
    assert ga4["status"] == "skipped" and ga4["reason"].startswith("no GA client id")
    assert "Purchase not reported to GA4" in timeline_titles(app, lead_id)


def test_nothing_is_recorded_for_a_platform_that_is_not_configured(make_app, pipeline_settings):
    app = make_app(**pipeline_settings | {"GA4_API_SECRET": ""})
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id, paid_days_ago=8)
    lead_work_done(app)
    assert list(outcomes(app, lead_id)) == [("purchase", "meta")]


# Retries


def test_a_failed_purchase_is_retried_by_the_rq_worker_and_sent_once_taken(
    make_app, pipeline_settings, failing_receiver, redis_server, start_rq_worker
):
    failing_receiver.failures["/meta/"] = 1
    settings = pipeline_settings | aimed_at(failing_receiver) | {"REDIS_URL": redis_server.url}
    start_rq_worker(settings)
    app = make_app(**settings)
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id)

    def meta_sent():
        row = outcomes(app, lead_id).get(("purchase", "meta"))
        return row if row and row["status"] == "sent" else None

    meta = wait_until(meta_sent, timeout=60)
    assert meta["attempts"] == 2  # failed once, retried after JOB_RETRY_INTERVALS' first second
    time.sleep(1.5)  # no second retry is left pending
    paths = [urlsplit(call["path"]).path for call in failing_receiver.requests]
    assert sorted(paths) == ["/meta/1234567890/events", "/meta/1234567890/events", "/mp/collect"]
    assert [call["failed"] for call in failing_receiver.requests if "/meta/" in call["path"]] == [
        True,
        False,
    ]
    ga4 = outcomes(app, lead_id)[("purchase", "ga4")]
    assert (ga4["status"], ga4["attempts"]) == ("sent", 1)  # not sent again by the retry
    titles = timeline_titles(app, lead_id)
    assert "Purchase to Meta failed (attempt 1), to be retried" in titles
    assert "Purchase reported to Meta" in titles


def test_requeue_reports_a_purchase_whose_send_failed(
    make_app, pipeline_settings, failing_receiver
):
    failing_receiver.failures["/mp/"] = 1
    app = make_app(**pipeline_settings | aimed_at(failing_receiver))
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id)
    lead_work_done(app)  # without Redis a failed job stays pending until requeued
    failed = outcomes(app, lead_id)[("purchase", "ga4")]
    assert (failed["status"], failed["reason"]) == ("failed", "HTTP 500 Internal Server Error")
    result = app.test_cli_runner().invoke(args=["leads", "requeue"])
    assert f"Queued the purchase report of lead #{lead_id}." in result.output
    rows = outcomes(app, lead_id)
    assert (rows[("purchase", "ga4")]["status"], rows[("purchase", "ga4")]["attempts"]) == (
        "sent",
        2,
    )
    assert rows[("purchase", "meta")]["attempts"] == 1
    assert "Nothing to requeue" in app.test_cli_runner().invoke(args=["leads", "requeue"]).output


def test_a_purchase_report_a_crash_lost_is_sent_when_a_process_starts(
    make_app, pipeline_settings, http_receiver
):
    crashed = make_app(**pipeline_settings)
    lead_id = save_sample_lead(crashed, **CLICKS)
    three_minutes_ago = (datetime.now(UTC) - timedelta(minutes=3)).isoformat(timespec="seconds")
    with crashed.app_context(), transaction() as db:  # bought, and the process died: no job
        done = ", ".join(f"{column} = created_at" for column in store.WORK_COLUMNS)
        db.execute(f"UPDATE leads SET state = 'bought', {done} WHERE id = ?", (lead_id,))
        bought = {"from": "offered", "to": "bought", "amount": 9500, "paid_on": "2026-01-01"}
        append_event(db, lead_id, "staff:1", "state_changed", bought, at=three_minutes_ago)
        db.execute("UPDATE leads SET created_at = ?", (three_minutes_ago,))
    restarted = make_app(**pipeline_settings)
    assert restarted.test_client().get("/sell").status_code == 200  # its first request
    lead_work_done(restarted)
    assert len(http_receiver.wait_for(2)) == 2
    rows = outcomes(restarted, lead_id)
    assert {row["status"] for row in rows.values()} == {"sent"}


# The form's Lead event, on the same table


def test_the_lead_event_is_recorded_per_platform_and_only_the_failed_one_is_sent_again(
    make_app, pipeline_settings, failing_receiver
):
    failing_receiver.failures["/mp/"] = 1
    app = make_app(**pipeline_settings | aimed_at(failing_receiver))
    lead_id = save_sample_lead(app, **CLICKS)
    with app.app_context():
        with pytest.raises(ReportIncomplete):
            send_conversions(lead_id)
        assert not store.get_lead(lead_id)["conversions_sent_at"]  # still pending
        assert send_conversions(lead_id) == "meta: already sent, ga4: sent"
        assert store.get_lead(lead_id)["conversions_sent_at"]
        ref = store.get_lead(lead_id)["reference"]
    rows = outcomes(app, lead_id)
    assert (rows[("lead", "meta")]["status"], rows[("lead", "meta")]["attempts"]) == ("sent", 1)
    assert (rows[("lead", "ga4")]["status"], rows[("lead", "ga4")]["attempts"]) == ("sent", 2)
    meta_calls = [c for c in failing_receiver.requests if c["path"].startswith("/meta/")]
    [lead_event] = meta_calls[0]["json"]["data"]
    assert len(meta_calls) == 1 and lead_event["event_name"] == "Lead"
    assert lead_event["user_data"]["external_id"] == [sha256(ref)]  # the Purchase's, to match
    ga4 = failing_receiver.requests[-1]["json"]
    assert ga4["events"][0]["name"] == "generate_lead" and "timestamp_micros" in ga4


def test_the_privacy_policy_says_purchases_are_reported_unless_the_seller_opted_out(app):
    with app.app_context():
        sections = queries.document("page:privacy")["sections"]
    policy = " ".join(section["body"] for section in sections)
    assert "If we buy your watch, our server reports the purchase to them as well" in policy
    assert "the value of the purchase" in policy
    assert "never reports anything about it to Meta or Google" in policy
    assert "neither when you send it nor if we buy your watch" in policy


# The value reported


@pytest.mark.parametrize(
    ("settings", "amount", "value"),
    [
        ({}, 9500, "9500.00"),  # the default: the price paid
        ({"CONVERSION_VALUE": "price"}, 12345, "12345.00"),
        ({"CONVERSION_VALUE": "margin"}, 10000, "1500.00"),  # 15 % unless told
        ({"CONVERSION_VALUE": "margin", "CONVERSION_MARGIN_PERCENT": "12.5"}, 9999, "1249.88"),
    ],
)
def test_the_value_is_the_price_or_the_margin_estimate(make_app, settings, amount, value):
    with make_app(**settings).app_context():
        assert str(events.conversion_value(amount)) == value


def test_a_margin_value_is_what_meta_and_ga4_receive(make_app, pipeline_settings, http_receiver):
    margin = {"CONVERSION_VALUE": "margin", "CONVERSION_MARGIN_PERCENT": "12.5"}
    app = make_app(**pipeline_settings | margin)
    lead_id = save_sample_lead(app, **CLICKS)
    buy_lead(app, lead_id, amount=9999)
    lead_work_done(app)
    calls = by_platform(http_receiver.wait_for(2))
    assert calls["meta"]["json"]["data"][0]["custom_data"]["value"] == 1249.88
    assert calls["ga4"]["json"]["events"][0]["params"]["value"] == 1249.88


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"CONVERSION_VALUE": "revenue"}, "CONVERSION_VALUE='revenue' is not one of price, margin"),
        ({"CONVERSION_MARGIN_PERCENT": "150"}, "CONVERSION_MARGIN_PERCENT=150.0 is not a perc"),
        ({"CONVERSION_MARGIN_PERCENT": "a lot"}, "CONVERSION_MARGIN_PERCENT='a lot' is not a"),
    ],
)
def test_a_wrong_conversion_setting_stops_the_start_naming_it(make_app, settings, named):
    with pytest.raises(ConfigError, match=re.escape(named)):
        make_app(**settings)


def test_a_purchase_is_never_reported_before_the_lead_was_sent(make_app):
    with make_app().app_context():
        made = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
        recorded = datetime(2026, 3, 20, 18, 0, tzinfo=UTC)
        assert events.purchase_time(date(2026, 3, 1), recorded, made) == made
        noon = datetime(2026, 3, 12, 16, 0, tzinfo=UTC)  # 12:00 EDT
        assert events.purchase_time(date(2026, 3, 12), recorded, made) == noon
        assert events.purchase_time(date(2026, 3, 20), recorded, made) == recorded
