"""The payout's tests: a fake bank API for this folder, apps paying through it (no Redis: jobs
run in-process), and two staff members signed in with both factors, as asking and approving
take."""

from __future__ import annotations

import pytest

from tests.helpers import Staff
from tests.payouts.fake_increase import bank, increase_server  # noqa: F401 (fixtures)
from tests.payouts.steps import payout_settings


@pytest.fixture
def payout_app(make_app, bank):
    """An app paying through the fake bank, a fresh leads.db of its own."""
    return make_app(**payout_settings(bank))


@pytest.fixture
def staff(payout_app, clock) -> Staff:
    return Staff(payout_app, payout_app.test_cli_runner(), clock)


@pytest.fixture
def ana(staff, payout_app):
    """Ana Lima, signed in with both factors in a browser of her own: she asks."""
    client = payout_app.test_client()
    staff.sign_in(client, staff.account("ana@example.com", "Ana Lima"))
    return client


@pytest.fixture
def ben(staff, payout_app):
    """Ben Ortiz, signed in likewise: he approves."""
    client = payout_app.test_client()
    staff.sign_in(client, staff.account("ben@example.com", "Ben Ortiz"))
    return client
