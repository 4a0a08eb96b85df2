"""Staff-area fixtures: the `staff` driver (tests/helpers.py) on the movable TOTP clock, an enrolled
account, and leads saved as the sell form would."""

from __future__ import annotations

import time

import pytest

from app.leads import store as leads_store
from tests.helpers import Account, Staff


@pytest.fixture
def staff(app, runner, clock) -> Staff:
    return Staff(app, runner, clock)


@pytest.fixture
def account(staff) -> Account:
    return staff.account()


@pytest.fixture
def signed_in(staff, account, app):
    """A test client signed in with both factors, as a staff member's browser is."""
    client = app.test_client()
    staff.sign_in(client, account)
    return client


@pytest.fixture
def add_lead(app):
    """Saves a lead as the sell form would; returns its id."""

    def add(**fields) -> int:
        lead = {
            "full_name": "Grace Hopper",
            "email": "grace@example.com",
            "phone": "2125550100",
            "watch_brand": "Rolex",
            "watch_model": "Submariner 126610LN",
            "watch_condition": "Excellent - Like new",
            "has_box": 1,
            "has_papers": 1,
            "additional_details": "",
            "source": "USA Website",
            "meta_event_id": f"event-{time.monotonic_ns()}",
        } | fields
        with app.app_context():
            return leads_store.save_lead(lead, [])[0]

    return add
