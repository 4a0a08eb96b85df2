"""The purchase panel's words on the lead page: a value the record does not hold (not given, or
blanked when the record's time ran out) reads as a dash, never as Python's None in a sentence."""

from __future__ import annotations

from app.staff import purchase_panel


def test_a_paperwork_without_its_id_reads_a_dash_not_none():
    blank = dict.fromkeys(("legal_name", "id_type", "id_number_last4", "account_number_last4",
                           "account_number_enc", "account_holder", "payout_confirmed_at",
                           "payout_confirmed_by", "signed_at", "id_verified_by",
                           "id_verified_at"))  # fmt: skip
    facts = dict(purchase_panel.paperwork_facts(blank, {}))
    assert facts["ID"] == "—"
    # The facts macro writes a missing value (None) as a dash; no value may spell it out.
    assert not [value for value in facts.values() if isinstance(value, str) and "None" in value]


def test_a_paperwork_with_its_id_names_it_by_its_last_4():
    signed = dict.fromkeys(("legal_name", "account_number_last4", "account_number_enc",
                            "account_holder", "payout_confirmed_at", "payout_confirmed_by",
                            "signed_at", "id_verified_by", "id_verified_at"))  # fmt: skip
    facts = dict(purchase_panel.paperwork_facts(
        signed | {"id_type": "drivers_license", "id_number_last4": "8901"}, {}))  # fmt: skip
    assert facts["ID"] == "Driver's license, number ending 8901"
