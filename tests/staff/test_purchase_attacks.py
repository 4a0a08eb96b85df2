"""Attacks on the staff side of the purchase on record: the full paperwork, the ID
photos and the register without recent re-authentication, another lead's files, forged forms,
and identity or bank numbers turning up where only their last 4 characters belong. Each refusal
is asserted, and nothing sensitive is in the answer."""

from __future__ import annotations

import csv
import io
import json

import pytest

from app.leads import history
from app.leads.db import transaction
from app.sale.purchase import files, record
from tests.data.paperwork import ACCOUNT, BIRTH_DATE, FINDINGS, ID_NUMBER, ROUTING, SECRETS
from tests.data.staff_purchase import (
    CERTIFICATE_PDF,
    appointment_lead,
    buy,
    check_register,
    post_step,
    ready_to_buy,
    signed_lead,
)

JPEG = b"\xff\xd8\xff"


def age_the_sign_in(app) -> None:
    """Make the session's last verification older than the re-authentication window."""
    with app.app_context(), transaction() as db:
        db.execute("UPDATE staff_sessions SET verified_at = '2000-01-01T00:00:00+00:00'")


def confirm(staff, account, client) -> str:
    """Give both factors again; where the confirm page sends the browser back."""
    staff.clock.advance()
    answer = staff.post(
        client,
        "/staff/confirm",
        {"password": account.password, "code": account.code(staff.clock())},
    )
    return answer.headers["Location"]


def audit(app) -> list[tuple[str, int | None, dict]]:
    with app.app_context(), transaction() as db:
        rows = db.execute("SELECT action, staff_id, data FROM audit ORDER BY id").fetchall()
    return [(row["action"], row["staff_id"], json.loads(row["data"] or "{}")) for row in rows]


def id_photos(app, lead_id: int) -> list[dict]:
    with app.app_context():
        return files.files_of(lead_id, files.ID_PHOTOS)


def leaks(body: bytes) -> list[str]:
    """Which of the seller's numbers (or an image) are in an answer."""
    text = body.decode("latin-1")
    found = [secret for secret in (*SECRETS, "K48-277-193 05") if secret in text]
    return found + (["image"] if JPEG in body else [])


def add_document(app, lead_id: int) -> dict:
    """A bill of sale on file for the lead, as the documents job stores one."""
    with app.app_context(), transaction() as db:
        return files.add_file(db, lead_id, "bill_of_sale", b"%PDF-1.7 bill", "application/pdf")


# Re-authentication


def test_the_paperwork_needs_both_factors_again_and_each_view_is_audited(
    app, staff, account, signed_in
):
    lead_id = signed_lead(app)
    age_the_sign_in(app)
    path = f"/staff/leads/{lead_id}/paperwork"
    detour = signed_in.get(path)
    assert detour.status_code == 303 and detour.headers["Location"] == "/staff/confirm"
    assert leaks(detour.data) == []
    assert "paperwork_viewed" not in [action for action, _, _ in audit(app)]
    assert confirm(staff, account, signed_in) == path
    html = signed_in.get(path).get_data(as_text=True)
    for shown in (ID_NUMBER, ROUTING, ACCOUNT, "21 April 1980", "Jordan A. Avery", "Brooklyn"):
        assert shown in html, shown
    for photo in id_photos(app, lead_id):
        assert f'src="/staff/leads/{lead_id}/purchase-files/{photo["public_id"]}"' in html
    assert [action for action, _, _ in audit(app)].count("paperwork_viewed") == 1


def test_an_id_photo_needs_both_factors_again_and_is_served_privately(
    app, staff, account, signed_in
):
    lead_id = signed_lead(app)
    front = id_photos(app, lead_id)[1]  # by kind: id_back, then id_front
    assert front["kind"] == "id_front"
    path = f"/staff/leads/{lead_id}/purchase-files/{front['public_id']}"
    age_the_sign_in(app)
    detour = signed_in.get(path)
    assert detour.status_code == 303 and detour.headers["Location"] == "/staff/confirm"
    assert leaks(detour.data) == []
    assert confirm(staff, account, signed_in) == path
    photo = signed_in.get(path)
    assert photo.status_code == 200 and photo.data[:3] == JPEG
    assert photo.mimetype == "image/jpeg"
    assert photo.headers["X-Content-Type-Options"] == "nosniff"
    assert photo.headers["Cache-Control"] == "private, no-store"
    assert any(p.startswith("sandbox") for p in photo.headers.getlist("Content-Security-Policy"))
    viewed = [data for action, _, data in audit(app) if action == "id_photo_viewed"]
    assert viewed == [{"side": "id_front", "version": 1}]


def test_the_register_needs_both_factors_again(app, staff, account, signed_in):
    age_the_sign_in(app)
    for path in ("/staff/register", "/staff/register.csv"):
        detour = signed_in.get(path)
        assert detour.status_code == 303 and detour.headers["Location"] == "/staff/confirm"
    assert [action for action, _, _ in audit(app) if action.startswith("register_")] == []


def test_verifying_the_id_needs_both_factors_again(app, staff, account, signed_in):
    lead_id = signed_lead(app)
    age_the_sign_in(app)
    response = post_step(signed_in, lead_id, "verify_id", {"compared": "y"})
    assert response.status_code == 303 and response.headers["Location"] == "/staff/confirm"
    with app.app_context():
        assert record.get(lead_id)["id_verified_at"] is None


def test_without_a_session_nothing_is_shown_or_changed(app, signed_in):
    lead_id = signed_lead(app)
    photo = id_photos(app, lead_id)[0]
    stranger = app.test_client()
    for path in (
        f"/staff/leads/{lead_id}/paperwork",
        f"/staff/leads/{lead_id}/purchase-files/{photo['public_id']}",
        "/staff/register",
        "/staff/register.csv?date_from=2000-01-01&date_to=2999-01-01",
    ):
        response = stranger.get(path)
        assert response.status_code == 303 and response.headers["Location"] == "/staff/login"
        assert leaks(response.data) == []
    post = stranger.post(f"/staff/leads/{lead_id}/findings", data={"findings-serial_number": "X"})
    assert post.status_code in (303, 400)
    with app.app_context():
        assert record.get(lead_id)["serial_number"] == FINDINGS["serial_number"]


# Another lead's files


def test_another_leads_files_are_not_found(app, signed_in):
    mine, theirs = ready_to_buy(app), ready_to_buy(app)
    check_register(signed_in, theirs)
    document = add_document(app, theirs)
    with app.app_context():
        certificate = files.latest(theirs, "register_certificate")
    their_files = [*id_photos(app, theirs), certificate, document]
    for row in their_files:
        response = signed_in.get(f"/staff/leads/{mine}/purchase-files/{row['public_id']}")
        assert response.status_code == 404, row["kind"]
        assert leaks(response.data) == [] and b"%PDF" not in response.data
    for guess in ("1", "..%2F..%2Fleads.db", their_files[0]["file_name"]):
        assert signed_in.get(f"/staff/leads/{mine}/purchase-files/{guess}").status_code == 404
    assert (
        signed_in.get(f"/staff/leads/999/purchase-files/{document['public_id']}").status_code == 404
    )


def test_documents_and_certificates_download_privately_and_are_audited(app, signed_in):
    lead_id = ready_to_buy(app)
    check_register(signed_in, lead_id)
    buy(app, lead_id)
    document = add_document(app, lead_id)
    html = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    path = f"/staff/leads/{lead_id}/purchase-files/{document['public_id']}"
    assert f'href="{path}"' in html and document["sha256"] in html
    response = signed_in.get(path)
    assert response.status_code == 200 and response.data == b"%PDF-1.7 bill"
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    with app.app_context():
        certificate = files.latest(lead_id, "register_certificate")
    answer = signed_in.get(f"/staff/leads/{lead_id}/purchase-files/{certificate['public_id']}")
    assert answer.data == CERTIFICATE_PDF
    viewed = [data["kind"] for action, _, data in audit(app) if action == "purchase_file_viewed"]
    assert viewed == ["bill_of_sale", "register_certificate"]


# Forged and misplaced forms


@pytest.mark.parametrize(
    ("path", "field"),
    [("findings", "findings-serial_number"), ("register-check", "register_check-provider")],
)
def test_a_form_without_its_csrf_token_is_refused(app, signed_in, path, field):
    lead_id = appointment_lead(app)
    response = signed_in.post(f"/staff/leads/{lead_id}/{path}", data={field: "X"})
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    with app.app_context():
        assert record.get(lead_id) is None


def test_the_id_check_without_its_csrf_token_is_refused(app, signed_in):
    lead_id = signed_lead(app)
    response = signed_in.post(
        f"/staff/leads/{lead_id}/id-verified", data={"verify_id-compared": "y"}
    )
    assert response.status_code == 400
    with app.app_context():
        assert record.get(lead_id)["id_verified_at"] is None


def test_findings_for_a_lead_before_its_appointment_are_refused(app, signed_in, add_lead):
    lead_id = add_lead()
    assert "Purchase on record" not in signed_in.get(f"/staff/leads/{lead_id}").text
    response = post_step(signed_in, lead_id, "findings", FINDINGS)
    assert response.status_code == 303
    assert "this lead is past that point or closed" in signed_in.get(f"/staff/leads/{lead_id}").text
    with app.app_context():
        assert record.get(lead_id) is None
    assert ("purchase_step_refused", 1, {"step": "findings"}) in audit(app)


def test_a_register_file_dressed_as_a_pdf_is_refused(app, signed_in):
    lead_id = appointment_lead(app)
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    response = check_register(signed_in, lead_id, certificate=svg)
    assert response.status_code == 400
    with app.app_context():
        assert files.files_of(lead_id) == []


# Numbers in full nowhere but behind re-authentication


def test_the_lead_page_and_timeline_show_only_the_last_4_characters(app, signed_in):
    lead_id = ready_to_buy(app)
    buy(app, lead_id)
    html = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert leaks(html.encode()) == []
    assert BIRTH_DATE not in html and "21 April 1980" not in html
    assert f"ending {ID_NUMBER[-4:]}" in html and f"ending {ACCOUNT[-4:]}" in html
    assert "View full paperwork" in html
    with app.app_context():
        events = json.dumps(history.lead_events(lead_id))
    assert [secret for secret in SECRETS if secret in events] == []


def test_a_sellers_name_never_becomes_a_formula_in_the_register(app, staff, account, signed_in):
    lead_id = ready_to_buy(app)
    with app.app_context(), transaction() as db:
        formula = '=HYPERLINK("http://evil.example")'
        record.update(db, lead_id, {"legal_name": formula, "account_holder": formula})
    buy(app, lead_id)
    answer = signed_in.get("/staff/register.csv")
    rows = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert rows[0]["Seller's legal name"] == '\'=HYPERLINK("http://evil.example")'


# Sealed to their place: a value or file moved from another lead shows nothing


def test_a_value_or_file_moved_from_another_lead_is_refused_with_a_message(app, signed_in):
    mine, theirs = signed_lead(app), signed_lead(app)
    with app.app_context(), transaction() as db:
        their_account = record.get(theirs)["account_number_enc"]
        record.update(db, mine, {"account_number_enc": their_account})
        my_front, their_front = (files.latest(lead, "id_front") for lead in (mine, theirs))
        folder = files.files_dir()
    (folder / my_front["file_name"]).write_bytes((folder / their_front["file_name"]).read_bytes())

    for path in (
        f"/staff/leads/{mine}/paperwork",
        f"/staff/leads/{mine}/purchase-files/{my_front['public_id']}",
    ):
        refused = signed_in.get(path)
        assert refused.status_code == 303 and refused.headers["Location"].endswith(f"/{mine}")
        assert leaks(refused.data) == [] and JPEG not in refused.data
        shown = signed_in.get(refused.headers["Location"]).get_data(as_text=True)
        assert "does not open with the configured keys, or was altered" in shown
        assert ACCOUNT not in shown and ROUTING not in shown
