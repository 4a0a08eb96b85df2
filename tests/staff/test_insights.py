"""The staff dashboard (/staff/insights) on a small known dataset in a real leads.db: the
funnel and its medians, each breakdown, the period filter, staff-only access, the audited CSV
downloads, and a page that is whole without JavaScript."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from datetime import date

import pytest

from app.leads.db import transaction
from app.leads.history import append_event
from app.sale import lifecycle
from app.staff.insights import counts
from app.staff.insights.query import InsightsQuery, Period
from tests.helpers import database_at_version

WEEK = counts.Window("2025-03-03", "2025-03-10")  # Monday 3 to Sunday 9 March 2025
PATH = ("contacted", "quoted", "accepted", "appointment", "offered", "agreed")


def received(app, add_lead, at: str, **fields) -> int:
    """A lead saved as the sell form saves one, received at `at` (UTC)."""
    lead_id = add_lead(**fields)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET created_at = ? WHERE id = ?", (f"{at}+00:00", lead_id))
    return lead_id


def moved(app, lead_id: int, at: str, to: str, **data) -> None:
    """A staff move of the lead to `to` at `at`, appended as the store appends one."""
    with app.app_context(), transaction() as db:
        state = db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()[0]
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (to, lead_id))
        event = {"from": state, "to": to} | data
        append_event(db, lead_id, "staff:1", "state_changed", event, f"{at}+00:00")


def bought(app, lead_id: int, day: str, amount: int, paid_on: str) -> None:
    """Every step to bought on `day`, paid on `paid_on`."""
    for step in PATH:
        moved(app, lead_id, f"{day}T12:00:00", step)
    moved(app, lead_id, f"{day}T13:00:00", "bought", amount=amount, paid_on=paid_on)


@pytest.fixture
def known_week(app, add_lead) -> dict[str, int]:
    """Five leads in the week of 3 March 2025 and one either side of it:
    one bought for $10,000 (replied after 2 h, paid 7 days after it came), one contacted
    after 30 h then closed, one quoted after 5 h without a call then bought for $20,000 (paid
    after 3 days), one never answered, one answered by a note after 1 h."""
    leads = {
        "before": received(app, add_lead, "2025-03-02T23:59:59"),
        "first": received(app, add_lead, "2025-03-03T10:00:00"),
        "late": received(app, add_lead, "2025-03-04T09:00:00"),
        "quick": received(app, add_lead, "2025-03-05T12:00:00"),
        "silent": received(app, add_lead, "2025-03-06T08:00:00"),
        "noted": received(app, add_lead, "2025-03-09T23:59:59"),
        "after": received(app, add_lead, "2025-03-10T00:00:00"),
    }
    moved(app, leads["first"], "2025-03-03T12:00:00", "contacted")
    bought(app, leads["first"], "2025-03-08", 10_000, "2025-03-10")
    moved(app, leads["late"], "2025-03-05T15:00:00", "contacted")
    moved(app, leads["late"], "2025-03-06T15:00:00", "closed", reason="no_response")
    moved(app, leads["quick"], "2025-03-05T17:00:00", "quoted")
    for step in PATH[2:]:
        moved(app, leads["quick"], "2025-03-06T10:00:00", step)
    moved(app, leads["quick"], "2025-03-07T10:00:00", "bought", amount=20_000, paid_on="2025-03-08")
    with app.app_context():
        append_event_at(
            leads["noted"], "2025-03-10T00:59:59", "note", {"note": "Left a voicemail."}
        )
    return leads


def append_event_at(lead_id: int, at: str, kind: str, data: dict) -> None:
    with transaction() as db:
        append_event(db, lead_id, "staff:1", kind, data, f"{at}+00:00")


# The numbers


def test_funnel_counts_each_lead_at_every_step_it_reached_in_the_period(app, known_week):
    with app.app_context():
        funnel = counts.funnel(WEEK)
    assert funnel.leads == 5
    assert funnel.steps == {
        "contacted": 3,  # the lead quoted without a call counts, and so does the closed one
        "quoted": 2,
        "accepted": 2,
        "appointment": 2,
        "offered": 2,
        "agreed": 2,
        "bought": 2,
    }
    assert funnel.bought_value == 30_000


def test_medians_of_price_first_reply_and_time_to_payment(app, known_week):
    with app.app_context():
        timings = counts.timings(WEEK, due_before="2026-01-01T00:00:00+00:00")
    assert timings.median_bought_value == 15_000
    assert timings.median_reply_hours == pytest.approx(3.5)  # 1, 2, 5 and 30 hours
    assert (timings.replied_in_time, timings.reply_due) == (3, 5)  # the silent lead is late
    assert timings.median_payment_days == 5  # 7 and 3 days


def test_a_lead_still_within_its_24_hours_counts_neither_way(app, known_week):
    with app.app_context():
        timings = counts.timings(WEEK, due_before="2025-03-06T00:00:00+00:00")
    assert (timings.replied_in_time, timings.reply_due) == (3, 4)  # the silent one has time


def test_a_real_state_change_reaches_the_dashboard_in_the_same_transaction(app, add_lead):
    lead_id = add_lead()
    with app.app_context():
        window = counts.Window("2000-01-01", "2999-01-01")
        assert counts.funnel(window).steps["contacted"] == 0
        lifecycle.transition(
            lead_id,
            "quoted",
            "staff:7",
            {"amount_low": 9000, "amount_high": 9000, "valid_until": "2030-01-01"},
            "new",
        )
        funnel, timings = counts.funnel(window), counts.timings(window, "2999-01-01")
    assert (funnel.steps["contacted"], funnel.steps["quoted"], funnel.steps["accepted"]) == (
        1,
        1,
        0,
    )
    assert timings.replied_in_time == 1  # a reply within seconds


def test_leads_older_than_the_dashboard_are_counted_from_their_timeline(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 15)  # the release before the dashboard's summary
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, reference) VALUES ('A', 'a@example.com', "
        "'1', 'Rolex', 'Good', 0, 0, 'USA Website', 'e', '2025-03-04T10:00:00+00:00', "
        "'USWB-AAAAAA')"
    )
    for at, actor, data in (
        ("2025-03-04T10:00:00", "seller", None),
        ("2025-03-04T14:00:00", "staff:1", {"from": "new", "to": "contacted"}),
        (
            "2025-03-05T10:00:00",
            "staff:1",
            {"from": "contacted", "to": "closed", "reason": "not_a_fit"},
        ),
    ):
        kind = "state_changed" if data else "submitted"
        db.execute(
            "INSERT INTO lead_events (lead_id, at, actor, kind, data) VALUES (1, ?, ?, ?, ?)",
            (f"{at}+00:00", actor, kind, json.dumps(data or {})),
        )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)  # migrated as the app starts
    with app.app_context():
        funnel = counts.funnel(WEEK)
        timings = counts.timings(WEEK, "2026-01-01T00:00:00+00:00")
    assert (funnel.leads, funnel.steps["contacted"], funnel.steps["quoted"]) == (1, 1, 0)
    assert timings.median_reply_hours == pytest.approx(4)


# The breakdowns

LANDINGS = {
    "/": "home",
    "/sell-watch-boston": "city",
    "/sell-rolex-watch": "brand",
    "/blog/luxury-watch-market-usa": "article",
    "/watch-authentication": "other",
    None: "unknown",
}


@pytest.fixture
def sources(app, add_lead) -> list[int]:
    """Six leads of the week from different campaigns, brands and landing pages."""
    campaigns = [
        ("google", "cpc", "rolex", "Rolex", "/sell-watch-boston"),
        ("google", "cpc", "rolex", "Omega", "/"),
        ("facebook", "paid_social", "spring", "Rolex", "/sell-rolex-watch"),
        (None, None, None, "Cartier", "/blog/luxury-watch-market-usa"),
        (None, None, None, "Rolex", "/watch-authentication"),
        (None, None, None, "Rolex", None),
    ]
    ids = [
        received(
            app,
            add_lead,
            f"2025-03-0{3 + number % 5}T10:00:00",
            utm_source=source,
            utm_medium=medium,
            utm_campaign=campaign,
            watch_brand=brand,
            landing_page=landing,
        )
        for number, (source, medium, campaign, brand, landing) in enumerate(campaigns)
    ]
    bought(app, ids[0], "2025-03-08", 12_000, "2025-03-09")
    return ids


BREAKDOWNS = {
    "campaign": {
        ("google", "cpc", "rolex"): (2, 1),
        ("facebook", "paid_social", "spring"): (1, 0),
        ("", "", ""): (3, 0),
    },
    "source": {("google",): (2, 1), ("facebook",): (1, 0), ("",): (3, 0)},
    "medium": {("cpc",): (2, 1), ("paid_social",): (1, 0), ("",): (3, 0)},
    "brand": {("Rolex",): (4, 1), ("Omega",): (1, 0), ("Cartier",): (1, 0)},
    "landing": {(family,): (1, int(family == "city")) for family in LANDINGS.values()},
    "city": {("boston",): (1, 1), ("",): (5, 0)},
}


@pytest.mark.parametrize("by", BREAKDOWNS)
def test_each_breakdown_groups_the_leads_by_where_they_came_from(app, sources, by):
    with app.app_context():
        rows = counts.breakdown(WEEK, by)
    names = counts.BREAKDOWNS[by]
    groups = {tuple(row[name] for name in names): (row["leads"], row["bought"]) for row in rows}
    assert groups == BREAKDOWNS[by]
    assert rows[0]["leads"] == max(leads for leads, _ in groups.values())  # most leads first


def test_breakdowns_read_as_staff_name_them(signed_in, sources):
    landing = signed_in.get("/staff/insights?period=week&on=2025-03-05&by=landing").text
    for label in (
        "Home page",
        "City pages",
        "Brand pages",
        "Articles",
        "Other pages",
        "Not recorded",
    ):
        assert f">{label}</a>" in landing
    city = signed_in.get("/staff/insights?period=week&on=2025-03-05&by=city").text
    assert ">Boston</a>" in city and ">Not a city page</a>" in city
    campaign = signed_in.get("/staff/insights?period=week&on=2025-03-05").text
    assert ">google / cpc / rolex</a>" in campaign and ">No campaign</a>" in campaign


def test_a_group_narrows_the_whole_page_to_its_leads(signed_in, sources):
    page = signed_in.get("/staff/insights?period=week&on=2025-03-05&by=campaign").text
    link = re.search(r'href="([^"]+)"[^>]*>google / cpc / rolex</a>', page).group(1)
    assert "source=google" in link and "medium=cpc" in link and "campaign=rolex" in link
    narrowed = signed_in.get(link.replace("&amp;", "&")).text
    assert 'aria-label="Funnel, the week of 3 March 2025: 2 leads' in narrowed
    none = signed_in.get("/staff/insights?period=week&on=2025-03-05&source=(none)").text
    assert 'aria-label="Funnel, the week of 3 March 2025: 3 leads' in none


# The period


def test_a_week_runs_monday_to_sunday_and_a_month_first_to_last_day(app, known_week):
    march = InsightsQuery.from_args({"period": "month", "on": "2025-03-20"}, date(2026, 1, 1))
    week = InsightsQuery.from_args({"period": "week", "on": "2025-03-09"}, date(2026, 1, 1))
    assert (week.window().start, week.window().end) == ("2025-03-03", "2025-03-10")
    assert (march.window().start, march.window().end) == ("2025-03-01", "2025-04-01")
    with app.app_context():
        assert counts.funnel(week.window()).leads == 5  # not Sunday 2 nor Monday 10
        assert counts.funnel(march.window()).leads == 7
    assert Period("month", date(2024, 12, 1)).following() == Period("month", date(2025, 1, 1))
    assert Period("week", date(2025, 3, 3)).previous() == Period("week", date(2025, 2, 24))


def test_the_page_steps_to_the_period_before_and_after(signed_in, known_week):
    page = signed_in.get("/staff/insights?period=week&on=2025-03-05").text
    assert "the week of 3 March 2025" in page
    assert re.search(r'rel="prev" href="[^"]*on=2025-02-24', page)
    assert re.search(r'rel="next" href="[^"]*on=2025-03-10', page)
    month = signed_in.get("/staff/insights?period=month&on=2025-03-05").text
    assert re.search(r'rel="next" href="[^"]*period=month&amp;on=2025-04-01', month)
    assert 'aria-label="Funnel, March 2025: 7 leads' in month


def test_a_malformed_query_shows_this_week_rather_than_failing(signed_in):
    page = signed_in.get("/staff/insights?period=year&on=03/05/2025&by=nothing")
    assert page.status_code == 200
    assert re.search(r'aria-current="page" class="[^"]*">This week</a>', page.text)
    assert re.search(r'aria-current="page" class="[^"]*">Campaign</a>', page.text)
    assert 'rel="next"' not in page.text  # no future to step into
    for day in ("0001-01-01", "9999-12-31", "2025-02-30"):
        page = signed_in.get(f"/staff/insights?period=week&on={day}")
        assert page.status_code == 200
        assert re.search(r'aria-current="page" class="[^"]*">This week</a>', page.text)


# Who may see it


def test_anonymous_visitors_are_sent_to_sign_in_and_see_no_number(app, known_week):
    client = app.test_client()
    for path in ("/staff/insights?period=week&on=2025-03-05", "/staff/insights/funnel.csv"):
        response = client.get(path)
        assert response.status_code == 303 and response.headers["Location"] == "/staff/login"
        assert "30,000" not in response.text and "Funnel" not in response.text


def test_a_password_without_the_code_is_not_enough(staff, account, app, known_week):
    client = app.test_client()
    assert staff.password_step(client, account).status_code == 303
    response = client.get("/staff/insights/breakdown.csv?period=week&on=2025-03-05")
    assert response.status_code == 303 and response.headers["Location"] == "/staff/login"


# Downloads


def audit(app) -> list[dict]:
    with app.app_context(), transaction() as db:
        rows = db.execute("SELECT action, data FROM audit ORDER BY id").fetchall()
    return [{"action": row["action"], "data": json.loads(row["data"] or "{}")} for row in rows]


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_every_table_downloads_as_csv_and_each_download_is_audited(app, signed_in, sources):
    query = "period=week&on=2025-03-05&by=landing"
    funnel = signed_in.get(f"/staff/insights/funnel.csv?{query}")
    trend = signed_in.get(f"/staff/insights/trend.csv?{query}")
    breakdown = signed_in.get(f"/staff/insights/breakdown.csv?{query}")
    for response in (funnel, trend, breakdown):
        assert response.status_code == 200 and response.mimetype == "text/csv"
        assert response.headers["Cache-Control"] == "no-store"
    assert (
        'filename="insights-breakdown-2025-W10-by-landing.csv"'
        in breakdown.headers["Content-Disposition"]
    )
    assert csv_rows(funnel)[1] == ["Leads", "6", "", "100.0"]
    assert csv_rows(funnel)[-1] == ["Bought", "1", "100.0", "16.7"]
    assert len(csv_rows(trend)) == 1 + 7 and csv_rows(trend)[6] == ["2025-03-08", "0", "0"]
    assert ["city", "1", "1", "1", "1", "1", "1", "1", "1", "100.0", "12000"] in csv_rows(breakdown)
    downloads = [entry for entry in audit(app) if entry["action"] == "insights_exported"]
    assert [entry["data"]["table"] for entry in downloads] == ["funnel", "trend", "breakdown"]
    assert downloads[-1]["data"] == {
        "table": "breakdown",
        "period": "2025-W10",
        "by": "landing",
        "rows": 6,
    }


def test_a_campaign_name_never_becomes_a_spreadsheet_formula(signed_in, app, add_lead):
    received(app, add_lead, "2025-03-04T10:00:00", utm_source='=HYPERLINK("http://evil.example")')
    rows = csv_rows(
        signed_in.get("/staff/insights/breakdown.csv?period=week&on=2025-03-04&by=source")
    )
    assert rows[1][0] == '\'=HYPERLINK("http://evil.example")'


def test_an_unknown_table_is_not_found(signed_in):
    assert signed_in.get("/staff/insights/leads.csv").status_code == 404


# Without JavaScript


def test_the_page_is_whole_without_javascript(signed_in, known_week):
    page = signed_in.get("/staff/insights?period=week&on=2025-03-05").text
    assert "data-island" not in page  # nothing on it waits for a script
    charts = re.findall(
        r'<svg role="img" aria-label="([^"]+)"[^>]*>\s*<title>([^<]+)</title>', page
    )
    assert len(charts) == 2 and all(label == title for label, title in charts)
    assert charts[0][0].startswith("Funnel, the week of 3 March 2025: 5 leads, 3 contacted (60%)")
    assert "2 bought (40%)" in charts[0][0]
    assert "Leads and bought per day, the week of 3 March 2025: 5 leads, 2 bought" in charts[1][0]
    assert re.search(r'<form method="get" action="/staff/insights"', page)
    assert page.count("<table") == 3  # each chart's numbers, and the breakdown
    assert ">$30,000<" in page and ">$15,000<" in page and ">3.5 h<" in page and ">5 days<" in page
    assert "60% within 24 h (3 of 5)" in page
    assert re.search(r'<a href="/staff/insights\?[^"]*by=brand"', page)  # the breakdowns: links


def test_the_staff_header_links_to_the_dashboard(signed_in):
    page = signed_in.get("/staff/leads").text
    assert re.search(r'<a href="/staff/insights"[^>]*>Insights</a>', page)


def test_the_dashboard_reads_through_the_received_at_index(app):
    db = sqlite3.connect(app.config["LEADS_DB"])
    sql, params = WEEK.where()
    plan = " ".join(
        row[3] for row in db.execute(f"EXPLAIN QUERY PLAN SELECT count(*){sql}", params)
    )
    db.close()
    assert "leads_created" in plan and "SCAN leads" not in plan


def test_a_period_without_leads_says_so_instead_of_dividing_by_nothing(signed_in):
    page = signed_in.get("/staff/insights?period=month&on=2024-02-10").text
    assert "No leads in this period." in page
    assert 'aria-label="Funnel, February 2024: 0 leads, 0 contacted' in page
    assert "nothing bought yet" in page and "no lead due a reply yet" in page
    assert "0 bought (–)." in page  # no rate of nothing


def test_the_dashboard_links_the_google_ads_upload_file(app, staff, signed_in):
    page = staff.request(signed_in, "GET", "/staff/insights").get_data(as_text=True)
    assert 'href="/staff/conversions/google-ads.csv"' in page
