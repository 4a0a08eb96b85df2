"""The seller's e-mails about their parcel: one when the carrier first has it on its way to us,
one when it is delivered to us, and the same two for the return parcel on its way back; once
each however often, and in whatever order, the tracking events come; never a tracking number or
a label in them."""

from __future__ import annotations

import pytest

from app.leads.db import transaction
from app.shipping.shipment_state import Leg
from tests.helpers import lead_work_done
from tests.shipping.deal_steps import mail_deal, move
from tests.shipping.fake_easypost import label_url
from tests.shipping.steps import mailin_settings
from worker import parcel_mail

SELLER = "jane@example.com"


@pytest.fixture
def app(make_app, easypost, mail_settings):
    """Selling by mail through the fake, e-mailing through the loopback SMTP server."""
    return make_app(**mailin_settings(easypost), **mail_settings)


def seller_mail(smtp_server) -> list:
    return [message for message in smtp_server.messages if message["To"] == SELLER]


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def test_the_seller_hears_once_on_the_way_and_once_delivered_however_often_it_is_said(
    app, smtp_server
):
    parcel = mail_deal(app)
    before = len(seller_mail(smtp_server))
    move(app, parcel, "in_transit", "in_transit", "out_for_delivery", "in_transit")
    move(app, parcel, "delivered", "delivered", "in_transit")
    told = seller_mail(smtp_server)[before:]
    assert [message["Subject"].split(" (")[0] for message in told] == [
        "Your Rolex Submariner is on its way to us",
        "We have your Rolex Submariner",
    ]
    for message in told:
        body = text_of(message)
        assert parcel["tracking_code"] not in body
        assert label_url(parcel["provider_shipment_id"]) not in body
        assert parcel["tracking_code"] not in message.get_body(("html",)).get_content()
        assert "https://watches.example/status/" in body
        assert body.count("Reference:") == 1
    assert "keep the counter receipt" in text_of(told[0])
    assert told[0]["Message-ID"] != told[1]["Message-ID"]


def test_a_parcel_delivered_before_its_first_scan_arrives_sends_only_we_have_it(app, smtp_server):
    parcel = mail_deal(app)
    before = len(seller_mail(smtp_server))
    move(app, parcel, "delivered", "in_transit", "out_for_delivery")
    told = seller_mail(smtp_server)[before:]
    assert [message["Subject"].split(" (")[0] for message in told] == [
        "We have your Rolex Submariner"
    ]


def test_the_job_run_again_sends_nothing_more(app, smtp_server):
    parcel = mail_deal(app)
    move(app, parcel, "in_transit")
    count = len(seller_mail(smtp_server))
    with app.app_context():
        assert parcel_mail.send_parcel_mail(parcel["id"]) == "nothing owed"
    assert len(seller_mail(smtp_server)) == count


def test_a_return_parcel_tells_the_seller_once_on_its_way_back_and_once_delivered(app, smtp_server):
    parcel = mail_deal(app, Leg.RETURN)
    before = len(seller_mail(smtp_server))
    move(app, parcel, "in_transit", "out_for_delivery", "in_transit")
    move(app, parcel, "delivered", "delivered")
    told = seller_mail(smtp_server)[before:]
    assert [message["Subject"].split(" (")[0] for message in told] == [
        "Your Rolex Submariner is on its way back to you",
        "Your Rolex Submariner is back with you",
    ]
    assert "An adult must sign for it" in text_of(told[0])
    assert "This ends your sale with us" in text_of(told[1])
    for message in told:
        assert parcel["tracking_code"] not in message.as_string()
        assert "(212) 555-0147" in text_of(message)
        assert text_of(message).count("Reference:") == 1  # once, with the letter's own
    with app.app_context():
        assert parcel_mail.send_parcel_mail(parcel["id"]) == "nothing owed"


def test_an_erased_lead_is_not_written_to(app, smtp_server):
    parcel = mail_deal(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET erased_at = '2026-11-27T10:00:00+00:00', email = ''")
    before = len(smtp_server.messages)
    move(app, parcel, "in_transit")
    lead_work_done(app)
    assert len(smtp_server.messages) == before
