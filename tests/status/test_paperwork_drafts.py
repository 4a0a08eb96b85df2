"""Paperwork that survives a typo: after a refusal the seller types again only what was wrong.
The date of birth, the ID and bank numbers and the ID photos that passed are kept sealed
server-side for that browser alone, never written back into the page; the declaration is signed
only once the page has shown it with the name typed; a draft expires and goes with signing,
with the lead leaving `agreed`, and with erasure."""

from __future__ import annotations

import re
from pathlib import Path

from app.leads.db import get_db, transaction
from app.sale import lifecycle
from app.sale.purchase import drafts, files, record
from tests.data.paperwork import (
    ACCOUNT,
    BIRTH_DATE,
    ID_NUMBER,
    ROUTING,
    SECRETS,
    VALID,
    agreed_lead,
    post_paperwork,
)

TYPED_ONCE = {"birth_date": "", "id_number": "", "account_number": "", "account_number_again": ""}
NO_PHOTOS: dict = {}


def field_tag(html: str, name: str) -> str:
    return re.search(rf'<(?:input|select|textarea)[^>]*name="{name}"[^>]*>', html).group(0)


def kept_fields(html: str) -> set[str]:
    return set(re.findall(r'data-kept="([a-z_]+)"', html))


def draft_rows(app) -> list[dict]:
    with app.app_context():
        return [dict(row) for row in get_db().execute("SELECT * FROM paperwork_drafts")]


def stored_photos(app, lead_id: int) -> dict[str, bytes]:
    with app.app_context():
        return {row["kind"]: files.read(row) for row in files.files_of(lead_id, files.ID_PHOTOS)}


def test_after_a_mistyped_routing_number_only_it_is_asked_again(app, client):
    lead_id, token = agreed_lead(app)
    refused = post_paperwork(client, token, {"routing_number": "021000022"})  # checksum fails
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    cookie = refused.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert kept_fields(html) == {
        "birth_date", "id_number", "account_number", "account_number_again", "id_front", "id_back"
    }  # fmt: skip
    assert "the account ending 5566" in html
    assert "required" in field_tag(html, "routing_number")
    for name in ("birth_date", "id_number", "account_number", "id_front"):
        assert "required" not in field_tag(html, name), name
    for secret in SECRETS:  # kept, and still never written back
        assert secret not in html
    assert "021000022" not in html

    signed = post_paperwork(client, token, TYPED_ONCE | {"routing_number": ROUTING}, NO_PHOTOS)

    assert signed.status_code == 303
    with app.app_context():
        purchase = record.get(lead_id)
        assert purchase["signed_at"]
        assert record.opened(purchase, "birth_date_enc") == BIRTH_DATE
        assert record.opened(purchase, "id_number_enc") == ID_NUMBER
        assert record.opened(purchase, "routing_number_enc") == ROUTING
        assert record.opened(purchase, "account_number_enc") == ACCOUNT
        folder = files.files_dir()
    photos = stored_photos(app, lead_id)
    assert set(photos) == {"id_front", "id_back"}
    assert all(photo[:3] == b"\xff\xd8\xff" for photo in photos.values())
    assert draft_rows(app) == []  # gone with the signing, file and all
    assert len(list(folder.iterdir())) == 2


def test_mismatched_account_numbers_are_both_asked_again(app, client):
    _, token = agreed_lead(app)
    html = post_paperwork(client, token, {"account_number_again": "483920175567"}).get_data(
        as_text=True
    )
    assert not {"account_number", "account_number_again"} & kept_fields(html)
    assert {"birth_date", "routing_number", "id_front"} <= kept_fields(html)


def test_a_draft_is_read_and_fed_only_by_the_browser_that_typed_it(app, client):
    lead_id, token = agreed_lead(app)
    post_paperwork(client, token, {"routing_number": "021000022"})
    other = app.test_client()  # someone else holding the seller's link

    page = other.get(f"/status/{token}/paperwork").get_data(as_text=True)
    assert kept_fields(page) == set() and "5566" not in page
    refused = post_paperwork(other, token, TYPED_ONCE | {"routing_number": ROUTING}, NO_PHOTOS)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "5566" not in html
    assert 'data-error="account_number"' in html and 'data-error="id_front"' in html
    with app.app_context():
        assert record.get(lead_id)["signed_at"] is None

    planted = {"account_number": "999999990001", "account_number_again": "999999990001"}
    post_paperwork(other, token, planted | {"routing_number": "1"})  # their draft now
    back = post_paperwork(client, token, TYPED_ONCE | {"routing_number": ROUTING}, NO_PHOTOS)
    assert back.status_code == 422  # the seller's draft was replaced, never theirs used
    assert "0001" not in back.get_data(as_text=True)
    with app.app_context():
        assert record.get(lead_id)["signed_at"] is None


def test_nothing_is_signed_until_the_declaration_has_shown_the_name(app, client):
    lead_id, token = agreed_lead(app)
    first = post_paperwork(client, token, {"declaration_name": ""})  # as the page first shows it
    html = first.get_data(as_text=True)
    assert first.status_code == 200 and "data-read-declaration" in html
    declaration = re.search(r"data-declaration[^>]*>([^<]+)<", html).group(1)
    assert "I, Jordan A. Avery" in declaration and "[your full legal name]" not in declaration
    assert 'name="declaration_name" value="Jordan A. Avery"' in html
    assert kept_fields(html) == {
        "birth_date", "id_number", "routing_number", "account_number", "account_number_again",
        "id_front", "id_back",
    }  # fmt: skip
    with app.app_context():
        assert record.get(lead_id)["signed_at"] is None

    blank = TYPED_ONCE | {"routing_number": ""}
    signed = post_paperwork(client, token, blank, NO_PHOTOS)
    assert signed.status_code == 303
    with app.app_context():
        assert record.opened(record.get(lead_id), "account_number_enc") == ACCOUNT


def test_a_renamed_seller_sees_the_new_name_before_signing(app, client):
    _, token = agreed_lead(app)
    renamed = {"legal_name": "Jordan B. Avery", "signed_name": "Jordan B. Avery"}
    html = post_paperwork(client, token, renamed).get_data(as_text=True)
    assert "data-read-declaration" in html and "I, Jordan B. Avery" in html


def with_draft(app, client) -> tuple[int, str, Path]:
    """An agreed lead whose seller's post was refused for a routing number: its id, token and
    the draft's file."""
    lead_id, token = agreed_lead(app)
    post_paperwork(client, token, {"routing_number": "1"})
    [row] = draft_rows(app)
    with app.app_context():
        return lead_id, token, files.files_dir() / row["file_name"]


def test_an_expired_draft_is_never_read_and_the_daily_run_removes_it(app, client):
    _, token, path = with_draft(app, client)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE paperwork_drafts SET expires_at = '2000-01-01T00:00:00+00:00'")
    assert path.is_file()
    assert kept_fields(client.get(f"/status/{token}/paperwork").get_data(as_text=True)) == set()
    with app.app_context():
        assert drafts.remove_expired() == 1
    assert draft_rows(app) == [] and not path.exists()


def test_closing_the_lead_takes_its_draft(app, client):
    lead_id, _, path = with_draft(app, client)
    with app.app_context():
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "seller_declined"}, "agreed")
    assert draft_rows(app) == [] and not path.exists()


def test_a_draft_on_disk_holds_nothing_in_the_clear(app, client):
    data = with_draft(app, client)[2].read_bytes()
    for secret in (*SECRETS, VALID["legal_name"]):
        assert secret.encode() not in data
    # No JPEG's markers (4 bytes each: in 200 KB of ciphertext a chance one in 20,000; the
    # 3-byte start-of-image marker turned up by chance in about one run in a hundred).
    assert b"JFIF" not in data and b"Exif" not in data
