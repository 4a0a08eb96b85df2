"""Whose account is paid: the holder's name compared with the legal name as people write names
(case, accents, middle names, initials), and a call-back counted only on the phone on file."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.leads.db import get_db
from app.sale.purchase import approvals, payout, record
from tests.helpers import put_purchase_on_record, save_sample_lead

LEGAL = "Jordan A. Avery"


@pytest.mark.parametrize(
    "holder",
    [
        "Jordan A. Avery",
        "JORDAN AVERY",
        "jordan anne avery",
        "J. A. Avery",
        "J Avery",
        "  Jordan   Avery ",
    ],
)
def test_the_seller_under_another_spelling_is_the_seller(holder):
    assert payout.names_match(holder, LEGAL)


@pytest.mark.parametrize(
    ("holder", "legal"),
    [("José Núñez-Díaz", "Jose Nunez Diaz"), ("Siobhán O'Neill", "SIOBHAN ONEILL")],
)
def test_accents_apostrophes_and_hyphens_do_not_make_another_person(holder, legal):
    assert payout.names_match(holder, legal)


@pytest.mark.parametrize(
    "holder",
    ["Morgan Avery", "Jordan B. Avery", "Jordan Avery-Smith", "Avery", "", "Jordan Lee", None],
)
def test_another_person_is_not_the_seller(holder):
    assert not payout.names_match(holder, LEGAL)


name = st.text(alphabet=st.characters(categories=["Lu", "Ll"]), min_size=2, max_size=12)


@given(st.lists(name, min_size=2, max_size=4))
def test_case_and_spacing_never_change_the_answer(words):
    legal = " ".join(words)
    assert payout.names_match(legal.upper(), legal)
    assert payout.names_match(f"  {legal.lower()}  ".replace(" ", "   "), legal)


def test_a_call_back_counts_only_on_the_phone_on_file(app):
    lead_id = save_sample_lead(app)  # its phone: (212) 555-0100
    with app.app_context():
        put_purchase_on_record(lead_id)
        record.record(lead_id, "staff:1", "reset", {"payout_confirmed_at": None}, {})
        for number in ("(212) 555-0199", "", "555-0100"):
            with pytest.raises(payout.Refused, match="only on the phone number on file"):
                payout.record_callback(lead_id, "staff:1", number)
        assert record.get(lead_id)["payout_confirmed_at"] is None
        payout.record_callback(lead_id, "staff:2", "+1 212 555 0100")
        kept = record.get(lead_id)
        assert kept["payout_confirmed_by"] == "staff:2" and kept["payout_confirmed_at"]
        with pytest.raises(payout.Refused, match="already confirmed"):
            payout.record_callback(lead_id, "staff:2", "2125550100")


def test_an_account_in_another_name_is_an_exception_for_exactly_those_names(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        record.record(lead_id, "staff:1", "reset", {"account_holder": "Morgan Lee"}, {})
        subject = payout.holder_subject(record.get(lead_id))
        with pytest.raises(approvals.Refused, match="nothing to approve"):
            approvals.ask(lead_id, approvals.HOLDER_NAME, "0" * 32, "A joint account", "staff:1")
        approvals.ask(lead_id, approvals.HOLDER_NAME, subject, "A joint account", "staff:1")
        approvals.approve(lead_id, 1, "staff:2")
        assert approvals.approved(get_db(), lead_id, approvals.HOLDER_NAME, subject)
        record.record(lead_id, "staff:1", "reset", {"account_holder": "Casey Lee"}, {})
        other = payout.holder_subject(record.get(lead_id))
        assert not approvals.approved(get_db(), lead_id, approvals.HOLDER_NAME, other)
