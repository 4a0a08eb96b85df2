"""The status page's tests of the sale by mail: a fake EasyPost for the module, and apps selling
by mail through it that send e-mail to the loopback SMTP server."""

from __future__ import annotations

import pytest

from app import queue
from tests.shipping.fake_easypost import easypost, easypost_server  # noqa: F401 (fixtures)
from tests.shipping.steps import mailin_settings


@pytest.fixture
def mailin_app(make_app, easypost, mail_settings):
    """An app selling by mail through the fake, e-mailing the loopback SMTP server (its jobs
    finished before the next test)."""
    app = make_app(**mailin_settings(easypost) | mail_settings, STAFF_EMAIL="desk@watches.example")
    yield app
    with app.app_context():
        queue.wait_until_idle(30)
