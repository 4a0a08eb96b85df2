"""The seller's parcel section once the sale has gone on from it: the final offer made after the
parcel was opened on record, the section no longer says authentication comes next (it is done,
and the offer rests on it), and still shows the four steps done. A label voided unused offers
a new one only while the sale is open: a seller who withdrew is not asked to ask below."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle
from app.sale.purchase import record
from app.shipping import reconcile
from tests.helpers import FINDINGS, give_token, lead_work_done
from tests.shipping.deal_steps import delivered_deal, mail_deal, post_arrival
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


@pytest.mark.parametrize("withdrawn", [False, True], ids=["open", "withdrawn"])
def test_a_label_voided_unused_offers_a_new_one_only_while_the_sale_is_open(app, withdrawn):
    parcel = mail_deal(app)
    lead_id = parcel["lead_id"]
    token = give_token(app, lead_id)
    with app.app_context():
        if withdrawn:
            lifecycle.transition(lead_id, State.CLOSED, "seller", {"reason": "withdrawn"},
                                 State.ACCEPTED)  # fmt: skip
        with transaction() as db:
            long_ago = (datetime.now(UTC) - timedelta(days=15)).isoformat()
            db.execute("UPDATE shipments SET bought_at = ?", (long_ago,))
        assert "parcel voided" in reconcile.reconcile().outcomes[parcel["id"]]
    lead_work_done(app)
    page = app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "Your label was not used in time, so we cancelled it." in page
    offered = "If you still want to sell, ask us below and we will send a new one." in page
    assert offered is not withdrawn and ("Ask us a question" in page) is not withdrawn
    if withdrawn:
        assert "This enquiry is closed. If you change your mind, call us" in page
