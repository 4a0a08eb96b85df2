"""The sale paperwork on the seller's status page: the form and its rules, each
refusal shown by its field without the numbers typed, and the signing: the record encrypted,
the declaration's hash, the ID photos cleaned, the timeline and staff told, the page after."""

from __future__ import annotations

import hashlib
import io
import re
from datetime import date, timedelta
from html import unescape

import pytest
from PIL import Image

from app.leads import history, store
from app.sale.purchase import files, paperwork, record
from app.status.paperwork_form import PaperworkForm
from tests.data.paperwork import (
    ACCOUNT,
    BIRTH_DATE,
    ID_NUMBER,
    ROUTING,
    SECRETS,
    SERIAL,
    VALID,
    agreed_lead,
    checked_form,
    id_photo,
    post_paperwork,
)
from tests.data.photos import GPS_IFD
from tests.helpers import business_today, wait_until

TODAY = business_today()


def form_of(client, token: str) -> str:
    return client.get(f"/status/{token}/paperwork").get_data(as_text=True)


def field_tag(html: str, name: str) -> str:
    """The input, select or textarea named `name` (its opening tag)."""
    return re.search(rf'<(?:input|select|textarea)[^>]*name="{name}"[^>]*>', html).group(0)


def test_the_form_asks_for_each_detail_with_the_browsers_checks(app, client):
    _, token = agreed_lead(app)
    html = form_of(client, token)
    assert 'enctype="multipart/form-data"' in html
    assert 'autocomplete="bday"' in field_tag(html, "birth_date")
    assert 'type="date"' in field_tag(html, "birth_date")
    assert 'autocomplete="street-address"' in field_tag(html, "street_address")
    routing = field_tag(html, "routing_number")
    assert 'inputmode="numeric"' in routing and "required" in routing
    assert 'autocomplete="off"' in routing
    assert 'accept="image/png,image/jpeg' in field_tag(html, "id_front")
    assert '<option value="DC">District of Columbia</option>' in html
    assert "Passport of another country" in html
    with app.test_request_context():
        names = [field.name for field in PaperworkForm(meta={"csrf": False})]
    assert len(names) == 19  # with the hidden declaration_name
    for name in names:
        assert f'name="{name}"' in html
    assert "not needed for a us passport" in html.lower()
    assert "paper copy at any time, at no cost" in html


def test_the_declaration_shown_is_the_one_signed_with_the_watch_price_and_buyer(app, client):
    lead_id, token = agreed_lead(app)
    html = form_of(client, token)
    declaration = re.search(r"data-declaration[^>]*>(.*?)</div>", html, re.S).group(1)
    opening = "I, [your full legal name], am selling my Rolex Submariner, serial number ending K9Q2"
    assert opening in declaration
    assert "to US Watch Buyers for $7,400." in declaration
    promises = ("lawful owner", "authorized in writing", "18 years of age or older",
                "free of any loan, lien", "not been reported lost or stolen", "true")  # fmt: skip
    for words in promises:
        assert words in declaration
    assert SERIAL not in html
    with app.app_context():
        lead = store.get_lead(lead_id)
        purchase = record.get(lead_id) | {"legal_name": "Jordan A. Avery"}
        first = paperwork.declaration_text(lead, purchase)
        assert paperwork.declaration_text(lead, purchase) == first  # the same every time
    assert first.startswith("Seller's declaration (version 1)")
    assert "I, Jordan A. Avery, am selling my Rolex Submariner" in first


def test_valid_paperwork_is_signed_encrypted_and_hashed(app, client):
    lead_id, token = agreed_lead(app)
    shown = re.search(r"data-declaration[^>]*>(.*?)</div>", form_of(client, token), re.S).group(1)
    signed = post_paperwork(client, token, headers={"User-Agent": "Firefox/140"})
    assert signed.status_code == 303 and signed.headers["Location"] == f"/status/{token}"
    with app.app_context():
        lead, purchase = store.get_lead(lead_id), record.get(lead_id)
        assert record.opened(purchase, "birth_date_enc") == BIRTH_DATE
        assert record.opened(purchase, "id_number_enc") == ID_NUMBER  # spaces, hyphens dropped
        assert record.opened(purchase, "routing_number_enc") == ROUTING
        assert record.opened(purchase, "account_number_enc") == ACCOUNT
        text = paperwork.declaration_text(lead, purchase)
        events = history.lead_events(lead_id)
        photos = {row["kind"]: files.read(row) for row in files.files_of(lead_id, files.ID_PHOTOS)}
    assert purchase["id_number_last4"] == "9305" and purchase["account_number_last4"] == "5566"
    assert purchase["street_address"] == "41 Elm Street, Apt 3"
    assert (purchase["city"], purchase["region"], purchase["postal_code"]) == (
        "Brooklyn",
        "NY",
        "11201",
    )
    assert purchase["id_issuer"] == "New York" and purchase["id_type"] == "drivers_license"
    assert purchase["signed_name"] == "jordan a. avery"
    assert purchase["signed_ip"] == "127.0.0.1"
    assert purchase["signed_user_agent"] == "Firefox/140"
    assert purchase["signed_at"].startswith(TODAY.isoformat()[:4])
    # The text signed is the text the page showed, with the legal name as typed in its place.
    shown_with_name = unescape(shown).replace("[your full legal name]", VALID["legal_name"])
    assert purchase["declaration_sha256"] == hashlib.sha256(shown_with_name.encode()).hexdigest()
    assert text == shown_with_name and "I, Jordan A. Avery, am selling" in text
    assert events[-1]["kind"] == "paperwork_signed" and events[-1]["actor"] == "seller"
    assert events[-1]["data"] == {
        "declaration_sha256": purchase["declaration_sha256"],
        "id_last4": "9305",
        "account_last4": "5566",
    }
    assert sorted(photos) == ["id_back", "id_front"]
    for data in photos.values():
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "JPEG"
            assert not image.getexif().get_ifd(GPS_IFD) and "exif" not in image.info


def test_after_signing_the_page_shows_the_ends_of_the_numbers_and_what_happens_next(app, client):
    _, token = agreed_lead(app)
    post_paperwork(client, token)
    page = client.get(f"/status/{token}").get_data(as_text=True)
    signed = page[page.index("data-paperwork-signed") :]
    assert "Paperwork signed on" in signed
    assert "Driver&#39;s license, ending 9305" in signed
    assert "Bank account ending 5566" in signed
    assert "complete our checks of your ID and the watch" in page
    assert f'href="/status/{token}/paperwork"' not in page
    for secret in SECRETS:
        assert secret not in page


IN_17_YEARS = (TODAY - timedelta(days=17 * 365)).isoformat()
REFUSALS = [
    ("routing_number", "02100002", "A routing number has 9 digits."),
    ("routing_number", "02100002x", "A routing number has 9 digits."),
    ("routing_number", "021000022", "This routing number is not valid"),
    ("birth_date", IN_17_YEARS, "You must be 18 or older"),
    ("birth_date", "21/04/1980", "Please enter your date of birth as a full date."),
    ("birth_date", "1980-02-30", "Please enter your date of birth as a full date."),
    ("birth_date", (TODAY + timedelta(days=2)).isoformat(), "cannot be in the future"),
    ("birth_date", "1899-12-31", "Please check the year of your date of birth."),
    ("id_expires_on", (TODAY - timedelta(days=2)).isoformat(), "This ID has expired"),
    ("id_number", "AB1", "An ID number has 4 to 20 letters and digits."),
    ("id_number", "AB12<script>", "An ID number has 4 to 20 letters and digits."),
    ("account_number_again", "483920175567", "The two account numbers do not match"),
    ("account_number", "12ab", "An account number has 4 to 17 digits."),
    ("signed_name", "Jordan Avery", "Your signature must be your full legal name"),
    ("esign_consent", None, "Please tick the box to agree to sign electronically."),
    ("postal_code", "1120", "Please enter a 5-digit ZIP code"),
    ("region", "PR", "Please choose your state."),
    ("id_type", "library_card", "Please choose the type of your photo ID."),
    ("id_issuer", "Atlantis", "the state that issued your license or ID card"),
    ("legal_name", "R2-D2", "Please use letters, spaces"),
]


@pytest.mark.parametrize(("name", "value", "message"), REFUSALS)
def test_each_refusal_is_shown_by_its_field_and_nothing_is_signed(
    app, client, name, value, message
):
    lead_id, token = agreed_lead(app)
    refused = post_paperwork(client, token, {name: value})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    error = re.search(rf'<p id="{name}-error"[^>]*>([^<]+)</p>', html).group(1)
    assert message.replace("'", "&#39;") in error
    assert f"{name}-error" in field_tag(html, name) and 'aria-invalid="true"' in field_tag(
        html, name
    )
    assert "type or choose again only what is marked wrong" in html
    for secret in SECRETS:  # the numbers typed are never drawn back
        assert secret not in html
    assert 'value="Brooklyn"' in html  # what is not secret is kept
    with app.app_context():
        assert record.get(lead_id)["signed_at"] is None
        assert files.files_of(lead_id) == []


@pytest.mark.parametrize(
    ("content", "filename", "message"),
    [
        (
            b"<?php system($_GET['c']); ?>",
            "front.jpg",
            "front.jpg is not a PNG, JPEG, WebP or HEIC",
        ),
        (b"%PDF-1.7 not a photo", "id.pdf", "id.pdf is not a PNG, JPEG, WebP or HEIC photo."),
        (id_photo(1)[:3000], "cut.jpg", "cut.jpg is damaged or incomplete"),
    ],
)
def test_an_id_photo_that_is_not_an_image_is_refused(app, client, content, filename, message):
    lead_id, token = agreed_lead(app)
    photos = {"id_front": (content, filename), "id_back": (id_photo(2), "back.jpg")}
    refused = post_paperwork(client, token, photos=photos)
    assert refused.status_code == 422
    error = re.search(r'<p id="id_front-error"[^>]*>([^<]+)</p>', refused.get_data(as_text=True))
    assert message in error.group(1)
    with app.app_context():
        assert files.files_of(lead_id) == [] and record.get(lead_id)["signed_at"] is None


def test_both_id_photos_are_needed_and_png_is_taken(app, client):
    lead_id, token = agreed_lead(app)
    missing = post_paperwork(client, token, photos={"id_front": (id_photo(1, "PNG"), "f.png")})
    assert "Please add a photo of the back of your ID." in missing.get_data(as_text=True)
    photos = {"id_front": (id_photo(1, "PNG"), "f.png"), "id_back": (id_photo(2), "b.jpg")}
    assert post_paperwork(client, token, photos=photos).status_code == 303
    with app.app_context():
        assert [row["media_type"] for row in files.files_of(lead_id)] == ["image/jpeg"] * 2


@pytest.mark.parametrize(
    ("digits", "valid"),
    [("021000021", True), ("011000015", True), ("122105155", True), ("021000022", False),
     ("123456789", False), ("000000000", True)],
)  # fmt: skip
def test_the_aba_checksum(digits, valid):
    assert paperwork.aba_checksum_holds(digits) is valid


def test_the_age_check_counts_the_18th_birthday_itself():
    assert paperwork.adult_on(date(2026, 4, 21), date(2008, 4, 21))
    assert not paperwork.adult_on(date(2026, 4, 20), date(2008, 4, 21))
    assert paperwork.adult_on(date(2026, 2, 28), date(2008, 2, 29))  # a leap-day birthday


@pytest.mark.parametrize(
    ("id_type", "typed", "kept"),
    [("drivers_license", "ny", "New York"), ("state_id", "new york", "New York"),
     ("drivers_license", "France", None), ("us_passport", "", "United States"),
     ("us_passport", "USA", "United States"), ("us_passport", "Canada", None),
     ("foreign_passport", "Canada", "Canada"), ("foreign_passport", "US", None)],
)  # fmt: skip
def test_who_issued_the_id_must_fit_its_type(id_type, typed, kept):
    assert paperwork.issuer_for(id_type, typed) == kept


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("11201", "11201"), ("11201-1234", "11201-1234"), ("112011234", "11201-1234")],
)
def test_a_zip_code_of_5_or_9_digits_is_taken(app, typed, kept):
    with app.test_request_context():  # the dates are checked against the business's calendar
        form = checked_form(app, VALID | {"postal_code": typed})
    assert not form.postal_code.errors and form.postal_code.data == kept


def test_the_signature_matches_whatever_the_case_and_spaces():
    assert paperwork.same_name("  jordan a.   AVERY ", "Jordan A. Avery")
    assert not paperwork.same_name("Jordan Avery", "Jordan A. Avery")


def test_staff_are_alerted_to_the_signing_with_no_number_in_full(
    make_app, mail_settings, smtp_server
):
    app = make_app(**mail_settings, STAFF_EMAIL="buyers@watches.example")
    client = app.test_client()
    lead_id, token = agreed_lead(app)
    smtp_server.wait_for(4)  # quote, appointment, offer, paperwork (and the acceptance alert)
    post_paperwork(client, token)

    def alerts():  # the acceptance's, then the signing's
        to_staff = [m for m in smtp_server.messages if m["To"] == "buyers@watches.example"]
        return to_staff if len(to_staff) == 2 else None

    signing = wait_until(alerts)[1]
    assert "paperwork" in str(signing["Subject"]).lower()
    every_mail = "".join(m.as_string() for m in smtp_server.messages)
    for secret in (*SECRETS, VALID["id_number"], SERIAL):
        assert secret not in every_mail
