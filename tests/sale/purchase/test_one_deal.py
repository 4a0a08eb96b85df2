"""A second person's approval, the seller's confirmation of the payout account and a clear
register check each count for the one deal, signing or serial number they were given for. Each
test is an attack: the old approval, link or check is tried against a new deal, a new signing
or a corrected serial number, and refused with its message, no payment recorded."""

from __future__ import annotations

import re

import pytest

from app.leads.db import get_db
from app.sale import lifecycle
from app.sale.purchase import approvals, authentication, payout, record, stolen_register
from tests.data.paperwork import FINDINGS, accepted_again, agreed_lead, post_paperwork
from tests.data.staff_purchase import (
    CERTIFICATE_PDF,
    REGISTER_CHECK,
    buy,
    checked_and_verified,
    purchase,
    state_of,
)
from tests.helpers import business_today, database_at_version, give_token

OTHER_HOLDER = {"account_holder": "Morgan Lee"}


def approved_by_two(app, lead_id: int, kind: str, subject: str) -> int:
    """An exception asked for by one staff member and approved by another; its id."""
    with app.app_context():
        approvals.ask(lead_id, kind, subject, "The seller asked for it", "staff:1")
        asked = approvals.of_lead(lead_id)[0]["id"]
        approvals.approve(lead_id, asked, "staff:2")
    return asked


def sent_payout_link(app, lead_id: int) -> str:
    """The code of the lead's latest payout link, as its e-mail carried it."""
    with app.app_context():
        check_id = get_db().execute("SELECT max(id) FROM payout_checks").fetchone()[0]
        link = payout.issue_link(check_id)
        payout.mark_link_sent(check_id)
    return link.rsplit("/", 1)[1]


def refused_payment(app, lead_id: int, refusal: str, **payment) -> None:
    """The `bought` move is refused with `refusal`, and nothing of the payment is recorded."""
    with pytest.raises(lifecycle.MissingDetails, match=re.escape(refusal)):
        buy(app, lead_id, **payment)
    assert state_of(app, lead_id) == "agreed" and purchase(app, lead_id)["paid_amount"] is None


def test_an_amount_approved_in_an_earlier_deal_does_not_pay_a_later_smaller_one(app):
    lead_id, token = agreed_lead(app)  # the seller accepted $7,400
    approved_by_two(app, lead_id, approvals.PAYMENT_AMOUNT, "7200")
    accepted_again(app, lead_id, 7000)
    assert post_paperwork(app.test_client(), token).status_code == 303
    checked_and_verified(app, lead_id)
    refused_payment(
        app, lead_id, "The amount, $7,200, is not the accepted offer of $7,000.", amount=7200
    )


def test_an_exception_asked_in_an_earlier_deal_cannot_be_approved_in_a_later_one(app):
    lead_id, _ = agreed_lead(app)
    with app.app_context():
        approvals.ask(lead_id, approvals.PAYMENT_AMOUNT, "7200", "Link missing", "staff:1")
    accepted_again(app, lead_id, 7000)
    with app.app_context():
        (asked,) = approvals.of_lead(lead_id)
        with pytest.raises(approvals.Refused, match="asked for an earlier accepted offer"):
            approvals.approve(lead_id, asked["id"], "staff:2")
        assert approvals.of_lead(lead_id)[0]["approved_by"] is None and not asked["current"]


def test_an_account_holder_approved_for_one_signing_is_not_paid_after_signing_again(app):
    lead_id, token = agreed_lead(app)
    assert post_paperwork(app.test_client(), token, OTHER_HOLDER).status_code == 303
    with app.app_context():
        names = payout.holder_subject(record.get(lead_id))
    approved_by_two(app, lead_id, approvals.HOLDER_NAME, names)
    with app.app_context():  # "this wasn't me": the paperwork voided, the lead still agreed
        assert payout.deny(sent_payout_link(app, lead_id)) == lead_id
    again = give_token(app, lead_id)
    assert post_paperwork(app.test_client(), again, OTHER_HOLDER).status_code == 303
    checked_and_verified(app, lead_id)
    refused_payment(app, lead_id, "The account holder, Morgan Lee, is not the seller's legal name")


def test_a_payout_link_of_an_earlier_signing_does_not_confirm_a_later_one(app):
    lead_id, token = agreed_lead(app)
    assert post_paperwork(app.test_client(), token).status_code == 303
    earlier = sent_payout_link(app, lead_id)
    accepted_again(app, lead_id, 7400)
    assert post_paperwork(app.test_client(), token).status_code == 303  # the same account
    page = app.test_client().get(f"/status/payout/{earlier}")
    assert "This link cannot be used" in page.get_data(as_text=True)
    with app.app_context():
        assert payout.confirm(earlier) is None
        assert record.get(lead_id)["payout_confirmed_at"] is None


def record_clear_check(app, lead_id: int) -> None:
    """A clear register check recorded by staff today, with its certificate."""
    check = REGISTER_CHECK | {"checked_on": business_today().isoformat()}
    with app.app_context():
        stolen_register.record_check(lead_id, "staff:1", check, CERTIFICATE_PDF, "application/pdf")


def test_a_clear_register_check_does_not_count_for_a_serial_number_corrected_after_it(app):
    lead_id, token = agreed_lead(app)
    record_clear_check(app, lead_id)
    with app.app_context():
        authentication.record_findings(lead_id, "staff:1", FINDINGS | {"serial_number": "7Z41K9Q3"})
    assert post_paperwork(app.test_client(), token).status_code == 303
    with app.app_context():
        authentication.verify_id(lead_id, "staff:2")
        payout.record_callback(lead_id, "staff:1", "(212) 555-0100")
    refused_payment(app, lead_id, "Bought needs first: a clear stolen-watch register check.")
    record_clear_check(app, lead_id)  # of the corrected serial number: it counts
    buy(app, lead_id)
    kept = purchase(app, lead_id)
    assert (kept["register_serial"], kept["paid_amount"]) == ("7Z41K9Q3", 7400)


def test_approvals_from_before_the_binding_get_the_deal_they_were_asked_in(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 29)  # the release before approvals were bound to a deal
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, reference, state) VALUES ('A', "
        "'a@example.com', '1', 'Omega', 'Good', 0, 0, 'USA Website', 'e', "
        "'2026-11-01T00:00:00+00:00', 'USWB-AAAAAA', 'agreed')"
    )
    events = [
        ("2026-11-02T10:00:00+00:00", '{"from": "offered", "to": "agreed"}'),
        ("2026-11-03T10:00:00+00:00", '{"from": "agreed", "to": "closed"}'),
        ("2026-11-05T10:00:00+00:00", '{"from": "offered", "to": "agreed"}'),
    ]
    db.executemany(
        "INSERT INTO lead_events (lead_id, at, actor, kind, data) "
        "VALUES (1, ?, 'staff:1', 'state_changed', ?)",
        events,
    )
    for asked in ("2026-11-02T12:00:00+00:00", "2026-11-06T12:00:00+00:00"):
        db.execute(
            "INSERT INTO approvals (lead_id, kind, subject, reason, requested_by, requested_at) "
            "VALUES (1, 'payment_amount', '7200', 'Link missing', 'staff:1', ?)",
            (asked,),
        )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)  # migrated as the app starts
    with app.app_context():
        deals = [row[0] for row in get_db().execute("SELECT deal FROM approvals ORDER BY id")]
        asked = approvals.of_lead(1)
    assert deals == [1, 3]  # each the acceptance before it was asked for
    assert [row["current"] for row in asked] == [True, False]  # newest first: only the later
