"""Staff record a seller's opt-out from ad sharing told by phone or e-mail: kept on the lead
like a GPC signal, on its timeline and in the audit log, once."""

from __future__ import annotations

import re

from app.leads import store
from app.leads.db import get_db
from tests.helpers import save_sample_lead


def opt_out_of(app, lead_id: int) -> str | None:
    with app.app_context():
        return store.get_lead(lead_id)["ad_opt_out"]


def test_staff_record_an_opt_out_told_by_phone_and_it_is_audited(app, staff, account):
    client = app.test_client()
    staff.sign_in(client, account)
    lead_id = save_sample_lead(app)
    page = client.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    path = f"/staff/leads/{lead_id}/ad-opt-out"
    assert client.post(path, data={"csrf_token": token}).status_code == 303
    assert opt_out_of(app, lead_id) == "choice"
    again = client.post(path, data={"csrf_token": token}, follow_redirects=True)
    assert "This seller had already opted out: nothing was changed." in again.text
    page = client.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "Seller opted out of sharing with ad platforms" in page
    assert "The seller opted out</button>" not in page
    with app.app_context():
        actions = [row[0] for row in get_db().execute("SELECT action FROM audit")]
    assert actions.count("lead_opted_out") == 1
    assert client.post(path).status_code == 400  # no CSRF token: refused
