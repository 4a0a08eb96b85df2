"""A carrier pickup at the seller's door (app/shipping/pickups.py), against the fake EasyPost:
offered only while MAILIN_PICKUPS is on and only for a labelled parcel not yet with the carrier,
booked once however often it is asked or retried, a carrier's refusal ended in its words, and
cancelled on request."""

from __future__ import annotations

from datetime import date

import pytest

from app import queue
from app.leads.history import lead_events
from app.shipping import easypost_api, labels, pickups
from app.shipping.easypost_api import ProviderError
from tests.shipping.steps import bought_label, mailin_settings


@pytest.fixture
def pickup_app(make_app, easypost):
    return make_app(**mailin_settings(easypost, MAILIN_PICKUPS="1"))


def first_day(app) -> date:
    with app.app_context():
        return pickups.days_offered()[0]


def test_the_days_offered_are_the_next_five_working_days():
    friday = date(2026, 11, 27)
    assert pickups.days_offered(friday) == [
        date(2026, 11, 30), date(2026, 12, 1), date(2026, 12, 2), date(2026, 12, 3),
        date(2026, 12, 4),
    ]  # fmt: skip


def test_pickups_are_not_offered_unless_the_policy_allows_them(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    with mailin_app.app_context(), pytest.raises(pickups.PickupRefused, match="staffed counter"):
        pickups.ask(parcel, pickups.days_offered()[0])
    assert not [r for r in easypost.requests if r["action"].startswith("pickup")]


def test_asked_three_times_and_retried_one_pickup_is_booked(pickup_app, easypost):
    parcel = bought_label(pickup_app)
    day = first_day(pickup_app)
    with pickup_app.app_context():
        ids = {pickups.ask(parcel, day) for _ in range(3)}
        queue.wait_until_idle(10)
        [pickup_id] = ids
        assert pickups.book(pickup_id) == "already scheduled"  # a repeated job
        booked = pickups.get(pickup_id)
        assert booked["state"] == "scheduled" and booked["confirmation"].startswith("WTC")
        kinds = [e["kind"] for e in lead_events(parcel["lead_id"])]
    assert kinds.count("pickup_asked") == 1 and kinds.count("pickup_scheduled") == 1
    assert easypost.booked_pickups() == 1
    [created] = [r for r in easypost.requests if r["action"] == "pickup_create"]
    asked = created["body"]["pickup"]
    assert asked["shipment"] == {"id": parcel["provider_shipment_id"]}
    assert asked["address"] == {"id": parcel["from_address_id"]}
    assert asked["min_datetime"] == f"{day}T09:00:00"
    assert "watch" not in str(asked).lower()  # nothing outside the box says what it holds


def test_a_booking_that_timed_out_is_taken_not_made_twice(pickup_app, easypost):
    parcel = bought_label(pickup_app)
    easypost.plan("pickup_buy", "slow")  # booked, but the answer comes after the client gave up
    with pickup_app.app_context():
        pickup_id = pickups.ask(parcel, first_day(pickup_app))
        queue.wait_until_idle(10)
        assert pickups.get(pickup_id)["state"] == "asked"  # the try failed: the job retries
        assert pickups.book(pickup_id) == "scheduled"
        provider_id = pickups.get(pickup_id)["provider_pickup_id"]
    assert [r["action"] for r in easypost.requests].count("pickup_create") == 1
    assert easypost.pickups[provider_id]["status"] == "scheduled"
    assert easypost.booked_pickups() == 1  # the slow booking, taken by the retry as it was


def test_a_carrier_refusal_ends_the_booking_in_its_words_and_another_day_may_be_asked(
    pickup_app, easypost
):
    parcel = bought_label(pickup_app)
    easypost.plan("pickup_create", 422)
    days = None
    with pickup_app.app_context():
        days = pickups.days_offered()
        failed = pickups.ask(parcel, days[0])
        queue.wait_until_idle(10)
        assert pickups.get(failed)["state"] == "failed"
        assert "could not ask for the pickup" in pickups.get(failed)["failure"]
        again = pickups.ask(parcel, days[1])
        queue.wait_until_idle(10)
        assert pickups.get(again)["state"] == "scheduled"


def test_an_outage_is_raised_for_the_job_to_retry(pickup_app, easypost):
    parcel = bought_label(pickup_app)
    with pickup_app.app_context():
        pickup_app.config["JOB_RETRY_INTERVALS"] = ()
        easypost.plan("pickup_create", 500)
        pickup_id = pickups.ask(parcel, first_day(pickup_app))
        queue.wait_until_idle(10)
        assert pickups.get(pickup_id)["state"] == "asked"
        easypost.plan("pickup_create", 500)
        with pytest.raises(ProviderError):
            pickups.book(pickup_id)
        assert pickups.book(pickup_id) == "scheduled"


@pytest.mark.parametrize("change", ["day", "scanned", "return"])
def test_refused_for_a_day_not_offered_a_parcel_with_the_carrier_or_a_return(
    pickup_app, easypost, change
):
    parcel = bought_label(pickup_app)
    day = first_day(pickup_app)
    if change == "day":
        day = date(2026, 11, 28)  # a Saturday, and not among the days offered
    elif change == "scanned":
        parcel = parcel | {"state": "in_transit"}
    else:
        parcel = parcel | {"leg": "return"}
    with pickup_app.app_context(), pytest.raises(pickups.PickupRefused):
        pickups.ask(parcel, day)
    assert not [r for r in easypost.requests if r["action"].startswith("pickup")]


def test_a_booked_pickup_is_cancelled_then_another_day_may_be_asked(pickup_app, easypost):
    parcel = bought_label(pickup_app)
    with pickup_app.app_context():
        days = pickups.days_offered()
        first = pickups.ask(parcel, days[0])
        queue.wait_until_idle(10)
        with pytest.raises(pickups.PickupRefused, match="cancel it first"):
            pickups.ask(parcel, days[1])
        pickups.cancel(labels.get(parcel["id"]))
        assert pickups.get(first)["state"] == "cancelled"
        assert pickups.ask(parcel, days[1]) != first
        queue.wait_until_idle(10)
    assert [r["action"] for r in easypost.requests].count("pickup_cancel") == 1
    with pickup_app.app_context(), pytest.raises(pickups.PickupRefused, match="no pickup"):
        pickups.cancel({"id": 999})


def test_a_pickup_cancelled_while_it_is_being_booked_is_called_off_at_the_carrier(
    pickup_app, easypost, monkeypatch
):
    parcel = bought_label(pickup_app)
    create = easypost_api.create_pickup

    def seller_cancels_first(*args):
        """The seller presses cancel after the job read the booking, before it reached the
        provider: nothing there yet to call off."""
        pickups.cancel(labels.get(parcel["id"]))
        return create(*args)

    monkeypatch.setattr(easypost_api, "create_pickup", seller_cancels_first)
    with pickup_app.app_context():
        pickup_app.config["JOB_RETRY_INTERVALS"] = ()
        pickup_id = pickups.ask(parcel, first_day(pickup_app))
        queue.wait_until_idle(10)
        done = pickups.get(pickup_id)
        assert done["state"] == "cancelled"
        assert pickups.book(pickup_id) == "already cancelled"  # a repeated job books nothing
    assert easypost.booked_pickups() == 1
    assert easypost.pickups[done["provider_pickup_id"]]["status"] == "canceled"
