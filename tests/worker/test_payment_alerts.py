"""Staff are e-mailed, over a real SMTP server on loopback, about each signed sale still unpaid
when the business day ends: once per lead and day however often the job runs, again the next
day while it stays unpaid, and never about a lead paid in time or not yet signed."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.leads import history, store
from app.leads.db import transaction
from app.sale import timeline
from app.sale.purchase import deadline, record
from tests.data.paperwork import agreed_lead
from tests.helpers import (
    ROOT,
    SITE,
    business_today,
    buy_lead,
    lead_work_done,
    put_purchase_on_record,
    save_sample_lead,
)
from worker import jobs
from worker.payment_alerts import TITLE

STAFF = "buyers@watches.example"
NEW_YORK = ZoneInfo("America/New_York")  # the test apps' BUSINESS_TIMEZONE
YESTERDAY = business_today() - timedelta(days=1)


@pytest.fixture
def alert_app(make_app, mail_settings):
    """Staff e-mail configured, to the loopback SMTP server."""
    return make_app(**mail_settings, STAFF_EMAIL=STAFF)


@pytest.fixture
def clock(monkeypatch):
    """Sets the time the deadlines are read against, as a New York time on a day."""

    def set_to(day, hour: int, minute: int = 0) -> None:
        at = datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)
        monkeypatch.setattr(deadline, "now", lambda: at)

    return set_to


def late_alerts(smtp_server) -> list:
    """The late-payment e-mails to staff among everything the server took."""
    return [m for m in smtp_server.messages if m["To"] == STAFF and TITLE in m["Subject"]]


def run_job(app) -> str:
    with app.app_context():
        return jobs.alert_payments_due()


def signed_lead(app, name: str, checked: bool = True) -> int:
    """A lead of `agreed` signed yesterday morning (New York), its ID checked or not yet."""
    lead_id = save_sample_lead(app, full_name=name)
    with app.app_context():
        put_purchase_on_record(lead_id, signed_on=YESTERDAY)
        if not checked:
            with transaction() as db:
                record.update(db, lead_id, {"id_verified_at": None, "id_verified_by": None})
    return lead_id


def reference(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["reference"]


def test_signed_sales_unpaid_at_the_days_end_alert_staff_once_that_day(
    alert_app, smtp_server, clock
):
    due = signed_lead(alert_app, "Checked Seller")
    unchecked = signed_lead(alert_app, "Unchecked Seller", checked=False)
    paid = signed_lead(alert_app, "Paid Seller")
    buy_lead(alert_app, paid, paid_days_ago=1)  # paid the day it was signed
    agreed_lead(alert_app)  # accepted the offer, not signed yet: nothing we can pay
    lead_work_done(alert_app)  # the paid lead's own e-mails
    clock(YESTERDAY, 16, 59)
    assert run_job(alert_app) == "none late"
    clock(YESTERDAY, 17, 5)
    assert run_job(alert_app) == "2 late, 2 alerted now"
    alerts = {m["Subject"].split(":")[0]: m for m in late_alerts(smtp_server)}
    assert sorted(alerts) == sorted([reference(alert_app, due), reference(alert_app, unchecked)])
    checked_text = alerts[reference(alert_app, due)].get_content()
    unchecked_text = alerts[reference(alert_app, unchecked)].get_content()
    assert "Missing:  nothing: every check is done" in checked_text
    assert "Missing:  an ID check by staff" in unchecked_text
    assert "Due by:   " in checked_text and "5:00 pm" in checked_text
    assert "Price:    $9,500" in checked_text and f"{SITE}/staff/leads/{due}" in checked_text
    clock(YESTERDAY, 17, 20)  # the next quarter-hour run: nothing more that day
    assert run_job(alert_app) == "2 late, 0 alerted now"
    assert len(late_alerts(smtp_server)) == 2
    with alert_app.app_context():
        events = [e for e in history.lead_events(due) if e["kind"] == deadline.ALERTED]
        # the database takes one a day
        assert not history.record_alert_on(due, deadline.ALERTED, YESTERDAY)
    assert [e["data"] for e in events] == [{"day": YESTERDAY.isoformat()}]
    assert timeline.describe(events[0])[0] == f"E-mail to staff: {TITLE.lower()}"


def test_a_sale_still_unpaid_the_next_day_alerts_again_at_that_days_end(
    alert_app, smtp_server, clock
):
    lead_id = signed_lead(alert_app, "Checked Seller")
    clock(YESTERDAY, 17, 5)
    run_job(alert_app)
    clock(business_today(), 9, 0)  # the next morning: today's business day is not over
    assert run_job(alert_app) == "none late"
    clock(business_today(), 17, 5)
    assert run_job(alert_app) == "1 late, 1 alerted now"
    assert len(late_alerts(smtp_server)) == 2
    with alert_app.app_context():
        days = [
            e["data"]["day"] for e in history.lead_events(lead_id) if e["kind"] == deadline.ALERTED
        ]
    assert days == [YESTERDAY.isoformat(), business_today().isoformat()]


def unit_command() -> list[str]:
    """The flask command deploy/watchbuyers-payments.service runs, as its arguments."""
    unit = (ROOT / "deploy" / "watchbuyers-payments.service").read_text()
    return re.search(r"^ExecStart=\S+/flask --app app (.+)$", unit, re.M)[1].split()


def test_without_mail_settings_nothing_is_recorded_and_the_timers_next_run_sends(
    make_app, mail_settings, smtp_server, clock
):
    app = make_app(STAFF_EMAIL=STAFF)  # no SMTP_HOST yet
    lead_id = signed_lead(app, "Checked Seller")
    clock(YESTERDAY, 17, 5)
    assert run_job(app) == "not configured"
    configured = make_app(**mail_settings, LEADS_DB=app.config["LEADS_DB"], STAFF_EMAIL=STAFF)
    result = configured.test_cli_runner().invoke(args=unit_command())
    assert result.exit_code == 0, result.output
    assert result.output == "Late payments: 1 late, 1 alerted now.\n"
    [alert] = late_alerts(smtp_server)
    assert alert["Subject"] == f"{reference(configured, lead_id)}: {TITLE}"
