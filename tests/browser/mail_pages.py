"""What the sale by mail's browser tests share: one fake label provider and one live server
selling by mail per module (a server per test would start a browser's worth of work each
time), the steps of looking at a page (open it, check it fits, keep a screenshot), and the
seller's three steps before the label and staff's arrival form, as a browser takes them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import start_server
from tests.browser.helpers import visit
from tests.data.paperwork import id_photo
from tests.data.photos import photo_bytes
from tests.shipping.fake_easypost import FakeEasyPost
from tests.shipping.steps import mailin_settings

SHOTS = os.environ.get("SCREENSHOTS_DIR")  # set to look at the pages


@pytest.fixture(scope="module")
def easypost():
    """The fake label provider, for the module, its file host's CA trusted by `requests`."""
    fake = FakeEasyPost()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REQUESTS_CA_BUNDLE", fake.ca_file)
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


def gives_the_three_parts(seller, tmp_path) -> None:
    """The return address (delivered to as typed), the ID's photos, every condition ticked."""
    form = seller.locator("[data-address-form]")
    form.locator("#mail-name").fill("Jordan Avery")
    form.locator("#mail-street1").fill("410 W Main St")
    form.locator("#mail-city").fill("Boise")
    form.locator("#mail-state").select_option("ID")
    form.locator("#mail-zip").fill("83702")
    form.locator("#mail-phone").fill("(208) 555-0142")
    form.get_by_role("button", name="Check the address").click()
    expect(seller.locator("[data-mail-step=address] [data-given]")).to_be_visible()
    expect(seller.locator("[data-mail-step=address]")).to_contain_text("410 W MAIN ST")
    front, back = tmp_path / "front.jpg", tmp_path / "back.jpg"
    front.write_bytes(id_photo(1))
    back.write_bytes(id_photo(2))
    seller.set_input_files("#mail-id_front", str(front))
    seller.set_input_files("#mail-id_back", str(back))
    seller.get_by_role("button", name="Send the photos").click()
    expect(seller.locator("[data-mail-step=id] [data-given]")).to_be_visible()
    for box in seller.locator("[data-mail-step=conditions] input[type=checkbox]").all():
        box.check()
    seller.get_by_role("button", name="I agree to these conditions").click()
    expect(seller.locator("[data-mail-step=conditions] [data-given]")).to_be_visible()
    expect(seller.locator("[data-next-step]")).to_contain_text("We are checking your ID")


def photo(name: str, seed: int) -> dict:
    """A JPEG as Playwright hands a file input one."""
    return {"name": name, "mimeType": "image/jpeg",
            "buffer": photo_bytes(size=(640, 480), seed=seed)}  # fmt: skip


def records_the_arrival(staff, weight_oz: str, serial: str) -> None:
    """Staff fill the arrival form as they open the parcel: its weight, the seal intact, the
    box, the opening and the serial photographed, the serial typed; and record it."""
    staff.get_by_label("Weight measured (oz)").fill(weight_oz)
    staff.get_by_label("Intact: every seam taped, never opened").check()
    staff.get_by_label("Photos of the box as received").set_input_files(
        [photo("box-1.jpg", 1), photo("box-2.jpg", 2)]
    )
    staff.get_by_label("Photos of the opening").set_input_files([photo("opening.jpg", 3)])
    staff.get_by_label("Serial number, as engraved").fill(serial)
    staff.get_by_label("Photo of the serial in frame").set_input_files([photo("serial.jpg", 4)])
    staff.get_by_role("button", name="Record the arrival").click()
