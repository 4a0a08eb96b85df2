"""The sale by mail's section of the status page in Chromium, at 375 and 1280 px, with and
without JavaScript: the seller types the return address, the carrier's check suggests a
correction, one click takes it; the ID's photos and the conditions are sent as plain forms; then
the label is ready to download. Nothing overflows the narrow screen."""

from __future__ import annotations

import pytest

from app.shipping import labels
from tests.browser.helpers import DESKTOP, MOBILE, open_page
from tests.browser.mail_pages import easypost, fits, go, mail_server, shot  # noqa: F401
from tests.data.paperwork import id_photo
from tests.status.mail_steps import mail_deal, verify_id


@pytest.mark.parametrize(
    ("viewport", "js"), [(MOBILE, True), (DESKTOP, False)], ids=["375-js", "1280-no-js"]
)
def test_the_seller_gives_the_three_parts_and_downloads_the_label(
    browser, mail_server, viewport, js, tmp_path
):
    app = mail_server.app
    lead_id, token = mail_deal(app)
    context, page = open_page(browser, mail_server, viewport, java_script_enabled=js)
    name = f"{viewport['width']}{'' if js else '-nojs'}"
    try:
        go(page, mail_server, f"/status/{token}", js)
        assert fits(page)
        shot(page, f"mail-steps-{name}")
        form = page.locator("[data-address-form]")
        form.locator("#mail-name").fill("Jordan Avery")
        form.locator("#mail-street1").fill("12 Mian St")
        form.locator("#mail-city").fill("Boise")
        form.locator("#mail-state").select_option("ID")
        form.locator("#mail-zip").fill("83702")
        form.locator("#mail-phone").fill("(208) 555-0142")
        form.get_by_role("button", name="Check the address").click()
        page.wait_for_selector("[data-suggestion]")
        assert "12 MAIN ST, BOISE, ID 83702-1234" in page.inner_text("[data-suggestion]")
        assert fits(page)
        shot(page, f"mail-suggestion-{name}")
        page.get_by_role("button", name="Use this address").click()
        page.wait_for_selector("[data-mail-step=address] [data-given]")
        front, back = tmp_path / "front.jpg", tmp_path / "back.jpg"
        front.write_bytes(id_photo(1))
        back.write_bytes(id_photo(2))
        page.set_input_files("#mail-id_front", str(front))
        page.set_input_files("#mail-id_back", str(back))
        page.get_by_role("button", name="Send the photos").click()
        page.wait_for_selector("[data-mail-step=id] [data-given]")
        for box in page.locator("[data-mail-step=conditions] input[type=checkbox]").all():
            box.check()
        page.get_by_role("button", name="I agree to these conditions").click()
        page.wait_for_selector("[data-mail-step=conditions] [data-given]")
        assert "We are checking your ID" in page.inner_text("[data-next-step]")
        shot(page, f"mail-given-{name}")
        with app.app_context():
            labels.buy_label(verify_id(lead_id))
        go(page, mail_server, f"/status/{token}", js)
        assert page.locator("[data-label]").count() == 2 and fits(page)
        shot(page, f"mail-label-{name}")
        with page.expect_download() as download:
            page.click("[data-label='4x6']")
        assert download.value.suggested_filename.endswith("-4x6.pdf")
    finally:
        context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
