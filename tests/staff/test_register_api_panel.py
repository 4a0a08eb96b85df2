"""The register asked by API, as staff see it on the lead's page: the findings posted there ask
the register, and its answer is listed with the other checks, by "Register API"."""

from __future__ import annotations

from app import queue
from tests.data.paperwork import FINDINGS
from tests.data.staff_purchase import appointment_lead, lead_page, post_step, purchase
from tests.helpers import business_today
from tests.sale.purchase.fake_register import (  # noqa: F401 (fixtures)
    register,
    register_server,
    register_settings,
)


def test_findings_posted_on_the_lead_page_ask_the_register_and_show_its_answer(
    app, signed_in, register
):
    app.config.update(register_settings(register))
    lead_id = appointment_lead(app)
    assert post_step(signed_in, lead_id, "findings", FINDINGS).status_code == 303
    with app.app_context():
        queue.wait_until_idle(10)
    assert [s["body"]["serial_number"] for s in register.searches()] == [
        FINDINGS["serial_number"].replace(" ", "").replace("-", "").upper()
    ]
    kept = purchase(app, lead_id)
    assert (kept["register_result"], kept["register_reference"]) == ("clear", "REG-0001")
    assert kept["register_checked_on"] == business_today().isoformat()
    html = lead_page(signed_in, lead_id)
    assert "Stolen-watch register asked by API" in html
    assert "Register API" in html and "The Watch Register" in html
