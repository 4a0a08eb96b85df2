"""The optional carrier pickup on the status page in Chromium, at 375 px with JavaScript and
1280 px without: the seller opens the offer under the label, chooses a day, books it, and sees
it booked; nothing overflows the narrow screen."""

from __future__ import annotations

import pytest

from tests.browser.helpers import DESKTOP, MOBILE, open_page
from tests.browser.mail_pages import easypost, fits, go, serve_mail, shot  # noqa: F401
from tests.helpers import lead_work_done
from tests.status.mail_steps import labelled


@pytest.fixture(scope="module")
def pickup_server(make_app, easypost):
    """A live server selling by mail with pickups offered, for the module."""
    yield from serve_mail(make_app, easypost, MAILIN_PICKUPS="1")


@pytest.mark.parametrize(
    ("viewport", "js"), [(MOBILE, True), (DESKTOP, False)], ids=["375-js", "1280-no-js"]
)
def test_the_seller_books_a_pickup_under_the_label(browser, pickup_server, viewport, js):
    app = pickup_server.app
    _, token, _ = labelled(app)
    context, page = open_page(browser, pickup_server, viewport, java_script_enabled=js)
    name = f"{viewport['width']}{'' if js else '-nojs'}"
    try:
        go(page, pickup_server, f"/status/{token}", js)
        page.get_by_text("Prefer a pickup at your door?").click()
        page.locator("[data-pickup] input[type=radio]").first.check()
        assert fits(page)
        shot(page, f"pickup-choose-{name}")
        page.get_by_role("button", name="Book the pickup").click()
        page.wait_for_selector("[data-pickup-asked], [data-pickup-booked]")
        lead_work_done(app)
        go(page, pickup_server, f"/status/{token}", js)
        assert "between 9 am and 5 pm" in page.inner_text("[data-pickup-booked]")
        assert page.get_by_role("button", name="Cancel the pickup").is_visible() and fits(page)
        shot(page, f"pickup-booked-{name}")
    finally:
        context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
