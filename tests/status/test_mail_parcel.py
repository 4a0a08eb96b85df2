"""The seller's label and parcel on the status page: the label downloaded as a PDF (4x6 and
letter) from the provider, only from the deal's own status page and only until the carrier's
first scan; and a return address changed after the label, which the link alone cannot do: only
the seller's confirmation from their mailbox replaces the parcel (the old label voided and
refunded, a new one bought). Every refusal asserted; no tracking code in an e-mail or a log."""

from __future__ import annotations

import io
import logging
import re

from pypdf import PdfReader

from app.leads import history
from app.leads.db import transaction
from app.shipping import address_change, labels, preparation
from tests.helpers import lead_work_done
from tests.status.mail_steps import (
    all_given,
    csrf,
    labelled,
    mail_deal,
    notice,
    post_address,
    verify_id,
)

SITE = "https://watches.example"
ADDRESS_LINK = re.compile(re.escape(SITE) + r"(/status/address/[A-Za-z0-9_-]+)")


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def current_parcel_step(html: str) -> str:
    """The parcel's current step, as the status page shows it."""
    return re.search(r'data-parcel-step="current">(.*?)</li>', html, re.S).group(1)


RENO = {"street1": "99 Other Rd", "city": "Reno", "state": "NV", "zip": "89501"}


def change_link(app, smtp_server, token: str) -> str:
    """A new return address (RENO) asked for on the status page, its jobs done; the path of
    the link the seller's e-mail carries to confirm it."""
    post_address(app.test_client(), token, RENO)
    lead_work_done(app)
    [message] = [m for m in smtp_server.messages if ADDRESS_LINK.search(text_of(m))]
    return ADDRESS_LINK.search(text_of(message)).group(1)


def open_link(app, path: str) -> tuple:
    """The seller opens the link in another browser: (their client, the page, its CSRF token)."""
    seller = app.test_client()
    page = seller.get(path).get_data(as_text=True)
    return seller, page, re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_the_label_downloads_as_a_4x6_pdf_and_on_letter_paper(mailin_app, easypost, caplog):
    caplog.set_level(logging.INFO)
    lead_id, token, parcel = labelled(mailin_app)
    client = mailin_app.test_client()
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Label ready" in current_parcel_step(html) and parcel["tracking_code"] in html
    assert 'href="/status/' + token + '/mail/label-4x6.pdf"' in html
    small = client.get(f"/status/{token}/mail/label-4x6.pdf")
    assert small.status_code == 200 and small.mimetype == "application/pdf"
    assert small.headers["Cache-Control"] == "no-store"
    assert small.headers["X-Content-Type-Options"] == "nosniff"
    assert small.headers["Content-Disposition"].startswith('attachment; filename="label-')
    page = PdfReader(io.BytesIO(small.data)).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (288, 432)
    assert parcel["tracking_code"] in page.extract_text()
    letter = client.get(f"/status/{token}/mail/label-letter.pdf")
    sheet = PdfReader(io.BytesIO(letter.data)).pages[0]
    assert (float(sheet.mediabox.width), float(sheet.mediabox.height)) == (612, 792)
    assert parcel["tracking_code"] in sheet.extract_text()
    [converted, *_] = [r for r in easypost.requests if r["action"] == "label"]
    assert "file_format=PDF" in converted["path"]
    assert "4x6 label downloaded" in caplog.text and parcel["tracking_code"] not in caplog.text


def test_a_provider_failure_says_to_try_again(mailin_app, easypost):
    _, token, _ = labelled(mailin_app)
    easypost.plan("label", 500)
    client = mailin_app.test_client()
    answer = client.get(f"/status/{token}/mail/label-4x6.pdf")
    assert answer.status_code == 303
    assert notice(client, token).startswith("We could not fetch your label from the carrier")


def test_no_other_lead_size_or_state_gets_a_label(mailin_app):
    _, token, parcel = labelled(mailin_app)
    _, other_token = mail_deal(mailin_app)  # a deal of its own, no label yet
    client = mailin_app.test_client()
    assert client.get(f"/status/{other_token}/mail/label-4x6.pdf").status_code == 404
    assert client.get(f"/status/{token}/mail/label-a4.pdf").status_code == 404
    assert client.get(f"/status/{token[:-2]}xx/mail/label-4x6.pdf").status_code == 404
    with mailin_app.app_context(), transaction() as db:
        db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (parcel["id"],))
    assert client.get(f"/status/{token}/mail/label-4x6.pdf").status_code == 404
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "On its way to us" in current_parcel_step(html) and "label-4x6.pdf" not in html


def test_the_setting_off_or_an_in_person_lead_is_not_found(mailin_app, easypost):
    _, token, _ = labelled(mailin_app)
    _, in_person = mail_deal(mailin_app, handover=None)
    client = mailin_app.test_client()
    for path in ("/mail/address", "/mail/id", "/mail/conditions", "/mail/suggestion"):
        assert (
            client.post(
                f"/status/{in_person}{path}", data={"csrf_token": csrf(client, in_person)}
            ).status_code
            == 404
        )
    assert "data-mail" not in client.get(f"/status/{in_person}").get_data(as_text=True)
    mailin_app.config["MAILIN_ENABLED"] = False
    assert client.get(f"/status/{token}/mail/label-4x6.pdf").status_code == 404
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "data-mail" not in page and "book your authentication appointment" in page
    assert (
        client.post(
            f"/status/{token}/mail/address", data={"csrf_token": csrf(client, token)}
        ).status_code
        == 404
    )


def test_a_step_at_another_state_is_refused_with_a_clear_message(mailin_app, easypost):
    lead_id, token = mail_deal(mailin_app)
    with mailin_app.app_context():
        from app.sale import lifecycle

        lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "accepted")
    client = mailin_app.test_client()
    post_address(client, token)
    assert notice(client, token).startswith("This step is for a sale by mail after you have")
    assert not easypost.requests


def test_after_staff_verified_the_id_the_link_alone_changes_no_part(mailin_app, easypost):
    lead_id, token, parcel = labelled(mailin_app)
    client = mailin_app.test_client()
    from tests.status.mail_steps import post_conditions, post_id

    post_id(client, token)
    assert notice(client, token).startswith("This step is closed")
    post_conditions(client, token)
    assert notice(client, token).startswith("This step is closed")
    with mailin_app.app_context():
        record = preparation.get(lead_id, preparation.deal_of(history.lead_events(lead_id)))
        assert labels.get(parcel["id"])["from_address_id"] == record["address_id"]


def test_a_forwarded_link_cannot_redirect_the_parcel(mailin_app, easypost, smtp_server):
    lead_id, token, parcel = labelled(mailin_app)
    client = mailin_app.test_client()  # whoever holds the link
    post_address(client, token, RENO)
    assert notice(client, token).startswith("We have e-mailed you a link to confirm")
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        assert labels.get(parcel["id"])["state"] == "label_ready"  # nothing changed yet
        assert labels.get(parcel["id"])["from_address_id"] == parcel["from_address_id"]
    assert easypost.bought() == 1
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert "data-change-asked" in html and "label-4x6.pdf" in html
    [message] = [m for m in smtp_server.messages if ADDRESS_LINK.search(text_of(m))]
    assert message["To"] == "jane@example.com"
    assert "99 OTHER RD, RENO, NV 89501" in text_of(message)
    assert parcel["tracking_code"] not in message.as_string()
    assert "label-" not in text_of(message)
    # Guessing the link gets the one refusal; the status token is no key to it either.
    assert client.get(f"/status/address/{'A' * 43}").status_code == 404
    assert client.get(f"/status/address/{token}").status_code == 404


def test_the_sellers_confirmation_replaces_the_parcel_once(mailin_app, easypost, smtp_server):
    lead_id, token, parcel = labelled(mailin_app)
    client = mailin_app.test_client()
    path = change_link(mailin_app, smtp_server, token)
    seller, page, token_of_page = open_link(mailin_app, path)
    assert "99 OTHER RD, RENO, NV 89501" in page and "Yes, use this address" in page
    with mailin_app.app_context():
        assert labels.get(parcel["id"])["state"] == "label_ready"  # opening changes nothing
    answer = seller.post(path, data={"csrf_token": token_of_page})
    assert answer.status_code == 303 and answer.headers["Location"] == "/status/address-confirmed"
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        old = labels.get(parcel["id"])
        record = preparation.get(lead_id, preparation.deal_of(history.lead_events(lead_id)))
        new = labels.get(record["shipment_id"])
    assert old["state"] == "voided" and new["id"] != old["id"]
    assert new["state"] == "label_ready" and new["from_address_id"] == record["address_id"]
    assert record["address"]["city"] == "RENO" and new["insured_value"] == old["insured_value"]
    assert [r["action"] for r in easypost.requests].count("refund") == 1
    assert easypost.bought() == 2
    assert seller.post(path, data={"csrf_token": token_of_page}).status_code == 404  # once
    html = client.get(f"/status/{token}").get_data(as_text=True)
    assert new["tracking_code"] in html and old["tracking_code"] not in html


def test_a_replaced_labels_refund_the_provider_refuses_is_put_before_staff(
    mailin_app, easypost, smtp_server
):
    mailin_app.config["STAFF_EMAIL"] = "staff@example.com"
    lead_id, token, parcel = labelled(mailin_app)
    path = change_link(mailin_app, smtp_server, token)
    seller, _, token_of_page = open_link(mailin_app, path)
    easypost.plan("refund", 500)
    assert seller.post(path, data={"csrf_token": token_of_page}).status_code == 303
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        assert labels.get(parcel["id"])["state"] == "voided"  # void on our side whatever
        raised = [e for e in history.lead_events(lead_id) if e["kind"] == "shipment_attention"]
    assert [e["data"]["reason"] for e in raised] == ["refund_failed"]
    [alert] = [m for m in smtp_server.messages if "postage was not refunded" in m["Subject"]]
    assert alert["To"] == "staff@example.com"
    assert "ask for the refund on the provider's dashboard" in alert.get_content()
    assert parcel["tracking_code"] not in alert.as_string()


def test_a_change_link_works_as_soon_as_its_email_arrives_before_the_worker_notes_it_sent(
    mailin_app, easypost, smtp_server, monkeypatch
):
    # The seller opens the e-mail before the worker has noted it sent (or noting it failed).
    monkeypatch.setattr(address_change, "mark_link_sent", lambda change_id: None)
    _, token, parcel = labelled(mailin_app)
    path = change_link(mailin_app, smtp_server, token)
    seller, page, token_of_page = open_link(mailin_app, path)
    assert "Yes, use this address" in page
    assert seller.post(path, data={"csrf_token": token_of_page}).status_code == 303
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        assert labels.get(parcel["id"])["state"] == "voided"


def test_while_the_quote_stands_the_parcel_is_one_box_with_its_steps_and_number(
    mailin_app, easypost
):
    _, token, parcel = labelled(mailin_app)
    with mailin_app.app_context(), transaction() as db:
        db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (parcel["id"],))
    html = mailin_app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert len(re.findall(r"\bdata-parcel>", html)) == 1
    assert "On its way to us" in current_parcel_step(html)
    assert html.count('data-parcel-step="done"') == 1
    assert parcel["tracking_code"] in html and "data-parcel-words" in html


def test_once_the_carrier_has_the_parcel_no_change_is_taken(mailin_app, easypost, smtp_server):
    _, token, parcel = labelled(mailin_app)
    with mailin_app.app_context(), transaction() as db:
        db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (parcel["id"],))
    client = mailin_app.test_client()
    post_address(client, token, {"street1": "99 Other Rd"})
    assert notice(client, token).startswith("The carrier already has your parcel")
    lead_work_done(mailin_app)
    assert not [m for m in smtp_server.messages if ADDRESS_LINK.search(text_of(m))]


def test_a_change_link_stops_working_once_the_parcel_is_scanned(mailin_app, smtp_server):
    _, token, parcel = labelled(mailin_app)
    client = mailin_app.test_client()
    post_address(client, token, {"street1": "99 Other Rd"})
    lead_work_done(mailin_app)
    [message] = [m for m in smtp_server.messages if ADDRESS_LINK.search(text_of(m))]
    path = ADDRESS_LINK.search(text_of(message)).group(1)
    with mailin_app.app_context(), transaction() as db:
        db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (parcel["id"],))
    assert "This link cannot be used" in client.get(path).get_data(as_text=True)


def test_erasing_the_lead_removes_its_addresses_and_id_photos(mailin_app, smtp_server):
    lead_id, token, _ = labelled(mailin_app)
    post_address(mailin_app.test_client(), token, {"street1": "99 Other Rd"})
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        from app.leads.db import get_db
        from app.sale import erasure, lifecycle
        from app.sale.purchase import files

        names = [row["file_name"] for row in files.files_of(lead_id, files.ID_PHOTOS)]
        lifecycle.transition(
            lead_id, "closed", "staff:1", {"reason": "seller_declined"}, "accepted"
        )
        db = get_db()  # its label unused, voided by the reconciler: the watch never left
        db.execute("UPDATE shipments SET state = 'voided' WHERE lead_id = ?", (lead_id,))
        db.commit()
        erasure.erase(lead_id, "staff:1")
        db = get_db()
        for table in ("mail_preparations", "address_changes", "purchase_files"):
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
        assert not [name for name in names if (files.files_dir() / name).exists()]
        assert db.execute("SELECT count(*) FROM shipments").fetchone()[0] == 1  # the insurer's


def test_while_the_label_is_being_bought_the_address_waits(mailin_app, easypost):
    lead_id, token = mail_deal(mailin_app)
    all_given(mailin_app, token)
    with mailin_app.app_context():
        shipment_id = verify_id(lead_id)
    client = mailin_app.test_client()
    post_address(client, token, {"street1": "99 Other Rd"})
    assert notice(client, token).startswith("We are buying your label now.")
    with mailin_app.app_context():
        assert labels.get(shipment_id)["state"] == "created"
        assert not [r for r in easypost.requests if r["action"] in ("create", "buy")]
