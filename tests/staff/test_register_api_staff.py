"""The register asked by API, as staff see it: the findings posted on the lead's page ask the
register, its answer is listed with the other checks by "Register API", and the inbox shows
each lead's check at a glance with a filter for those a person must act on."""

from __future__ import annotations

from app import queue
from app.leads import store
from app.leads.db import get_db
from app.sale.purchase import register_asks
from tests.data.paperwork import FINDINGS
from tests.data.staff_purchase import (
    appointment_lead,
    check_register,
    lead_page,
    post_step,
    purchase,
)
from tests.helpers import business_today, wait_until
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
    assert "Register&#39;s reference" in html and "REG-0001" in html
    assert "Open the certificate" in html


def test_the_register_is_asked_with_the_brand_staff_authenticated_never_the_sell_forms(
    app, signed_in, register
):
    app.config.update(register_settings(register))
    lead_id = appointment_lead(app)  # the seller chose Rolex on /sell
    findings = FINDINGS | {"brand": "Tudor"}  # the watchmaker reads a Tudor
    assert post_step(signed_in, lead_id, "findings", findings).status_code == 303
    with app.app_context():
        queue.wait_until_idle(10)
        assert store.get_lead(lead_id)["watch_brand"] == "Rolex"
    assert [s["body"]["brand"] for s in register.searches()] == ["Tudor"]
    assert purchase(app, lead_id)["brand"] == "Tudor"
    assert "Tudor" in lead_page(signed_in, lead_id)
    corrected = findings | {"brand": "Rolex"}  # corrected: a new question, with the new brand
    assert post_step(signed_in, lead_id, "findings", corrected).status_code == 303
    with app.app_context():
        queue.wait_until_idle(10)
    assert [s["body"]["brand"] for s in register.searches()] == ["Tudor", "Rolex"]


def test_findings_without_a_brand_are_refused_and_ask_nothing(app, signed_in, register):
    app.config.update(register_settings(register))
    lead_id = appointment_lead(app)
    response = post_step(signed_in, lead_id, "findings", FINDINGS | {"brand": " "})
    assert response.status_code == 400
    assert register.searches() == [] and not (purchase(app, lead_id) or {}).get("serial_number")


def asked_about(app, register, answer) -> int:
    """A lead whose findings asked the register, answered as `answer` says (a result, or a
    failure planned for the first try and its retry)."""
    lead_id = appointment_lead(app)
    if answer in ("clear", "flagged", "unknown"):
        register.answer(FINDINGS["serial_number"], answer)
    else:
        register.plan("search", answer, answer)
    with app.app_context():
        register_asks.record_findings_and_ask(lead_id, "staff:1", FINDINGS)
        wait_until(lambda: register_asks.get(lead_id_ask(lead_id))["outcome"], timeout=20)
    return lead_id


def lead_id_ask(lead_id: int) -> int:
    return (
        get_db()
        .execute("SELECT max(id) FROM register_asks WHERE lead_id = ?", (lead_id,))
        .fetchone()[0]
    )


def listed(client, query: str = "") -> str:
    response = client.get(f"/staff/leads{query}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_the_inbox_shows_each_check_at_a_glance_and_filters_those_needing_a_person(
    app, signed_in, register
):
    app.config.update(register_settings(register), JOB_RETRY_INTERVALS=(0.1,))
    references = {}
    for answer in ("clear", "flagged", "unknown", 500):
        lead_id = asked_about(app, register, answer)
        references[answer] = purchase_reference(app, lead_id)
        register.reset()
    untouched = purchase_reference(app, appointment_lead(app))
    html = listed(signed_in)
    for words in ("Register clear", "Register FLAGGED", "Register: unknown", "Register: no answer"):
        assert html.count(words) == 1
    flagged = listed(signed_in, "?register=flagged")
    assert references["flagged"] in flagged
    assert all(references[other] not in flagged for other in ("clear", "unknown", 500))
    by_hand = listed(signed_in, "?register=by_hand")
    assert references["unknown"] in by_hand and references[500] in by_hand
    answered = (references["clear"], references["flagged"], untouched)
    assert all(ref not in by_hand for ref in answered)
    assert 'value="by_hand">Failed or unknown' in by_hand  # the filter is in the form, chosen
    assert listed(signed_in, "?register=nonsense").count("Register FLAGGED") == 1  # ignored


def test_a_check_recorded_by_hand_after_a_failed_question_takes_it_off_the_by_hand_filter(
    app, signed_in, register
):
    app.config.update(register_settings(register), JOB_RETRY_INTERVALS=(0.1,))
    lead_id = asked_about(app, register, 500)
    reference = purchase_reference(app, lead_id)
    assert reference in listed(signed_in, "?register=by_hand")
    check_register(signed_in, lead_id)
    assert reference not in listed(signed_in, "?register=by_hand")
    assert "Register clear" in listed(signed_in)


def purchase_reference(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["reference"]
