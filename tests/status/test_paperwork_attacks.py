"""Attacks on the seller's side of the purchase on record: the paperwork posted twice,
at once, in the wrong state or failing half-way; another lead's documents; and the ID and bank
numbers looked for where they must never be: the database and its WAL, the storage folder, the
pages, the job arguments and the log."""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path

import pytest

from app import queue
from app.leads import history, storage, store
from app.leads.db import transaction
from app.sale import lifecycle
from app.sale.purchase import files, paperwork, record
from tests.data.paperwork import (
    SECRETS,
    VALID,
    agreed_lead,
    checked_form,
    id_photo,
    offered_lead,
    page_csrf,
    post_paperwork,
)
from tests.helpers import JSON, PAYMENT, lead_work_done

ALREADY = "Your paperwork is already signed, so nothing was changed."
NOT_NOW = "There is no paperwork to sign for your sale at this point."


def notice(client, token: str) -> str:
    page = client.get(f"/status/{token}").get_data(as_text=True)
    return re.search(r"data-notice>([^<]+)<", page).group(1)


def signing_events(app, lead_id: int) -> list[dict]:
    with app.app_context():
        return [e for e in history.lead_events(lead_id) if e["kind"] == "paperwork_signed"]


def stored_files(app) -> list[Path]:
    with app.app_context():
        return [path for path in storage.storage_dir().rglob("*") if path.is_file()]


def test_paperwork_posted_twice_is_signed_once(app, client):
    lead_id, token = agreed_lead(app)
    assert post_paperwork(client, token).status_code == 303
    assert notice(client, token).startswith("Thank you: your paperwork is signed.")
    with app.app_context():
        first = record.get(lead_id)
    again = post_paperwork(client, token, {"legal_name": "Someone Else", "signed_name": None})
    assert again.status_code == 303
    assert notice(client, token) == ALREADY
    as_json = post_paperwork(client, token, headers=JSON)
    assert as_json.status_code == 409 and as_json.get_json()["error"] == ALREADY
    assert client.get(f"/status/{token}/paperwork").status_code == 303
    with app.app_context():
        assert record.get(lead_id) == first
        assert len(files.files_of(lead_id)) == 2
    assert len(signing_events(app, lead_id)) == 1
    assert len(stored_files(app)) == 2


def test_two_signings_at_once_sign_once_and_leave_no_stray_file(app):
    lead_id, _ = agreed_lead(app)
    photos = {"id_front": id_photo(1), "id_back": id_photo(2)}
    signer = {"ip": "203.0.113.9", "user_agent": "test"}
    with app.test_request_context():
        values = checked_form(app, VALID).values()
        lead = store.get_lead(lead_id)  # the page both posts came from: still agreed
    start, outcomes = threading.Barrier(2), []

    def sign():
        with app.app_context():
            start.wait()
            try:
                outcomes.append(paperwork.sign(lead, values, photos, signer))
            except paperwork.NotSignable:
                outcomes.append("refused")

    threads = [threading.Thread(target=sign) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes, key=str).count("refused") == 1 and len(outcomes) == 2
    assert len(stored_files(app)) == 2  # the refused signing's photos were never left behind
    assert len(signing_events(app, lead_id)) == 1


@pytest.mark.parametrize("state", ["offered", "closed", "bought"])
def test_paperwork_in_any_state_but_agreed_is_refused_with_nothing_changed(app, client, state):
    lead_id, token = offered_lead(app)
    if state == "closed":
        with app.app_context():
            data = {"reason": "seller_declined"}
            lifecycle.transition(lead_id, "closed", "seller", data, "offered")
    if state == "bought":
        paid(app, lead_id)
    opened = client.get(f"/status/{token}/paperwork")
    assert opened.status_code == 303 and opened.headers["Location"] == f"/status/{token}"
    assert NOT_NOW in notice(client, token)
    posted = post_paperwork(client, token)
    assert posted.status_code == 303 and NOT_NOW in notice(client, token)
    assert post_paperwork(client, token, headers=JSON).status_code == 409
    with app.app_context():
        assert record.get(lead_id)["signed_at"] is None
    assert stored_files(app) == [] and signing_events(app, lead_id) == []


def test_a_signing_that_fails_half_way_keeps_no_id_photo(app, client, monkeypatch):
    lead_id, token = agreed_lead(app)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(history, "append_event", broken)
    with pytest.raises(OSError):  # the app's 500 page, in production
        post_paperwork(client, token)
    monkeypatch.undo()
    assert stored_files(app) == []
    with app.app_context():
        assert record.get(lead_id)["signed_at"] is None
        assert files.files_of(lead_id) == []


def test_a_lead_that_moved_on_while_the_form_was_open_is_not_signed(app, client):
    lead_id, token = agreed_lead(app)
    csrf = page_csrf(client, f"/status/{token}/paperwork")
    with app.app_context():
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "withdrawn"}, "agreed")
    refused = client.post(f"/status/{token}/paperwork", data=VALID | {"csrf_token": csrf})
    assert refused.status_code == 303 and NOT_NOW in notice(client, token)
    assert stored_files(app) == []


def paid(app, lead_id: int) -> None:
    """The lead put straight to bought with its payment recorded (no job queued: the documents
    on file are the test's own)."""
    payment = {"amount": 7400, "paid_on": "2026-11-20"} | PAYMENT
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET state = 'bought' WHERE id = ?", (lead_id,))
        record.record_payment(db, lead_id, "staff:1", payment)


def bought_with_documents(app, label: bytes) -> tuple[int, str]:
    """A bought lead whose bill of sale and receipt are on file (as the documents job leaves
    them; their content here only says whose they are)."""
    lead_id, token = agreed_lead(app)
    paid(app, lead_id)
    with app.app_context(), transaction() as db:
        for kind in files.DOCUMENTS:
            files.add_file(
                db, lead_id, kind, b"%PDF-1.7 " + label + kind.encode(), "application/pdf"
            )
    return lead_id, token


def test_each_link_downloads_only_its_own_leads_documents(app, client):
    _, mine = bought_with_documents(app, b"mine ")
    _, theirs = bought_with_documents(app, b"theirs ")
    page = client.get(f"/status/{mine}").get_data(as_text=True)
    assert f'href="/status/{mine}/documents/bill-of-sale.pdf"' in page
    assert f'href="/status/{mine}/documents/receipt.pdf"' in page
    answer = client.get(f"/status/{mine}/documents/bill-of-sale.pdf")
    assert answer.status_code == 200 and answer.data == b"%PDF-1.7 mine bill_of_sale"
    assert answer.mimetype == "application/pdf"
    assert answer.headers["Content-Disposition"].startswith('attachment; filename="bill-of-sale-')
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers.getlist("Referrer-Policy") == ["no-referrer"]
    assert client.get(f"/status/{theirs}/documents/receipt.pdf").data == b"%PDF-1.7 theirs receipt"


def test_documents_are_the_one_404_for_any_other_name_state_or_missing_file(app, client):
    lead_id, token = bought_with_documents(app, b"")
    _, agreed = agreed_lead(app)
    unknown = client.get("/status/" + "A" * 32 + "/documents/receipt.pdf")
    with app.app_context():
        receipt = files.latest(lead_id, "receipt")
    refused = [
        client.get(f"/status/{agreed}/documents/receipt.pdf"),
        client.get(f"/status/{token}/documents/id-front.pdf"),
        client.get(f"/status/{token}/documents/bill_of_sale.pdf"),
        client.get(f"/status/{token}/documents/{receipt['public_id']}.pdf"),
    ]
    with app.app_context():
        (files.files_dir() / receipt["file_name"]).unlink()
    refused.append(client.get(f"/status/{token}/documents/receipt.pdf"))
    for answer in refused:
        assert answer.status_code == 404
        assert answer.data == unknown.data and answer.headers["Cache-Control"] == "no-store"
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "data-documents" in page


def test_documents_still_being_made_are_announced_not_linked(app, client):
    lead_id, token = agreed_lead(app)
    paid(app, lead_id)
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Your bill of sale and receipt are being prepared" in page
    assert "/documents/" not in page


def raw_bytes(app) -> bytes:
    """leads.db with its WAL and shared memory, and every file in the storage folder."""
    database = Path(app.config["LEADS_DB"])
    paths = [*database.parent.glob(database.name + "*"), *stored_files(app)]
    return b"".join(path.read_bytes() for path in paths)


def test_no_number_typed_and_no_id_photo_is_kept_or_shown_in_the_clear(
    app, client, caplog, monkeypatch
):
    caplog.set_level(logging.DEBUG)
    queued = []
    enqueue = queue.enqueue
    monkeypatch.setattr(queue, "enqueue", lambda *args: queued.append(args) or enqueue(*args))
    lead_id, token = agreed_lead(app)
    front, back = id_photo(1), id_photo(2)
    post_paperwork(client, token, {"routing_number": "021000022"})  # refused first
    post_paperwork(client, token, photos={"id_front": (front, "f.jpg"), "id_back": (back, "b.jpg")})
    lead_work_done(app)  # the jobs the signing queued (staff alert, payout check) are done
    with app.app_context():
        assert record.get(lead_id)["signed_at"]
        kept = [files.read(row) for row in files.files_of(lead_id, files.ID_PHOTOS)]
    raw = raw_bytes(app)
    pages = "".join(
        client.get(path).get_data(as_text=True)
        for path in (f"/status/{token}", f"/status/{token}/paperwork")
    )
    with app.app_context():
        timeline = str(history.lead_events(lead_id))
    for secret in (*SECRETS, VALID["id_number"]):
        assert secret.encode() not in raw
        assert secret not in pages and secret not in timeline and secret not in caplog.text
        assert secret not in str(queued)
    for photo in (front, back, *kept):
        assert photo[200:264] not in raw  # no stretch of a photo, as sent or as kept
    assert all(isinstance(arg, int) for _, *args in queued for arg in args)


def test_the_paperwork_post_is_rate_limited(make_app):
    app = make_app(RATELIMIT_ENABLED=True, STATUS_ACTION_RATELIMIT="2 per minute")
    client = app.test_client()
    _, token = agreed_lead(app)
    answers = [post_paperwork(client, token, {"routing_number": "1"}) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [422, 422, 303]
    assert "Too many requests" in notice(client, token)
