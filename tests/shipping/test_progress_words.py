"""The seller's parcel section once the sale has gone on from it: the final offer made after the
parcel was opened on record, the section no longer says authentication comes next (it is done,
and the offer rests on it), and still shows the four steps done."""

from __future__ import annotations

from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle
from app.sale.purchase import record
from tests.helpers import FINDINGS, give_token, lead_work_done
from tests.shipping.deal_steps import delivered_deal, post_arrival
from tests.shipping.test_arrival_files import selling_by_mail  # noqa: F401 (autouse fixture)
from tests.staff import conftest as staff_fixtures

staff, account, signed_in = (
    staff_fixtures.staff,
    staff_fixtures.account,
    staff_fixtures.signed_in,
)


def test_after_the_final_offer_the_parcel_no_longer_says_authentication_comes_next(
    app, staff, signed_in
):
    parcel = delivered_deal(app)
    lead_id = parcel["lead_id"]
    token = give_token(app, lead_id)
    assert post_arrival(staff, signed_in, lead_id).status_code == 303
    before = app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "Authentication comes next" in before
    with app.app_context():
        with transaction() as db:
            record.update(db, lead_id, FINDINGS)
        offer = {"amount": 9800, "valid_until": "2099-01-01"}
        lifecycle.transition(lead_id, State.OFFERED, "staff:1", offer, State.ACCEPTED)
    lead_work_done(app)
    after = app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "Authentication comes next" not in after and "data-final-offer" in after
    assert after.count('data-parcel-step="done"') == 4
    assert "opened it with the serial number in frame." in after
