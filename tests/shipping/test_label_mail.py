"""The seller's e-mail that their prepaid label is ready: sent once per parcel when the label job
buys it (however often the job runs), never with the tracking number or the label, only the
status link; none for a return parcel, a label already scanned, or an erased lead."""

from __future__ import annotations

import pytest

from app.leads import store
from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle
from app.shipping import labels
from app.shipping.shipment_state import Leg
from tests.helpers import lead_work_done, save_sample_lead
from tests.shipping.deal_steps import QUOTE
from tests.shipping.fake_easypost import label_url
from tests.shipping.steps import mailin_settings
from worker import label_jobs, parcel_mail

SELLER = "jane@example.com"
SUBJECT = "Your prepaid label for your Rolex Submariner is ready"


@pytest.fixture
def app(make_app, easypost, mail_settings):
    """Selling by mail through the fake, e-mailing through the loopback SMTP server."""
    return make_app(**mailin_settings(easypost), **mail_settings)


def parcel_to_buy(app, leg: Leg = Leg.INBOUND) -> int:
    """A mail deal whose quote the seller accepted, its `leg` parcel on record without a label."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        lifecycle.transition(lead_id, State.QUOTED, "staff:1", QUOTE, State.NEW)
        deal = lifecycle.transition(lead_id, State.ACCEPTED, "seller", {}, State.QUOTED)
        with transaction() as db:
            db.execute("UPDATE leads SET handover = 'mail' WHERE id = ?", (lead_id,))
        return labels.open_shipment(lead_id, leg, deal, 10500, "adr_seller_1")


def told(smtp_server) -> list:
    return [m for m in smtp_server.messages if m["To"] == SELLER and SUBJECT in m["Subject"]]


def buy(app, shipment_id: int) -> dict:
    with app.app_context():
        label_jobs.buy_shipping_label(shipment_id)
    lead_work_done(app)
    with app.app_context():
        return labels.get(shipment_id)


def test_the_label_bought_tells_the_seller_once_with_only_the_status_link(app, smtp_server):
    shipment_id = parcel_to_buy(app)
    parcel = buy(app, shipment_id)
    buy(app, shipment_id)  # the job run again (a retry after a time-out, say)
    with app.app_context():
        assert parcel_mail.send_label_mail(shipment_id) == "nothing owed"
    [message] = told(smtp_server)
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "your prepaid, insured label" in text.lower() and "status page" in text
    assert "within 14 days" in text  # MAILIN_LABEL_VOID_DAYS, not a number of our own
    image = label_url(parcel["provider_shipment_id"])
    for secret in (parcel["tracking_code"], image, parcel["provider_shipment_id"]):
        assert secret and secret not in text and secret not in html
    assert "https://watches.example/status/" in text and text.count("Reference:") == 1
    assert message["Message-ID"].startswith(f"<lead-{parcel['lead_id']}-parcel-{shipment_id}-")
    assert not message.iter_attachments() or not list(message.iter_attachments())


def test_a_new_parcel_gets_its_own_e_mail_a_return_or_erased_lead_none(app, smtp_server):
    first = parcel_to_buy(app)
    buy(app, first)
    back = parcel_to_buy(app, Leg.RETURN)
    buy(app, back)
    assert len(told(smtp_server)) == 1  # the return's label is the return's own affair
    erased = parcel_to_buy(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET erased_at = '2026-11-27T00:00:00+00:00' WHERE id = "
                   "(SELECT lead_id FROM shipments WHERE id = ?)", (erased,))  # fmt: skip
    buy(app, erased)
    assert len(told(smtp_server)) == 1
    with app.app_context():
        lead_id = labels.get(first)["lead_id"]
        assert store.get_lead(lead_id)["state"] == State.ACCEPTED
