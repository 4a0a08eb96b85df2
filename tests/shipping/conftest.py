"""The sale by mail's tests: a fake EasyPost for this folder, and apps selling by mail through
it (no Redis: jobs run in-process)."""

from __future__ import annotations

import pytest

from tests.shipping.fake_easypost import FakeEasyPost
from tests.shipping.steps import mailin_settings


@pytest.fixture(scope="module")
def easypost_server():
    fake = FakeEasyPost()
    yield fake
    fake.stop()


@pytest.fixture
def easypost(easypost_server):
    """The module's fake, with no request recorded and no failure planned yet."""
    easypost_server.reset()
    return easypost_server


@pytest.fixture
def mailin_app(make_app, easypost):
    """An app buying labels from the fake, a fresh leads.db of its own."""
    return make_app(**mailin_settings(easypost))
