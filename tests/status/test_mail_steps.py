"""The seller's steps before a mail label, on the status page: the return address checked by
the label provider (verified, a typo's suggestion accepted in one click, undeliverable, the
provider failing), the ID's photos kept as the paperwork keeps them, the shipping conditions
ticked one by one; and a watch above the policy's limit, bought in person instead."""

from __future__ import annotations

import pytest

from app.leads import history
from app.leads.db import get_db
from app.sale.purchase import files
from app.shipping import preparation
from tests.status.mail_steps import (
    ADDRESS,
    all_given,
    mail_deal,
    notice,
    post_address,
    post_conditions,
    post_id,
)


def record_of(app, lead_id: int) -> dict:
    with app.app_context():
        return preparation.get(lead_id, preparation.deal_of(history.lead_events(lead_id)))


def test_the_page_shows_the_three_steps_of_a_mail_deal(mailin_app):
    _, token = mail_deal(mailin_app)
    html = mailin_app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "Send your watch by insured mail" in html
    assert 'Insured for <span class="font-semibold text-ink-900">$9,500</span>' in html
    for step in ("address", "id", "conditions"):
        assert f'data-mail-step="{step}"' in html
    assert html.count("data-to-do") == 3
    assert "Three steps before your prepaid label" in html
    assert "book your authentication appointment" not in html  # the in-person words


def test_a_verified_address_is_on_record_with_the_providers_id(mailin_app, easypost):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    assert post_address(client, token).status_code == 303
    assert notice(client, token) == "Thank you: your return address is confirmed."
    [asked] = [r for r in easypost.requests if r["action"] == "address"]
    assert asked["body"]["verify"] is True
    assert asked["body"]["address"]["street1"] == "12 Main St"
    assert asked["body"]["address"]["country"] == "US"
    record = record_of(mailin_app, lead_id)
    assert record["address_id"].startswith("adr_")
    assert record["address"]["street1"] == "12 MAIN ST" and record["address"]["zip"] == "83702"
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "12 MAIN ST, BOISE, ID 83702" in html
    with mailin_app.app_context():
        [confirmed] = [event for event in history.lead_events(lead_id)
                       if event["kind"] == "return_address_confirmed"]  # fmt: skip
    assert confirmed["data"] == {}  # the address is the record's, where an erasure drops it


def test_a_typo_gets_the_providers_suggestion_accepted_in_one_click(mailin_app):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    assert post_address(client, token, {"street1": "12 Mian St"}).status_code == 303
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "The carrier&#39;s address check suggests a correction" in html
    assert "12 MAIN ST, BOISE, ID 83702-1234" in html and "Use this address" in html
    assert 'value="12 Mian St"' in html  # what was typed stays in the form
    assert record_of(mailin_app, lead_id)["address_id"] is None
    page = client.get(f"/status/{token}").get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    answer = client.post(
        f"/status/{token}/mail/suggestion", data={"csrf_token": csrf, "use": "yes"}
    )
    assert answer.status_code == 303
    record = record_of(mailin_app, lead_id)
    assert record["address"]["street1"] == "12 MAIN ST" and record["suggestion"] is None
    assert record["address"]["zip"] == "83702-1234"


def test_an_undeliverable_address_is_said_plainly_and_nothing_is_confirmed(mailin_app):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    assert post_address(client, token, {"street1": "1 Nowhere Rd"}).status_code == 303
    said = notice(client, token)
    assert said.startswith(
        "The carrier's address check could not find this address (Address not found)."
    )
    record = record_of(mailin_app, lead_id)
    assert record["address_id"] is None and record["entered"]["street1"] == "1 Nowhere Rd"


@pytest.mark.parametrize("failure", [401, 500, "slow", "garbage"])
def test_a_provider_failure_keeps_what_was_typed_and_asks_to_try_again(
    mailin_app, easypost, failure
):
    lead_id, token = mail_deal(mailin_app)
    easypost.plan("address", failure)
    client = mailin_app.test_client()
    assert post_address(client, token, {"street2": "Apt 4"}).status_code == 303
    said = notice(client, token)
    assert said.startswith("We could not check your address with the carrier just now.")
    record = record_of(mailin_app, lead_id)
    assert record["address_id"] is None and record["entered"]["street2"] == "Apt 4"
    assert post_address(client, token, {"street2": "Apt 4"}).status_code == 303  # then it works
    assert record_of(mailin_app, lead_id)["address"]["street2"] == "APT 4"


def test_a_refused_form_says_why_and_keeps_the_lines_typed(mailin_app, easypost):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    post_address(client, token, {"zip": "8370", "city": "Boise City"})
    assert notice(client, token) == "Please enter a 5-digit ZIP code, or ZIP+4 (12345-6789)."
    assert record_of(mailin_app, lead_id)["entered"]["city"] == "Boise City"
    assert not [r for r in easypost.requests if r["action"] == "address"]


def test_the_id_photos_are_kept_sealed_as_the_paperwork_keeps_them(mailin_app):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    assert post_id(client, token).status_code == 303
    assert notice(client, token).startswith("Thank you: we have your ID's photos.")
    with mailin_app.app_context():
        rows = files.files_of(lead_id, files.ID_PHOTOS)
        assert [row["kind"] for row in rows] == ["id_back", "id_front"]
        front = files.read(rows[1])
    assert front[:2] == b"\xff\xd8" and b"GPS" not in front and b"Exif" not in front
    assert record_of(mailin_app, lead_id)["id_given_at"]


def test_a_file_that_is_not_a_photo_is_refused(mailin_app):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    post_id(client, token, front=b"%PDF-1.4 not a photo")
    assert "front.jpg" in notice(client, token)
    with mailin_app.app_context():
        assert files.files_of(lead_id, files.ID_PHOTOS) == []


def test_each_condition_must_be_ticked(mailin_app):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    post_conditions(client, token, leave_out=("staffed_counter",))
    assert notice(client, token).startswith("Please tick each condition")
    assert record_of(mailin_app, lead_id)["conditions"] is None
    assert post_conditions(client, token).status_code == 303
    assert record_of(mailin_app, lead_id)["conditions"] == list(preparation.CONDITIONS)


def test_with_all_three_parts_the_page_says_the_id_is_checked_next_and_staff_are_told(
    mailin_app, smtp_server
):
    from tests.helpers import lead_work_done

    lead_id, token = mail_deal(mailin_app)
    all_given(mailin_app, token)
    client = mailin_app.test_client()
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "We are checking your ID" in html and html.count("data-given") == 3
    lead_work_done(mailin_app)
    subjects = [m["Subject"] for m in smtp_server.messages]
    assert any("Return address confirmed" in s for s in subjects)
    assert any("Shipping conditions accepted" in s for s in subjects)
    with mailin_app.app_context():
        assert not history.unalerted_seller_events()  # nothing left for the requeue


def test_a_watch_above_the_policys_limit_is_bought_in_person(mailin_app, easypost):
    lead_id, token = mail_deal(mailin_app, high=26_000)
    client = mailin_app.test_client()
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "above the $25,000 our shipping insurance covers per parcel" in html
    assert "book an authentication appointment" in html
    assert "data-mail-step" not in html
    post_address(client, token)
    assert notice(client, token).startswith("This step is for a sale by mail")
    assert not easypost.requests
    with mailin_app.app_context():
        assert get_db().execute("SELECT count(*) FROM mail_preparations").fetchone()[0] == 0


def test_the_address_form_keeps_nothing_it_should_not(mailin_app):
    _, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    post_address(client, token, {"name": "<script>alert(1)</script>"})
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert ADDRESS["phone"] in html or "555-0142" in html
