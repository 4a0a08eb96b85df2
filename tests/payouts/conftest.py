"""The payout's tests: a fake bank API for this folder, and apps paying through it (no Redis:
jobs run in-process)."""

from __future__ import annotations

import pytest

from tests.payouts.fake_increase import bank, increase_server  # noqa: F401 (fixtures)
from tests.payouts.steps import payout_settings


@pytest.fixture
def payout_app(make_app, bank):
    """An app paying through the fake bank, a fresh leads.db of its own."""
    return make_app(**payout_settings(bank))
