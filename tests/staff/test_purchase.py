"""The purchase on record from a lead's page: the authentication's findings, the
stolen-watch register check, the final offer with its differences, the seller's answer by
phone, the ID check, `bought` refused until each item holds, the payment record and the hold
tabs of the inbox."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from app.leads import history, store
from app.leads.db import transaction
from app.rendering.dates import display_date
from app.sale import timeline
from app.sale.purchase import files, record
from tests.data.paperwork import FINDINGS, SERIAL
from tests.data.staff_purchase import (
    CERTIFICATE_PDF,
    CERTIFICATE_PHOTO,
    act,
    appointment_lead,
    audit,
    authenticated_lead,
    buy,
    check_register,
    events,
    lead_page,
    page_token,
    post_step,
    purchase,
    ready_to_buy,
    signed_lead,
    state_of,
)
from tests.helpers import business_today, put_purchase_on_record

TODAY = business_today()
UNREADABLE = "This file is not a PDF or an image we can read."
OFFER = {"amount": "$7,400", "valid_until": "2099-01-01"}


# The findings


def test_findings_are_recorded_from_the_lead_page_with_who_and_when(app, signed_in):
    lead_id = appointment_lead(app)
    html = lead_page(signed_in, lead_id)
    assert "Record the findings" in html and 'name="findings-serial_number"' in html
    response = post_step(signed_in, lead_id, "findings", FINDINGS)
    assert response.status_code == 303 and response.headers["Location"] == f"/staff/leads/{lead_id}"
    kept = purchase(app, lead_id)
    assert {key: kept[key] for key in FINDINGS} == FINDINGS
    assert kept["authenticated_by"].startswith("staff:") and kept["authenticated_at"]
    assert [e["data"] for e in events(app, lead_id, "authentication_recorded")] == [
        {"serial_last4": SERIAL[-4:]}
    ]
    html = lead_page(signed_in, lead_id)
    assert "Findings recorded." in html and FINDINGS["movement_marks"] in html
    assert "Authentication findings recorded" in html and "Ana Lima, " in html
    assert "authentication_recorded" in [action for action, _ in audit(app)]


def test_findings_without_a_serial_number_are_shown_again_with_the_error(app, signed_in):
    lead_id = appointment_lead(app)
    response = post_step(signed_in, lead_id, "findings", FINDINGS | {"serial_number": "  "})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert re.search(r'id="findings-serial_number-error"[^>]*>This field is required', html)
    assert FINDINGS["condition_findings"] in html  # what was typed is kept
    assert purchase(app, lead_id) == {} and events(app, lead_id, "authentication_recorded") == []


def test_a_correction_is_a_new_event_and_replaces_the_findings(app, signed_in):
    lead_id = appointment_lead(app)
    post_step(signed_in, lead_id, "findings", FINDINGS)
    corrected = FINDINGS | {"serial_number": "7Z41K9Q3", "case_marks": ""}
    assert post_step(signed_in, lead_id, "findings", corrected).status_code == 303
    kept = purchase(app, lead_id)
    assert kept["serial_number"] == "7Z41K9Q3" and kept["case_marks"] is None
    assert [e["data"]["serial_last4"] for e in events(app, lead_id, "authentication_recorded")] == [
        "K9Q2",
        "K9Q3",
    ]
    assert 'value="7Z41K9Q3"' in lead_page(signed_in, lead_id)  # the form shows the record


def test_the_serial_number_stays_once_the_seller_signed_a_declaration_naming_it(app, signed_in):
    lead_id = signed_lead(app)
    html = lead_page(signed_in, lead_id)
    assert 'name="findings-serial_number"' not in html
    assert "can no longer be changed here" in html
    response = post_step(signed_in, lead_id, "findings", FINDINGS | {"serial_number": "OTHER1"})
    assert response.status_code == 303
    assert "naming the serial number ending K9Q2: it can no longer be changed" in lead_page(
        signed_in, lead_id
    )
    assert purchase(app, lead_id)["serial_number"] == SERIAL
    assert len(events(app, lead_id, "authentication_recorded")) == 1  # the one before the offer


def test_the_final_offer_is_refused_until_the_findings_are_recorded(app, signed_in):
    lead_id = appointment_lead(app)
    assert act(signed_in, lead_id, "offer", OFFER).status_code == 303
    assert (
        "Final offer needs first: the authentication findings (at least the serial number)."
        in lead_page(signed_in, lead_id)
    )
    assert state_of(app, lead_id) == "appointment"
    post_step(signed_in, lead_id, "findings", FINDINGS)
    assert act(signed_in, lead_id, "offer", OFFER).status_code == 303
    assert state_of(app, lead_id) == "offered"


# The register check


def test_a_clear_register_check_is_kept_with_its_certificate(app, signed_in):
    lead_id = authenticated_lead(app)
    assert check_register(signed_in, lead_id).status_code == 303
    kept = purchase(app, lead_id)
    assert (
        kept["register_result"] == "clear" and kept["register_provider"] == "Stolen Watch Register"
    )
    checked_on = kept["register_checked_on"]
    assert checked_on == business_today().isoformat()  # dated the day it was recorded
    with app.app_context():
        certificate = files.file_of(lead_id, kept["register_certificate"])
        assert files.read(certificate) == CERTIFICATE_PDF
    assert certificate["media_type"] == "application/pdf" and certificate["version"] == 1
    assert [e["data"] for e in events(app, lead_id, "register_checked")] == [
        {
            "provider": "Stolen Watch Register",
            "checked_on": checked_on,
            "result": "clear",
            "check": 1,
            "awaits_approval": False,
        }
    ]
    html = lead_page(signed_in, lead_id)
    assert "Stolen-watch register checked: clear" in html and "Open the certificate" in html
    assert "must not be bought" not in html


def test_a_photo_of_the_certificate_is_taken_as_an_image(app, signed_in):
    lead_id = authenticated_lead(app)
    assert check_register(signed_in, lead_id, certificate=CERTIFICATE_PHOTO).status_code == 303
    with app.app_context():
        assert files.latest(lead_id, "register_certificate")["media_type"] == "image/png"


@pytest.mark.parametrize(
    ("certificate", "message"),
    [
        (
            b"<html><script>alert(1)</script></html>",
            "This file is not a PDF or an image we can read.",
        ),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "This file is not a PDF or an image we can read."),
        (b"%PDF-" + b"0" * (10 * 1024 * 1024), "This file is over 10 MB"),
    ],
    ids=["html", "broken-png", "over-10-mb"],
)
def test_a_certificate_that_is_not_a_readable_pdf_or_image_is_refused(
    app, signed_in, certificate, message
):
    lead_id = appointment_lead(app)
    response = check_register(signed_in, lead_id, certificate=certificate)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert purchase(app, lead_id) == {}
    with app.app_context():
        assert files.files_of(lead_id) == []


def test_a_check_dated_in_the_future_or_without_a_result_is_refused(app, signed_in):
    lead_id = appointment_lead(app)
    fields = {"provider": "Stolen Watch Register", "checked_on": "2999-01-01"}
    response = post_step(
        signed_in, lead_id, "register_check", fields, {"certificate": (CERTIFICATE_PDF, "c.pdf")}
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "This date is still to come." in html and "Choose the register&#39;s result." in html
    assert purchase(app, lead_id) == {}


def test_a_flagged_check_shows_a_warning_and_bought_is_refused(app, signed_in):
    lead_id = ready_to_buy(app)
    assert check_register(signed_in, lead_id, result="flagged").status_code == 303
    html = lead_page(signed_in, lead_id)
    assert re.search(r'role="alert"[^>]*>A register check is flagged', html)
    assert "Stolen-watch register checked: FLAGGED" in html
    paid = {"amount": "7400", "method": "ach", "paid_on": TODAY.isoformat(), "confirmation": "X"}
    act(signed_in, lead_id, "bought", paid)
    assert "Bought needs first: a clear stolen-watch register check." in lead_page(
        signed_in, lead_id
    )
    assert state_of(app, lead_id) == "agreed" and purchase(app, lead_id)["paid_on"] is None


# The final offer and the seller's answer by phone


def test_the_offer_keeps_each_difference_filled_in_and_the_timeline_shows_them(app, signed_in):
    lead_id = appointment_lead(app)
    post_step(signed_in, lead_id, "findings", FINDINGS)
    offer = OFFER | {
        "differences-0-what": "Faded bezel insert",
        "differences-0-why": "It needs replacing before resale.",
        "differences-2-what": "No service papers",  # a row skipped: each is kept once
        "differences-2-why": "The service cannot be shown to a buyer.",
    }
    assert act(signed_in, lead_id, "offer", offer).status_code == 303
    with app.app_context():
        change = history.lead_events(lead_id)[-1]["data"]
    assert change["differences"] == [
        {"what": "Faded bezel insert", "why": "It needs replacing before resale."},
        {"what": "No service papers", "why": "The service cannot be shown to a buyer."},
    ]
    html = lead_page(signed_in, lead_id)
    assert "Differs: Faded bezel insert" in html and "The service cannot be shown" in html
    assert "Valid until" in html


def test_a_difference_without_its_reason_is_refused(app, signed_in):
    lead_id = appointment_lead(app)
    post_step(signed_in, lead_id, "findings", FINDINGS)
    response = act(signed_in, lead_id, "offer", OFFER | {"differences-1-what": "Faded bezel"})
    assert response.status_code == 400
    assert "Fill in both what differs and why, or neither." in response.get_data(as_text=True)
    assert state_of(app, lead_id) == "appointment"


@pytest.mark.parametrize(
    ("answer", "state", "title"),
    [
        ("accept", "agreed", "Seller accepted the final offer (by phone)"),
        ("decline", "closed", "Closed: Seller declined"),
    ],
)
def test_the_sellers_answer_to_the_final_offer_by_phone(app, signed_in, answer, state, title):
    lead_id = appointment_lead(app)
    post_step(signed_in, lead_id, "findings", FINDINGS)
    act(signed_in, lead_id, "offer", OFFER)
    assert "Seller&#39;s answer to the final offer by phone" in lead_page(signed_in, lead_id)
    assert act(signed_in, lead_id, "answer_offer", {"answer": answer}).status_code == 303
    assert state_of(app, lead_id) == state
    assert title in lead_page(signed_in, lead_id)
    with app.app_context():
        change = history.lead_events(lead_id)[-1]["data"]
    assert change["via"] == "phone"
    assert change.get("reason") == (None if answer == "accept" else "seller_declined")


# The ID check


def test_the_id_is_verified_from_the_paperwork_page_once(app, signed_in):
    lead_id = signed_lead(app)
    assert "The ID is not verified yet" in lead_page(signed_in, lead_id)
    paperwork = signed_in.get(f"/staff/leads/{lead_id}/paperwork").get_data(as_text=True)
    assert "I have compared the ID photos and details with the seller" in paperwork
    assert post_step(signed_in, lead_id, "verify_id", {"compared": "y"}).status_code == 303
    kept = purchase(app, lead_id)
    assert kept["id_verified_by"].startswith("staff:") and kept["id_verified_at"]
    assert len(events(app, lead_id, "id_verified")) == 1
    html = lead_page(signed_in, lead_id)
    assert "ID verified: recorded with your name and the time." in html
    assert "The ID is not verified yet" not in html
    again = post_step(signed_in, lead_id, "verify_id", {"compared": "y"})
    assert again.status_code == 303
    assert "The ID was already verified." in lead_page(signed_in, lead_id)
    assert len(events(app, lead_id, "id_verified")) == 1
    assert [action for action, _ in audit(app)].count("id_verified") == 1


def test_the_id_check_needs_its_box_ticked(app, signed_in):
    lead_id = signed_lead(app)
    response = post_step(signed_in, lead_id, "verify_id", {})
    assert response.status_code == 400
    assert "Tick the box once you have compared them." in response.get_data(as_text=True)
    assert purchase(app, lead_id)["id_verified_at"] is None


def test_the_id_cannot_be_verified_before_the_paperwork_is_signed(app, signed_in):
    lead_id = appointment_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            record.update(db, lead_id, {"signed_at": None, "id_verified_at": None})
    response = post_step(signed_in, lead_id, "verify_id", {"compared": "y"})
    assert response.status_code == 303
    assert "The seller has not signed the paperwork yet" in lead_page(signed_in, lead_id)
    assert purchase(app, lead_id)["id_verified_at"] is None
    assert events(app, lead_id, "id_verified") == []
    assert ("purchase_step_refused", {"step": "verify_id"}) in audit(app)


# Bought: refused until every item holds


@pytest.mark.parametrize(
    ("cleared", "named"),
    [
        ({"signed_at": None}, "the seller's signed paperwork"),
        ({"account_number_enc": None}, "the seller's bank details"),
        ({"id_verified_at": None}, "an ID check by staff"),
        ({"register_result": None}, "a clear stolen-watch register check"),
        (
            {"payout_confirmed_at": None},
            "the seller's confirmation of the payout account (from their e-mail, or a call-back)",
        ),
    ],
    ids=["paperwork", "bank-details", "id-check", "register", "payout-confirmed"],
)
def test_bought_is_refused_naming_the_one_item_missing(app, signed_in, cleared, named):
    lead_id = appointment_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            record.update(db, lead_id, cleared)
    before = purchase(app, lead_id)
    paid = {"amount": "9100", "method": "ach", "paid_on": TODAY.isoformat(), "confirmation": "A1"}
    assert act(signed_in, lead_id, "bought", paid).status_code == 303
    html = lead_page(signed_in, lead_id)
    assert f"Bought needs first: {named}.".replace("'", "&#39;") in html
    assert state_of(app, lead_id) == "agreed" and purchase(app, lead_id) == before
    assert not [e for e in events(app, lead_id, "state_changed") if e["data"]["to"] == "bought"]
    assert "1 of 5 still missing" in html


def test_the_checklist_comes_before_the_bought_form_which_only_agreed_offers(app, signed_in):
    lead_id = signed_lead(app)
    html = lead_page(signed_in, lead_id)
    assert html.index("Before the watch is bought") < html.index('name="bought-amount"')
    assert 'The seller&#39;s signed paperwork<span class="sr-only">: done' in html
    assert 'An ID check by staff<span class="sr-only">: missing' in html
    assert "3 of 5 still missing" in html
    offered = appointment_lead(app)
    post_step(signed_in, offered, "findings", FINDINGS)
    act(signed_in, offered, "offer", OFFER)
    html = lead_page(signed_in, offered)
    assert 'name="bought-amount"' not in html and "Before the watch is bought" not in html


def test_the_payment_record_and_the_hold_are_shown_once_bought(app, signed_in, account):
    lead_id = ready_to_buy(app)
    paid = {
        "amount": "7,400",
        "method": "wire",
        "paid_on": TODAY.isoformat(),
        "confirmation": "FED-20261124-7",
    }
    assert act(signed_in, lead_id, "bought", paid).status_code == 303
    kept = purchase(app, lead_id)
    hold_ends = date.fromisoformat(kept["hold_ends_on"])
    assert hold_ends == TODAY + timedelta(days=15)
    html = lead_page(signed_in, lead_id)
    payment = html[html.index('id="payment-heading"') : html.index('id="documents-heading"')]
    for text in ("$7,400", "Wire transfer", "FED-20261124-7", "Ana Lima", "Kept until"):
        assert text in payment, text
    assert f"On hold until {hold_ends.day} " in html
    assert 'name="bought-amount"' not in html


def test_a_staff_member_cannot_record_findings_once_the_watch_is_bought(app, signed_in):
    lead_id = ready_to_buy(app)
    buy(app, lead_id)
    assert 'name="findings-serial_number"' not in lead_page(signed_in, lead_id)
    response = post_step(signed_in, lead_id, "findings", FINDINGS | {"serial_number": SERIAL})
    assert response.status_code == 303
    assert "this lead is past that point or closed" in lead_page(signed_in, lead_id)
    assert check_register(signed_in, lead_id, result="flagged").status_code == 303
    assert purchase(app, lead_id)["register_result"] == "clear"


# The inbox's hold tabs


def test_the_hold_tabs_count_and_list_bought_leads_by_the_end_of_their_hold(app, signed_in):
    with app.app_context():
        today = business_today()  # the hold ends by the business's calendar
    on_hold = ready_to_buy(app)
    buy(app, on_hold, paid_on=today.isoformat())
    ended = ready_to_buy(app)
    buy(app, ended, paid_on=(today - timedelta(days=15)).isoformat())
    appointment_lead(app)
    html = signed_in.get("/staff/leads").get_data(as_text=True)
    assert re.search(r"Bought <span[^>]*>2</span>", html)
    assert re.search(r"On hold <span[^>]*>1</span>", html)
    assert re.search(r"Hold ended <span[^>]*>1</span>", html)
    tabs = re.findall(r">\s*([A-Z][a-z ]+) <span", html)
    assert tabs.index("Bought") + 1 == tabs.index("On hold") == tabs.index("Hold ended") - 1
    with app.app_context():
        references = {lead_id: store.get_lead(lead_id)["reference"] for lead_id in (on_hold, ended)}
    listed = signed_in.get("/staff/leads?state=on_hold").get_data(as_text=True)
    assert references[on_hold] in listed and references[ended] not in listed
    assert "1 lead on hold" in listed
    listed = signed_in.get("/staff/leads?state=hold_ended").get_data(as_text=True)
    assert references[ended] in listed and references[on_hold] not in listed
    assert f"Hold ended {today.day} " in lead_page(signed_in, ended)


def test_a_record_erased_at_the_end_of_its_retention_shows_what_stays(app, signed_in):
    lead_id = ready_to_buy(app)
    buy(app, lead_id)
    with app.app_context(), transaction() as db:
        personal = dict.fromkeys(record.PERSONAL_FIELDS) | {"account_number_enc": None}
        erased = {"record_erased_at": "2033-11-25T04:00:00+00:00"}
        record.update(db, lead_id, personal | erased)
    html = lead_page(signed_in, lead_id)
    assert "Erased on 25 November 2033, at the end of the period" in html
    assert "Legal name" not in html and "View full paperwork" not in html
    assert SERIAL in html and "$7,400" in html  # the watch and the payment stay
    paperwork = signed_in.get(f"/staff/leads/{lead_id}/paperwork").get_data(as_text=True)
    assert "The seller's paperwork was erased on 25 November 2033" in paperwork
    assert "paperwork_viewed" not in [action for action, _ in audit(app)]


# Erasure on the seller's behalf (a request by phone or letter)


def test_staff_erase_a_bought_lead_keeping_the_purchase_record_until_its_end(app, signed_in):
    lead_id = ready_to_buy(app)
    buy(app, lead_id)
    kept = purchase(app, lead_id)
    until = display_date(kept["retain_until"])
    form = signed_in.get(f"/staff/leads/{lead_id}/erase")
    html = form.get_data(as_text=True)
    assert form.status_code == 200 and f"the receipt until {until}; then they are deleted" in html
    with app.app_context():
        reference = store.get_lead(lead_id)["reference"]
    fields = {"erase-csrf_token": page_token(html), "erase-reference": "USWB-000000"}
    wrong = signed_in.post(f"/staff/leads/{lead_id}/erase", data=fields)
    assert wrong.status_code == 400 and f"Type {reference} exactly" in wrong.get_data(as_text=True)
    assert purchase(app, lead_id) == kept

    fields["erase-reference"] = reference
    assert signed_in.post(f"/staff/leads/{lead_id}/erase", data=fields).status_code == 303
    assert f"The purchase record, bill of sale and receipt are kept until {until}." in lead_page(
        signed_in, lead_id
    )
    with app.app_context():
        lead, after = store.get_lead(lead_id), record.get(lead_id)
        id_photos = files.files_of(lead_id, files.ID_PHOTOS)
    assert lead["erased_at"] and lead["state"] == "bought"
    assert lead["email"] == lead["phone"] == lead["full_name"] == ""
    assert id_photos == [] and after["account_number_enc"] is None
    assert after["routing_number_enc"] is None and after["payout_erased_at"]
    for column in ("legal_name", "id_number_enc", "birth_date_enc", "serial_number", "paid_amount"):
        assert after[column] == kept[column], column  # what the law makes us keep
    assert ("lead_erased", {"photos": 0, "state": "bought"}) in audit(app)

    again = signed_in.get(f"/staff/leads/{lead_id}/erase")
    assert again.status_code == 303
    assert "Only a closed or bought lead can be erased, and only once." in lead_page(
        signed_in, lead_id
    )


def test_a_lead_between_offer_and_payment_cannot_be_erased_by_staff(app, signed_in):
    lead_id = ready_to_buy(app)  # agreed: the seller's paperwork is being checked
    kept = purchase(app, lead_id)
    assert "Erase personal data" not in lead_page(signed_in, lead_id)
    refused = signed_in.get(f"/staff/leads/{lead_id}/erase")
    assert refused.status_code == 303
    with app.app_context():
        assert store.get_lead(lead_id)["erased_at"] is None
    assert purchase(app, lead_id) == kept


def test_a_signing_event_without_the_ends_of_the_numbers_reads_without_them():
    event = {"kind": "paperwork_signed", "data": {"declaration_sha256": "ab12"}}  # as retained
    assert timeline.describe(event) == (
        "Seller signed the sale paperwork",
        [("Declaration SHA-256", "ab12")],
        "",
    )
