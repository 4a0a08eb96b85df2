"""The bill of sale and the receipt: made as PDFs by the real job after a lead is bought, read
back with pypdf, attached to the "paid" e-mail (a real SMTP server on loopback), versioned,
encrypted at rest, and never holding more of an ID or bank number than its last 4."""

from __future__ import annotations

import hashlib
import io
import logging
import threading
from datetime import UTC, datetime, timedelta

import pytest
from pypdf import PdfReader

from app.leads import history, store
from app.leads.db import now, transaction
from app.leads.history import append_event
from app.sale import lifecycle, pending
from app.sale.purchase import documents, files, paperwork, record
from tests.data.photos import photo_bytes
from tests.helpers import PAYMENT, lead_work_done, put_purchase_on_record, save_sample_lead
from worker.jobs import make_purchase_documents, send_seller_email
from worker.photos import PhotoRejected, process_photo

ID_NUMBER, BIRTH_DATE = "D12345678901", "1961-07-14"
ROUTING, ACCOUNT = "021000021", "000123456789"
SECRETS = (ID_NUMBER, BIRTH_DATE, ROUTING, ACCOUNT)
PAPERWORK = {
    "legal_name": "Jordan A. Avery",
    "street_address": "41 Orchard Lane, Apt 3B",
    "city": "Brooklyn",
    "region": "NY",
    "postal_code": "11201",
    "id_type": "drivers_license",
    "id_number_last4": ID_NUMBER[-4:],
    "id_issuer": "New York",
    "id_expires_on": "2030-07-14",
    "account_holder": "Jordan A. Avery",
    "account_number_last4": ACCOUNT[-4:],
    "movement_marks": "Cal. 3235, numbered to the case",
    "condition_findings": "Light marks on the clasp; crystal and bezel unmarked.",
    "signed_name": "Jordan A. Avery",
    "signed_at": "2026-11-20T15:00:00+00:00",
    "signed_ip": "203.0.113.77",
    "signed_user_agent": "Mozilla/5.0 (test)",
}
PAID = {"amount": 9500, "paid_on": "2026-11-24"} | PAYMENT


def sign_paperwork(lead_id: int) -> None:
    """Inside an app context: the lead's final offer accepted and its paperwork signed as the
    status page records it (the declaration's SHA-256 is that of its exact text)."""
    offer = {"from": "appointment", "to": "offered", "amount": 9500, "valid_until": "2026-11-30"}
    history.add_event(lead_id, "staff:1", "state_changed", offer)
    put_purchase_on_record(lead_id)
    encrypted = {
        "birth_date_enc": record.sealed(lead_id, "birth_date_enc", BIRTH_DATE),
        "id_number_enc": record.sealed(lead_id, "id_number_enc", ID_NUMBER),
        "routing_number_enc": record.sealed(lead_id, "routing_number_enc", ROUTING),
        "account_number_enc": record.sealed(lead_id, "account_number_enc", ACCOUNT),
    }
    with transaction() as db:
        record.update(db, lead_id, PAPERWORK | encrypted)
    text = paperwork.declaration_text(store.get_lead(lead_id), record.get(lead_id))
    with transaction() as db:
        record.update(db, lead_id, {"declaration_sha256": paperwork.digest(text)})


def bought_lead(app) -> tuple[int, int]:
    """A lead bought by staff (the real transition, which queues the "paid" e-mail and the
    documents job), with every queued job run; its id and the `bought` event's."""
    # The seller chose Tudor on /sell; staff read Rolex on the watch: the documents say Rolex.
    lead_id = save_sample_lead(app, email="jordan@example.com", watch_brand="Tudor")
    with app.app_context():
        sign_paperwork(lead_id)
        event_id = lifecycle.transition(lead_id, "bought", "staff:1", PAID, "agreed")
    lead_work_done(app)
    return lead_id, event_id


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pdf_text(data: bytes) -> str:
    """A PDF's text as pypdf reads it, runs of white space made one space."""
    return " ".join(
        " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split()
    )


def stored(app, lead_id: int) -> dict[tuple[str, int], bytes]:
    """Every document stored for the lead, decrypted, by (kind, version)."""
    with app.app_context():
        rows = files.files_of(lead_id, files.DOCUMENTS)
        return {(row["kind"], row["version"]): files.read(row) for row in rows}


def made_events(app, lead_id: int) -> list[dict]:
    with app.app_context():
        events = history.lead_events(lead_id)
    return [event["data"] for event in events if event["kind"] == "document_made"]


def correct_findings(app, lead_id: int, findings: str) -> None:
    """Staff correct the authentication's findings after payment: the documents are owed again."""
    with app.app_context():
        event = {"serial_last4": "K9Q2"}
        record.record(
            lead_id, "staff:1", "authentication_recorded", {"condition_findings": findings}, event
        )


def files_on_disk(app) -> list:
    """Every encrypted purchase file in the app's private storage."""
    with app.app_context():
        return list(files.files_dir().glob("*.bin"))


def the_paid_email(smtp_server):
    [message] = [m for m in smtp_server.wait_for(1) if "Payment sent" in str(m["Subject"])]
    return message


def test_the_bill_of_sale_names_the_parties_the_watch_the_price_and_the_signed_declaration(
    mail_app, smtp_server
):
    lead_id, _ = bought_lead(mail_app)
    with mail_app.app_context():
        lead, purchase = store.get_lead(lead_id), record.get(lead_id)
        declaration = paperwork.declaration_text(lead, purchase)
    reference = lead["reference"]
    text = pdf_text(stored(mail_app, lead_id)[("bill_of_sale", 1)])
    for words in (
        "Bill of sale", f"Document {reference}-BOS-1", f"Reference {reference}",
        "US Watch Buyers", "offers@example.com", "(212) 555-0147",  # the buyer
        "Jordan A. Avery", "41 Orchard Lane, Apt 3B", "Brooklyn, NY 11201",  # the seller
        "Brand Rolex", "Model Submariner", "Model reference 126610LN", "Serial number 7Z41K9Q2",
        "Case marks Clean", "Movement marks Cal. 3235, numbered to the case",
        "Condition Light marks on the clasp; crystal and bezel unmarked.",
        "Box Included", "Papers Not included",
        "Price paid $9,500", "Date of sale 24 November 2026", "Payment method ACH bank transfer",
        "Bank confirmation ACH-20261124-0042", "Paid to account ending 6789",
        "Ownership of the watch passed to US Watch Buyers when payment was sent on 24 November",
        "ID type Driver's license", "Issued by New York", "ID number ending 8901",
        " ".join(declaration.split()), "to US Watch Buyers for $9,500.",
        "Signed by (typed name) Jordan A. Avery", "Signed at 20 November 2026, 10:00 am EST",
        "IP address 203.0.113.77", "Electronic Signatures in Global and National Commerce Act",
        "/s/ Jordan A. Avery",
    ):  # fmt: skip
        assert words in text
    assert purchase["declaration_sha256"] in text.replace(" ", "")


def test_the_receipt_says_the_amount_the_method_the_date_and_that_ownership_passed(
    mail_app, smtp_server
):
    lead_id, _ = bought_lead(mail_app)
    with mail_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
    text = pdf_text(stored(mail_app, lead_id)[("receipt", 1)])
    for words in (
        "Receipt", f"Document {reference}-RCT-1", "Amount paid to Jordan A. Avery $9,500",
        "Payment method ACH bank transfer", "Payment date 24 November 2026",
        "Bank confirmation ACH-20261124-0042", "Watch Rolex Submariner", "Serial number 7Z41K9Q2",
        "Seller Jordan A. Avery", f"Reference {reference}",
        "Ownership of the watch passed to us when payment was sent.",
    ):  # fmt: skip
        assert words in text


def test_each_pdf_is_titled_us_letter_without_images_and_fetches_nothing(
    mail_app, smtp_server, monkeypatch
):
    fetched = []
    monkeypatch.setattr(documents, "refuse_to_fetch", lambda url: fetched.append(url) or {})
    lead_id, _ = bought_lead(mail_app)
    with mail_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
    for (kind, _), data in stored(mail_app, lead_id).items():
        pdf = PdfReader(io.BytesIO(data))
        number = f"{reference}-{documents.CODES[kind]}-1"
        assert pdf.metadata.title == f"{documents.TITLES[kind]} {number}"
        assert pdf.metadata.author == "US Watch Buyers"
        sizes = {tuple(round(float(side)) for side in page.mediabox[2:]) for page in pdf.pages}
        assert sizes == {(612, 792)}  # US Letter: 8.5 by 11 inches, in points
        assert sum(len(page.images) for page in pdf.pages) == 0  # no ID image, no image at all
    assert fetched == []


def test_the_timeline_holds_each_documents_sha256_and_the_stored_file_is_encrypted(
    mail_app, smtp_server
):
    lead_id, _ = bought_lead(mail_app)
    made = made_events(mail_app, lead_id)
    assert sorted(event["kind"] for event in made) == ["bill_of_sale", "receipt"]
    with mail_app.app_context():
        for event in made:
            row = files.latest(lead_id, event["kind"])
            assert event == {"kind": row["kind"], "version": 1, "sha256": row["sha256"]}
            assert sha256(files.read(row)) == event["sha256"]
            raw = (files.files_dir() / row["file_name"]).read_bytes()
            assert not raw.startswith(b"%PDF") and b"Avery" not in raw


def test_the_paid_email_attaches_both_pdfs_and_says_so(mail_app, smtp_server):
    lead_id, _ = bought_lead(mail_app)
    message = the_paid_email(smtp_server)
    with mail_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
        latest = {kind: files.read(files.latest(lead_id, kind)) for kind in files.DOCUMENTS}
    attached = {part.get_filename(): part for part in message.iter_attachments()}
    assert set(attached) == {f"bill-of-sale-{reference}.pdf", f"receipt-{reference}.pdf"}
    assert attached[f"bill-of-sale-{reference}.pdf"].get_content() == latest["bill_of_sale"]
    assert attached[f"receipt-{reference}.pdf"].get_content() == latest["receipt"]
    assert {part.get_content_type() for part in attached.values()} == {"application/pdf"}
    text = message.get_body(("plain",)).get_content()
    assert "Your receipt and the bill of sale are attached to this e-mail as PDF files." in text
    for words in ("$9,500", "ACH bank transfer", "24 November 2026", "ACH-20261124-0042"):
        assert words in text


def test_the_paid_email_attaches_the_stored_documents_and_never_renders_them(
    mail_app, smtp_server, monkeypatch
):
    lead_id = crashed_purchase(mail_app, now())  # bought, its jobs not run yet
    with mail_app.app_context():
        [bought] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "bought"]
    renders = []
    render = documents.render
    monkeypatch.setattr(documents, "render", lambda *args: renders.append(args) or render(*args))
    with mail_app.app_context():
        with pytest.raises(documents.DocumentsNotReady):
            send_seller_email(lead_id, bought["id"])  # before the documents job: it waits
        assert renders == [] and smtp_server.messages == []
        make_purchase_documents(lead_id)
        assert send_seller_email(lead_id, bought["id"]) == "sent"
        stored_files = {kind: files.read(files.latest(lead_id, kind)) for kind in files.DOCUMENTS}
    assert len(renders) == len(files.DOCUMENTS)  # each rendered once, by the documents job
    attached = [part.get_content() for part in the_paid_email(smtp_server).iter_attachments()]
    assert attached == [stored_files["bill_of_sale"], stored_files["receipt"]]


def test_no_full_id_birth_date_or_bank_number_is_in_either_pdf_or_the_paid_email(
    mail_app, smtp_server
):
    lead_id, _ = bought_lead(mail_app)
    message = the_paid_email(smtp_server)
    texts = [pdf_text(data) for data in stored(mail_app, lead_id).values()]
    texts += [
        part.get_content() for part in message.walk() if part.get_content_maintype() == "text"
    ]
    texts += [pdf_text(part.get_content()) for part in message.iter_attachments()]
    texts.append(message.as_string())
    assert len(texts) == 7
    for text in texts:
        for secret in SECRETS + ("14 July 1961", "07/14/1961"):
            assert secret not in text


def test_running_the_job_again_makes_no_second_version(mail_app, smtp_server):
    lead_id, _ = bought_lead(mail_app)
    with mail_app.app_context():
        assert make_purchase_documents(lead_id) == "nothing owed"
        assert make_purchase_documents(lead_id) == "nothing owed"
    assert sorted(stored(mail_app, lead_id)) == [("bill_of_sale", 1), ("receipt", 1)]
    assert len(made_events(mail_app, lead_id)) == 2


def test_a_correction_after_payment_makes_version_2_and_keeps_version_1(
    mail_app, smtp_server, caplog
):
    lead_id, _ = bought_lead(mail_app)
    correct_findings(mail_app, lead_id, "Scratch on the case back noted after payment.")
    caplog.set_level(logging.INFO)
    with mail_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
        assert make_purchase_documents(lead_id) == "made bill_of_sale version 2, receipt version 2"
    assert f"Lead {lead_id}: made bill_of_sale version 2, receipt version 2." in caplog.text
    assert "Avery" not in caplog.text and "7Z41K9Q2" not in caplog.text
    versions = stored(mail_app, lead_id)
    assert sorted(versions) == [(kind, n) for kind in files.DOCUMENTS for n in (1, 2)]
    newest = pdf_text(versions[("bill_of_sale", 2)])
    oldest = pdf_text(versions[("bill_of_sale", 1)])
    assert f"{reference}-BOS-2" in newest and "it replaces version 1" in newest
    assert "Scratch on the case back" in newest and "Scratch on the case back" not in oldest
    assert [event["version"] for event in made_events(mail_app, lead_id)] == [1, 1, 2, 2]


def test_two_workers_at_once_make_each_version_once(mail_app, smtp_server):
    lead_id, _ = bought_lead(mail_app)
    correct_findings(mail_app, lead_id, "Corrected findings.")
    start, made = threading.Barrier(2), []

    def worker():
        with mail_app.app_context():
            start.wait()
            made.extend(documents.make_documents(lead_id))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted((row["kind"], row["version"]) for row in made) == [
        (kind, 2) for kind in files.DOCUMENTS
    ]
    assert len(stored(mail_app, lead_id)) == 4
    assert len(files_on_disk(mail_app)) == 4  # the loser's renders were never written


def test_a_failed_rendering_holds_the_paid_email_and_requeue_makes_what_is_owed(
    mail_app, smtp_server, monkeypatch
):
    def broken(kind, context, version):
        raise RuntimeError("rendering failed")

    monkeypatch.setattr(documents, "render", broken)
    lead_id, event_id = bought_lead(mail_app)
    assert smtp_server.messages == []  # the e-mail waits for its attachments
    with mail_app.app_context():
        assert not history.email_sent(event_id)
        assert documents.leads_owed_documents() == [lead_id]
    assert stored(mail_app, lead_id) == {}
    monkeypatch.undo()
    with mail_app.app_context():
        queued = pending.requeue_all()
    lead_work_done(mail_app)
    assert queued.documents == [lead_id]
    assert len(list(the_paid_email(smtp_server).iter_attachments())) == 2
    assert sorted(stored(mail_app, lead_id)) == [("bill_of_sale", 1), ("receipt", 1)]
    with mail_app.app_context():
        assert documents.leads_owed_documents() == []


def crashed_purchase(app, bought_at: str) -> int:
    """A lead recorded bought at `bought_at` by a process that died before queueing its jobs."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        sign_paperwork(lead_id)
        with transaction() as db:
            record.record_payment(db, lead_id, "staff:1", PAID)
            db.execute("UPDATE leads SET state = 'bought' WHERE id = ?", (lead_id,))
            change = {"from": "agreed", "to": "bought"} | PAID
            append_event(db, lead_id, "staff:1", "state_changed", change, at=bought_at)
    return lead_id


def test_the_start_up_sweep_makes_documents_a_crash_left_and_leaves_live_work_alone(mail_app):
    three_minutes_ago = (datetime.now(UTC) - timedelta(minutes=3)).isoformat(timespec="seconds")
    crashed = crashed_purchase(mail_app, three_minutes_ago)
    live = crashed_purchase(mail_app, now())  # just bought: maybe a live process is on it
    with mail_app.app_context():
        assert pending.sweep().count() == 1
    lead_work_done(mail_app)
    assert sorted(stored(mail_app, crashed)) == [("bill_of_sale", 1), ("receipt", 1)]
    assert stored(mail_app, live) == {}


def test_leads_not_bought_or_erased_are_owed_no_documents(mail_app, smtp_server):
    open_lead = save_sample_lead(mail_app)
    erased, _ = bought_lead(mail_app)
    correct_findings(mail_app, erased, "Corrected findings.")
    with mail_app.app_context():
        with transaction() as db:
            db.execute(
                "UPDATE leads SET erased_at = '2026-12-01T00:00:00+00:00' WHERE id = ?", (erased,)
            )
        assert make_purchase_documents(open_lead) == "nothing owed"
        assert make_purchase_documents(erased) == "nothing owed"
        assert documents.leads_owed_documents() == []
    assert stored(mail_app, open_lead) == {}
    assert len(stored(mail_app, erased)) == 2


def test_a_declaration_that_no_longer_matches_what_was_signed_makes_no_document(
    mail_app, smtp_server
):
    lead_id, _ = bought_lead(mail_app)
    with mail_app.app_context(), transaction() as db:
        record.update(db, lead_id, {"declaration_sha256": "0" * 64})
    correct_findings(mail_app, lead_id, "Corrected findings.")
    with mail_app.app_context(), pytest.raises(documents.RecordMismatch):
        make_purchase_documents(lead_id)
    assert sorted(stored(mail_app, lead_id)) == [("bill_of_sale", 1), ("receipt", 1)]


def test_after_rendering_the_worker_still_refuses_a_truncated_photo(
    mail_app, smtp_server, tmp_path
):
    bought_lead(mail_app)  # WeasyPrint, imported to render, turns Pillow's tolerance on
    data = photo_bytes(size=(800, 600))
    truncated = tmp_path / "IMG_1.jpg"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(PhotoRejected, match="not a readable image"):
        process_photo(truncated, tmp_path / "out", 50_000_000)


def test_the_bill_of_sale_names_the_buyer_by_its_legal_name_and_postal_address(
    make_app, mail_settings, smtp_server
):
    business = {
        "BUSINESS_LEGAL_NAME": "US Watch Buyers LLC",
        "BUSINESS_ADDRESS": "41 Orchard Street, Floor 3; New York, NY 10002",
    }
    app = make_app(**mail_settings, **business)
    lead_id, _ = bought_lead(app)
    text = pdf_text(stored(app, lead_id)[("bill_of_sale", 1)])
    for words in (
        "BUYER US Watch Buyers LLC trading as US Watch Buyers",  # the role is set in capitals
        "41 Orchard Street, Floor 3 New York, NY 10002",
    ):
        assert words in text, words
