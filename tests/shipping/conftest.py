"""The sale by mail's tests: a fake EasyPost for this folder, and apps selling by mail through
it (no Redis: jobs run in-process)."""

from __future__ import annotations

import pytest

from tests.shipping.fake_easypost import easypost, easypost_server  # noqa: F401 (fixtures)
from tests.shipping.steps import mailin_settings


@pytest.fixture
def mailin_app(make_app, easypost):
    """An app buying labels from the fake, a fresh leads.db of its own."""
    return make_app(**mailin_settings(easypost))
