"""What a parcel needs a person for when no carrier says so: a return the policy's lowered limit
will not cover, and a pickup booking the provider never answered. Each is on the lead's
timeline once and e-mailed to staff once, however often the job or the reconciler finds it; the
e-mail names the lead and what to do, never the tracking number."""

from __future__ import annotations

import pytest

from app.leads.db import immediate_transaction
from app.leads.history import lead_events
from app.leads.state import State
from app.sale import lifecycle
from app.shipping import pickups, reconcile
from tests.helpers import lead_work_done
from tests.shipping.return_steps import mail_deal, parcels
from tests.shipping.steps import bought_label, mailin_settings

STAFF = "staff@example.com"


@pytest.fixture
def app(make_app, easypost, mail_settings):
    """Selling by mail with pickups, e-mail to the loopback SMTP server, staff's included."""
    return make_app(**mailin_settings(easypost, MAILIN_PICKUPS="1"), **mail_settings,
                    STAFF_EMAIL=STAFF, JOB_RETRY_INTERVALS=())  # fmt: skip


def attention(app, lead_id: int) -> list[dict]:
    """The lead's shipment_attention events' data."""
    with app.app_context():
        return [e["data"] for e in lead_events(lead_id) if e["kind"] == "shipment_attention"]


def staff_mail(smtp_server, subject_part: str) -> list:
    return [m for m in smtp_server.messages if m["To"] == STAFF and subject_part in m["Subject"]]


def reconcile_twice(app) -> str:
    """Two runs of the reconciler, its jobs done after each; the second's summary."""
    for _ in range(2):
        with app.app_context():
            done = reconcile.reconcile()
        lead_work_done(app)
    return done.summary()


def test_a_return_above_a_lowered_limit_is_put_before_staff_once(app, easypost, smtp_server):
    inbound = mail_deal(app)
    app.config["MAILIN_MAX_VALUE"] = inbound["insured_value"] - 1
    with app.app_context():
        lifecycle.transition(inbound["lead_id"], State.CLOSED, "seller",
                             {"reason": "seller_declined"}, State.OFFERED)  # fmt: skip
    lead_work_done(app)
    assert "not opened: $" in reconcile_twice(app)
    assert parcels(app, inbound["lead_id"], "return") == []
    [raised] = attention(app, inbound["lead_id"])
    assert raised["reason"] == "return_over_limit" and raised["shipment"] == inbound["id"]
    [alert] = staff_mail(smtp_server, "its return could not be opened")
    body = alert.get_content()
    assert "MAILIN_MAX_VALUE" in body and f"/staff/leads/{inbound['lead_id']}" in body
    assert inbound["tracking_code"] not in alert.as_string()


def test_a_pickup_never_answered_is_put_before_staff_once(app, easypost, smtp_server):
    parcel = bought_label(app)
    easypost.plan("pickup_create", 500)
    with app.app_context():
        pickup_id = pickups.ask(parcel, pickups.days_offered()[0])
    lead_work_done(app)  # the one try failed: the booking stays asked
    with app.app_context():
        assert pickups.unanswered() == []  # not yet: the job may still be trying
        with immediate_transaction() as db:
            db.execute("UPDATE pickups SET asked_at = '2026-01-05T09:00:00+00:00'")
        assert pickups.get(pickup_id)["state"] == "asked"
    assert f"pickups never answered: #{pickup_id}" in reconcile_twice(app)
    [raised] = attention(app, parcel["lead_id"])
    assert (raised["reason"], raised["pickup"]) == ("pickup_unanswered", pickup_id)
    [alert] = staff_mail(smtp_server, "its pickup booking was never answered")
    assert "book it with the carrier by phone" in alert.get_content()
    assert parcel["tracking_code"] not in alert.as_string()
    with app.app_context():
        kinds = [e["kind"] for e in lead_events(parcel["lead_id"])]
    assert kinds.count("shipment_attention") == 1 and kinds.count("staff_alerted") == 1
