"""A sale by mail goes from the accepted quote to the final offer, which needs the findings: so
once its parcel is received, staff record them (and the register check) at the accepted quote,
as they do at an appointment. Before the parcel is received, or for an in-person deal without
its appointment, the findings are refused and the lead page offers no form for them."""

from __future__ import annotations

import pytest

from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle
from app.sale.purchase import authentication
from tests.helpers import FINDINGS, lead_work_done
from tests.shipping.deal_steps import delivered_deal, mail_deal, post_arrival
from tests.shipping.test_arrival_files import selling_by_mail  # noqa: F401 (autouse fixture)
from tests.staff import conftest as staff_fixtures

staff, account, signed_in = (
    staff_fixtures.staff,
    staff_fixtures.account,
    staff_fixtures.signed_in,
)
FINDINGS_FORM = 'action="/staff/leads/{}/findings"'


def test_the_findings_wait_for_the_parcel_received_then_the_final_offer_follows(
    app, staff, signed_in
):
    lead_id = delivered_deal(app)["lead_id"]
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert FINDINGS_FORM.format(lead_id) not in page
    with app.app_context(), pytest.raises(authentication.Refused, match="parcel by mail"):
        authentication.record_findings(lead_id, "staff:1", FINDINGS)

    assert post_arrival(staff, signed_in, lead_id).status_code == 303
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert FINDINGS_FORM.format(lead_id) in page
    with app.app_context():
        authentication.record_findings(lead_id, "staff:1", FINDINGS)
        offer = {"amount": 9800, "valid_until": "2099-01-01"}
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", offer, State.ACCEPTED)
    lead_work_done(app)


def test_an_accepted_quote_in_person_takes_no_findings(app, staff, signed_in):
    lead_id = mail_deal(app)["lead_id"]
    with app.app_context():
        with transaction() as db:
            db.execute("UPDATE leads SET handover = 'in_person' WHERE id = ?", (lead_id,))
        with pytest.raises(authentication.Refused):
            authentication.record_findings(lead_id, "staff:1", FINDINGS)
