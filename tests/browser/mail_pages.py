"""What the sale by mail's browser tests share: one fake label provider and one live server
selling by mail per module (a server per test would start a browser's worth of work each
time), and the steps of looking at a page: open it, check it fits, keep a screenshot."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import start_server
from tests.browser.helpers import visit
from tests.shipping.fake_easypost import FakeEasyPost
from tests.shipping.steps import mailin_settings

SHOTS = os.environ.get("SCREENSHOTS_DIR")  # set to look at the pages


@pytest.fixture(scope="module")
def easypost():
    """The fake label provider, for the module."""
    fake = FakeEasyPost()
    yield fake
    fake.stop()


def serve_mail(make_app, easypost, **settings):
    """A live server selling by mail through the fake (with `settings`), until the module ends."""
    server = start_server(make_app(**mailin_settings(easypost, **settings)))
    yield server
    server.shutdown()


@pytest.fixture(scope="module")
def mail_server(make_app, easypost):
    """A live server selling by mail through the fake, for the module."""
    yield from serve_mail(make_app, easypost)


def shot(page, name: str) -> None:
    """A full-page screenshot, when SCREENSHOTS_DIR names a folder."""
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def go(page, server, path: str, js: bool) -> None:
    """Open a page (waiting for its islands only where scripts run)."""
    if js:
        visit(page, server, path)
    else:
        page.goto(server.url + path)


def fits(page) -> bool:
    """Whether nothing is wider than the screen."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
