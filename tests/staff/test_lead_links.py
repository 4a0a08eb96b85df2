"""Staff revoke every status link of a lead from its page: a CSRF-checked POST,
audited and on the lead's timeline; the links then get the one 404 every bad link gets."""

from __future__ import annotations

import re

from app.leads import audit, history
from app.leads.reference import new_status_token
from tests.helpers import give_token


def revoke_form(html: str) -> tuple[str, str]:
    """The revoke form's action and CSRF token, as a browser would submit them."""
    form = re.search(
        r'<form method="post" action="([^"]+/links/revoke)"[^>]*>\s*'
        r'<input type="hidden" name="csrf_token" value="([^"]+)"',
        html,
    )
    assert form, "no revoke form on the lead page"
    return form.group(1), form.group(2)


def test_staff_revoke_every_status_link_of_a_lead_from_its_page(app, signed_in, add_lead):
    lead_id, other_id = add_lead(), add_lead()
    tokens = [give_token(app, lead_id), give_token(app, lead_id)]
    other = give_token(app, other_id)
    seller = app.test_client()
    not_found = seller.get(f"/status/{new_status_token()}").get_data()
    html = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "2 working status links" in html
    action, csrf = revoke_form(html)
    assert action == f"/staff/leads/{lead_id}/links/revoke"

    forged = signed_in.post(action, data={})
    assert forged.status_code == 400
    assert all(seller.get(f"/status/{t}").status_code == 200 for t in tokens)

    answer = signed_in.post(action, data={"csrf_token": csrf})
    assert answer.status_code == 303 and answer.headers["Location"] == f"/staff/leads/{lead_id}"
    html = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "2 status links of this lead stopped working" in html
    assert "No working status link" in html
    assert "Status links revoked" in html  # on the timeline
    for token in tokens:
        revoked = seller.get(f"/status/{token}")
        assert revoked.status_code == 404 and revoked.get_data() == not_found
    assert seller.get(f"/status/{other}").status_code == 200
    with app.app_context():
        [entry] = [e for e in audit.entries(lead_id) if e["action"] == "status_links_revoked"]
        [event] = [e for e in history.lead_events(lead_id) if e["kind"] == "links_revoked"]
    assert entry["data"] == {"links": 2} and entry["staff_id"]
    assert event["actor"] == f"staff:{entry['staff_id']}" and event["data"] == {"links": 2}


def test_revoking_needs_a_signed_in_staff_member(app, add_lead):
    lead_id = add_lead()
    token = give_token(app, lead_id)
    client = app.test_client()
    public_page = client.get("/status").get_data(as_text=True)  # a valid CSRF token, no staff
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', public_page).group(1)
    answer = client.post(f"/staff/leads/{lead_id}/links/revoke", data={"csrf_token": csrf})
    assert answer.status_code == 303 and answer.headers["Location"] == "/staff/login"
    assert app.test_client().get(f"/status/{token}").status_code == 200
