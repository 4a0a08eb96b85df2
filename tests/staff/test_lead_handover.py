"""Staff see how a seller wants to hand the watch over: a mail lead is marked in the inbox, and
the lead page names the handover and the ZIP code of every lead that was asked."""

from app.leads import search
from tests.helpers import JSON, post


def sent(app, **fields) -> dict:
    app.config["MAILIN_ENABLED"] = True
    assert post(app.test_client(), fields, headers=JSON).get_json()["success"] is True
    with app.app_context():
        return search.list_leads()[0]


def test_a_mail_lead_is_marked_in_the_inbox_and_on_its_page(app, signed_in):
    lead = sent(app, postalCode="83702", handover="mail", metaEventId="evt-mail-00001")
    inbox = signed_in.get("/staff/leads").get_data(as_text=True)
    assert "By insured mail · ZIP 83702" in inbox
    page = signed_in.get(f"/staff/leads/{lead['id']}").get_data(as_text=True)
    assert "Handover</dt>" in page and "By insured mail · ZIP 83702" in page


def test_an_in_person_lead_names_its_handover_on_its_page_only(app, signed_in):
    lead = sent(app, postalCode="10001", handover="in_person", metaEventId="evt-meet-00001")
    inbox = signed_in.get("/staff/leads").get_data(as_text=True)
    assert "data-handover" not in inbox and "insured mail" not in inbox
    page = signed_in.get(f"/staff/leads/{lead['id']}").get_data(as_text=True)
    assert "In person · ZIP 10001" in page


def test_a_lead_never_asked_reads_as_before(app, signed_in, add_lead):
    lead_id = add_lead()
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "Handover</dt>" not in page
