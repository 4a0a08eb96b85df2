"""The final offer and the sale paperwork in Chromium, with JavaScript on and off: the
seller accepts the offer on the status page, fills in the paperwork with two ID photos, mistypes
the routing number, types again only that, and signs; the page then shows what was signed by
the last 4 digits only. The declaration bears the name as typed (live with JavaScript, from the
server without). And both pages pass axe at both widths."""

from __future__ import annotations

import pytest

from app.sale.purchase import files, record
from tests.browser.helpers import axe_violations, fill_paperwork, visit
from tests.data.paperwork import ROUTING, SECRETS, agreed_lead, id_photo, offered_lead


@pytest.fixture(scope="module")
def id_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("id-photos")
    front, back = folder / "front.jpg", folder / "back.png"
    front.write_bytes(id_photo(1))
    back.write_bytes(id_photo(2, "PNG"))
    return front, back


@pytest.mark.parametrize("viewport", ["page", "no_js_mobile_page"])
def test_the_seller_accepts_the_offer_and_signs_the_paperwork(
    request, live_server, id_files, viewport
):
    page = request.getfixturevalue(viewport)
    lead_id, token = offered_lead(live_server.app)
    page.goto(f"{live_server.url}/status/{token}")
    assert "$7,400" in page.locator("[data-final-offer]").inner_text()
    page.get_by_role("button", name="Accept the offer").click()
    assert "you have accepted our final offer" in page.locator("[data-notice]").inner_text()
    page.get_by_role("link", name="Complete the sale paperwork").click()
    assert page.url.endswith(f"/status/{token}/paperwork")
    fill_paperwork(page, id_files)
    declaration = page.locator("[data-declaration]")
    live = viewport == "page"  # JavaScript on: the declaration follows the name as it is typed
    assert ("I, Jordan A. Avery, am" if live else "I, [your full legal name]") in (
        declaration.inner_text()
    )
    page.locator("[name=routing_number]").fill("021000022")  # a checksum the server refuses
    page.get_by_role("button", name="Sign and send").click()
    assert "This routing number is not valid" in page.locator("#routing_number-error").inner_text()
    assert page.locator("[name=account_number]").input_value() == ""  # never written back ...
    assert "ending 5566" in page.locator("[data-kept=account_number]").inner_text()  # ... but kept
    assert "I, Jordan A. Avery, am" in declaration.inner_text()
    page.locator("[name=routing_number]").fill(ROUTING)  # only what was wrong
    page.get_by_role("button", name="Sign and send").click()
    signed = page.locator("[data-paperwork-signed]").inner_text()
    assert "Paperwork signed on" in signed and "ending 9305" in signed and "ending 5566" in signed
    for secret in SECRETS:
        assert secret not in page.content()
    with live_server.app.app_context():
        assert record.get(lead_id)["signed_name"] == "jordan a. avery"
        assert len(files.files_of(lead_id, files.ID_PHOTOS)) == 2


@pytest.mark.parametrize("viewport", ["page", "mobile_page"])
def test_the_offer_and_the_paperwork_have_no_accessibility_violations(
    request, live_server, viewport
):
    page = request.getfixturevalue(viewport)
    _, offered = offered_lead(live_server.app)
    visit(page, live_server, f"/status/{offered}")
    assert axe_violations(page) == []
    _, agreed = agreed_lead(live_server.app)
    visit(page, live_server, f"/status/{agreed}/paperwork")
    assert axe_violations(page) == []
