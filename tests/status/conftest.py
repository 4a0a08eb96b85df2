"""The status page's tests of the sale by mail: a fake EasyPost for the module, and apps selling
by mail through it that send e-mail to the loopback SMTP server."""

from __future__ import annotations

import pytest

from app import queue
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
def mailin_app(make_app, easypost, mail_settings):
    """An app selling by mail through the fake, e-mailing the loopback SMTP server (its jobs
    finished before the next test)."""
    app = make_app(**mailin_settings(easypost) | mail_settings, STAFF_EMAIL="desk@watches.example")
    yield app
    with app.app_context():
        queue.wait_until_idle(30)
