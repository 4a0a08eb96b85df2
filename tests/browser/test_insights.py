"""The staff dashboard in Chromium: readable and free of axe violations at 375 and 1280 px
(screenshots kept for a person to look at), and worked end to end with JavaScript off."""

from __future__ import annotations

import os
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.leads import store
from app.leads.db import transaction
from app.leads.history import append_event
from tests.browser.helpers import (
    DESKTOP,
    MOBILE,
    axe_violations,
    signed_in_page,
    visit,
)

SHOTS = Path(os.environ.get("INSIGHTS_SCREENSHOT_DIR", "/tmp/insights-shots"))
MARCH = "/staff/insights?period=month&on=2025-03-01"
CAMPAIGNS = (
    ("google", "cpc", "rolex-search"),
    ("google", "cpc", "brand-generic"),
    ("facebook", "paid_social", "sell-your-watch"),
    ("instagram", "paid_social", "reels-luxury"),
    (None, None, None),
    (None, None, None),
)
LANDINGS = ("/", "/sell-watch-boston", "/sell-watch-miami", "/sell-rolex-watch",
            "/blog/luxury-watch-market-usa", "/watch-authentication", None)  # fmt: skip
PATH = ("contacted", "quoted", "accepted", "appointment", "offered", "agreed", "bought")


def march_leads(app, count: int = 90) -> None:
    """`count` leads over March 2025 with their timelines, the same every run."""
    rng = random.Random(22)
    with app.app_context():
        for number in range(count):
            source, medium, campaign = rng.choice(CAMPAIGNS)
            lead = {
                "full_name": f"Seller {number}",
                "email": f"seller{number}@example.com",
                "phone": "(212) 555-0100",
                "watch_brand": rng.choice(("Rolex", "Rolex", "Omega", "Cartier", "Patek Philippe")),
                "watch_model": "",
                "watch_condition": "Excellent - Like new",
                "has_box": 1,
                "has_papers": 0,
                "additional_details": "",
                "source": "USA Website",
                "utm_source": source,
                "utm_medium": medium,
                "utm_campaign": campaign,
                "landing_page": rng.choice(LANDINGS),
                "meta_event_id": f"insights-browser-{number}",
            }
            lead_id, created = store.save_lead(lead, [])
            if created:
                received = datetime(2025, 3, 1, 9) + timedelta(hours=rng.uniform(0, 30 * 24))
                work_lead(lead_id, received, rng)


def work_lead(lead_id: int, received: datetime, rng: random.Random) -> None:
    """Backdate the lead to `received` and move it as far as chance says."""
    moment, state = received, "new"
    with transaction() as db:
        db.execute(
            "UPDATE leads SET created_at = ? WHERE id = ?",
            (f"{received.isoformat()}+00:00", lead_id),
        )
        for step in PATH[: rng.choice((0, 1, 1, 2, 2, 3, 4, 5, 7, 7))]:  # bought: via agreed
            moment += timedelta(hours=rng.uniform(1, 40))
            data = {"from": state, "to": step}
            if step == "bought":
                data |= {
                    "amount": rng.randrange(4000, 40000, 500),
                    "paid_on": moment.date().isoformat(),
                }
            append_event(
                db, lead_id, "staff:1", "state_changed", data, f"{moment.isoformat()}+00:00"
            )
            state = step
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (state, lead_id))


@pytest.fixture(scope="module")
def dashboard_data(live_server):
    march_leads(live_server.app)


def page_overflows(page) -> bool:
    """Whether anything makes the page itself wider than the window (a sideways scroll)."""
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


@pytest.mark.parametrize("viewport", [DESKTOP, MOBILE], ids=["1280px", "375px"])
def test_dashboard_reads_at_phone_and_desktop_widths_without_axe_violations(
    browser, live_server, dashboard_data, viewport
):
    width = viewport["width"]
    context, page = signed_in_page(browser, live_server, f"insights-{width}@example.com", viewport)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_role("link", name="Insights").click()
    expect(page.get_by_role("heading", name="Insights", level=1)).to_be_visible()
    visit(page, live_server, MARCH)
    funnel = page.get_by_role("img", name="Funnel, March 2025: 90 leads")
    expect(funnel).to_be_visible()
    expect(page.get_by_role("img", name="Leads and bought per day, March 2025")).to_be_visible()
    assert not page_overflows(page)
    page.screenshot(path=SHOTS / f"insights-month-{width}.png", full_page=True)
    violations = axe_violations(page)
    page.get_by_text("The numbers by day").click()
    expect(page.get_by_role("table", name="Leads and bought per day, March 2025")).to_be_visible()
    violations += axe_violations(page)
    visit(page, live_server, "/staff/insights?period=week&on=2025-03-10&by=landing")
    expect(page.get_by_role("rowheader", name="City pages")).to_be_visible()
    assert not page_overflows(page)
    page.screenshot(path=SHOTS / f"insights-week-by-landing-{width}.png", full_page=True)
    violations += axe_violations(page)
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not violations, "\n".join(violations)


def test_dashboard_works_with_javascript_off(browser, live_server, dashboard_data):
    context, page = signed_in_page(
        browser, live_server, "insights-nojs@example.com", DESKTOP, java_script_enabled=False
    )
    page.goto(live_server.url + "/staff/insights")
    page.get_by_label("Period", exact=True).select_option("month")
    page.get_by_label("Containing").fill("2025-03-17")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_role("img", name="Funnel, March 2025: 90 leads")).to_be_visible()
    page.get_by_role("link", name="Landing page", exact=True).click()
    page.get_by_role("link", name="City pages").click()
    expect(page.get_by_role("link", name="Landing page: City pages")).to_be_visible()
    expect(page.get_by_role("img", name="Funnel, March 2025: 90 leads")).to_have_count(0)
    page.get_by_role("link", name="City", exact=True).click()
    expect(page.get_by_role("rowheader", name="Boston")).to_be_visible()
    page.get_by_role("link", name="Previous month").click()
    expect(page.get_by_role("img", name="Funnel, February 2025: 0 leads")).to_be_visible()
    page.get_by_role("link", name="Next month").click()
    with page.expect_download() as download:
        page.locator("#breakdown").get_by_role("link", name="Download CSV").click()
    assert download.value.suggested_filename == "insights-breakdown-2025-03-by-city.csv"
    lines = Path(download.value.path()).read_text().splitlines()
    assert lines[0].startswith("city,leads,contacted") and any("boston" in line for line in lines)
    context.close()
    # A link answered as an attachment ends its navigation there: Chromium reports it aborted.
    saved = f"request failed: {download.value.url} net::ERR_ABORTED"
    problems = [line for line in page.problems.lines if line != saved]
    assert not problems, "\n".join(problems)
