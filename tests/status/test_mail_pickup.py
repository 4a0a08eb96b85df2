"""The optional carrier pickup on the status page (app/status/pickup_views.py): offered only
while MAILIN_PICKUPS is on and only while the label waits for the carrier, a day chosen among
those offered and booked once by the job, a refused day said in plain words, a booking
cancelled; a forwarded link can book or cancel no other lead's pickup."""

from __future__ import annotations

import pytest

from app import queue
from app.leads.db import transaction
from app.shipping import labels, pickups
from tests.helpers import lead_work_done
from tests.status.mail_steps import csrf, labelled, notice


@pytest.fixture
def pickup_app(mailin_app):
    mailin_app.config["MAILIN_PICKUPS"] = True
    return mailin_app


def offered(app) -> list[str]:
    with app.app_context():
        return [day.isoformat() for day in pickups.days_offered()]


def post_pickup(client, token: str, day: str):
    return client.post(f"/status/{token}/mail/pickup",
                       data={"day": day, "csrf_token": csrf(client, token)})  # fmt: skip


def test_the_seller_books_a_pickup_on_a_day_offered_and_sees_it_booked(pickup_app, easypost):
    lead_id, token, parcel = labelled(pickup_app)
    client = pickup_app.test_client()
    page = client.get(f"/status/{token}").get_data(as_text=True)
    days = offered(pickup_app)
    assert "Book the carrier (optional, free)" in page
    assert all(f'value="{day}"' in page for day in days)
    for _ in range(2):  # a double click asks once
        assert post_pickup(client, token, days[1]).status_code == 303
    lead_work_done(pickup_app)
    assert "we are booking the carrier's pickup" in notice(client, token)
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "data-pickup-booked" in page and "between 9 am and 5 pm" in page
    assert easypost.booked_pickups() == 1


def test_a_day_not_offered_is_refused_in_plain_words(pickup_app, easypost):
    _, token, _ = labelled(pickup_app)
    client = pickup_app.test_client()
    assert post_pickup(client, token, "2026-11-28").status_code == 303  # a Saturday
    assert notice(client, token) == "Please choose one of the days offered."
    post_pickup(client, token, "soon")
    assert notice(client, token) == "Please choose one of the days offered."
    assert not [r for r in easypost.requests if r["action"].startswith("pickup")]


def test_a_booked_pickup_is_cancelled_from_the_page(pickup_app, easypost):
    _, token, _ = labelled(pickup_app)
    client = pickup_app.test_client()
    post_pickup(client, token, offered(pickup_app)[0])
    lead_work_done(pickup_app)
    answer = client.post(f"/status/{token}/mail/pickup/cancel",
                         data={"csrf_token": csrf(client, token)})  # fmt: skip
    assert answer.status_code == 303
    assert "Your pickup is cancelled" in notice(client, token)
    assert [r["action"] for r in easypost.requests].count("pickup_cancel") == 1
    assert "Book the carrier (optional, free)" in client.get(f"/status/{token}").get_data(True)


def test_not_offered_while_the_setting_is_off_or_once_the_carrier_has_the_parcel(
    mailin_app, easypost
):
    _, token, parcel = labelled(mailin_app)
    client = mailin_app.test_client()
    assert "data-pickup" not in client.get(f"/status/{token}").get_data(as_text=True)
    assert post_pickup(client, token, offered(mailin_app)[0]).status_code == 404
    mailin_app.config["MAILIN_PICKUPS"] = True
    with mailin_app.app_context(), transaction() as db:
        db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (parcel["id"],))
    assert "data-pickup" not in client.get(f"/status/{token}").get_data(as_text=True)
    post_pickup(client, token, offered(mailin_app)[0])
    assert "not yet with the carrier" in notice(client, token)
    assert not [r for r in easypost.requests if r["action"].startswith("pickup")]


def test_a_link_books_only_its_own_parcel(pickup_app, easypost):
    _, token, mine = labelled(pickup_app)
    other_lead, _, theirs = labelled(pickup_app)
    client = pickup_app.test_client()
    post_pickup(client, token, offered(pickup_app)[0])
    lead_work_done(pickup_app)
    with pickup_app.app_context():
        assert pickups.latest(theirs["id"]) is None
        assert pickups.latest(mine["id"])["state"] == "scheduled"
        assert labels.get(theirs["id"])["lead_id"] == other_lead
        queue.wait_until_idle(10)
