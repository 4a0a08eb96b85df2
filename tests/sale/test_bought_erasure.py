"""A seller's erasure after the sale, end to end on real SQLite, SMTP and files: asked
for on the status page of the bought lead, confirmed from the link e-mailed to the address on
file, announced by a last e-mail that says what is kept and until when, and then everything the
law does not require is gone (from leads.db, its WAL and the storage folder) while the purchase
record, its documents and the transaction register's row stay."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from werkzeug.datastructures import MultiDict

from app.leads import history, links, storage, store
from app.leads.db import get_db, now, transaction
from app.leads.reference import new_status_token
from app.rendering.dates import display_date
from app.sale import erasure, lifecycle
from app.sale.purchase import files, record, register
from app.security.tokens import digest
from app.status import messages
from tests.data.paperwork import (
    ACCOUNT,
    BIRTH_DATE,
    ID_NUMBER,
    OFFER,
    ROUTING,
    SERIAL,
    agreed_lead,
    page_csrf,
    post_paperwork,
)
from tests.helpers import (
    CLEAR_CHECK,
    PAYMENT,
    business_today,
    lead_work_done,
    photo,
    post,
    post_multipart,
)

SITE = "https://watches.example"
ERASURE_LINK = re.compile(re.escape(SITE) + r"(/status/erasure/[A-Za-z0-9_-]+)")
EMAIL, PHONE, DETAILS = "jane@example.com", "(212) 555-0100", "Serviced in 2023."  # sample_lead's
# What the purchase record keeps until retain_until: every personal field the retention blanks
# then, but the bank numbers (and the register's certificate, which these tests do not file, and
# a call-back's number: this seller confirms the account by e-mail), with the watch, the payment
# and the signature record.
BANK_NUMBERS = ("routing_number_enc", "account_number_enc")
KEPT = tuple(
    field
    for field in record.PERSONAL_FIELDS
    if field not in (*BANK_NUMBERS, "register_certificate", "payout_callback_phone")
) + (
    "serial_number",
    "register_result",
    "paid_amount",
    "paid_on",
    "declaration_sha256",
    "signed_at",
)


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def page_text(response) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def sold(client) -> tuple[int, str]:
    """A lead taken to an accepted final offer, two watch photos added at its appointment and
    the paperwork signed with both ID photos on its status page, checked by staff and bought
    (the real move and every job it queues); (lead id, the seller's status token)."""
    app = client.application

    def add_photos(_lead_id: int, token: str) -> None:
        """Before the authentication, as a seller can."""
        form = MultiDict({"csrf_token": page_csrf(client, f"/status/{token}")})
        photos = [photo(), photo("side.jpg")]
        assert post_multipart(client, f"/status/{token}/photos", form, photos).status_code == 303

    lead_id, token = agreed_lead(app, at_appointment=add_photos)
    assert post_paperwork(client, token).status_code == 303
    checked = {"id_verified_by": "staff:1", "id_verified_at": now()} | CLEAR_CHECK
    checked |= {"payout_confirmed_at": now(), "payout_confirmed_by": "seller"}
    with app.app_context():
        with transaction() as db:
            record.update(db, lead_id, checked)
        paid = {"amount": OFFER["amount"], "paid_on": business_today().isoformat()} | PAYMENT
        lifecycle.transition(lead_id, "bought", "staff:1", paid, "agreed")
    lead_work_done(app)
    return lead_id, token


def ask(client, token: str, **form):
    data = {"csrf_token": page_csrf(client, f"/status/{token}"), **form}
    return client.post(f"/status/{token}/erase", data=data)


def kept_until(app, lead_id: int) -> str:
    with app.app_context():
        return display_date(record.get(lead_id)["retain_until"])


def mails_to(smtp_server, subject: str) -> list:
    return [m for m in smtp_server.messages if subject in str(m["Subject"])]


def leads_db_bytes(app) -> bytes:
    return b"".join(p.read_bytes() for p in Path(app.config["LEADS_DB"]).parent.glob("leads.db*"))


def test_a_seller_has_their_details_erased_after_the_sale_and_the_purchase_record_stays(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    lead_id, token = sold(client)
    with mail_app.app_context():
        signed = {key: record.get(lead_id)[key] for key in KEPT}
        photo_files = [*storage.photos_dir().glob("*")]
    assert all(signed.values()) and len(photo_files) == 4  # two photos, each with a thumbnail
    until = kept_until(mail_app, lead_id)
    assert until == display_date(f"{business_today().year + 7}{business_today().isoformat()[4:]}")

    shown = page_text(client.get(f"/status/{token}"))
    assert "Delete my details" in shown
    assert "You can ask us to delete your e-mail address and phone number" in shown
    assert f"with the bill of sale and the receipt, until {until}" in shown

    smtp_server.messages.clear()
    answer = ask(client, token, confirm="yes")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/status/{token}"
    assert messages.SALE_ERASURE_LINK_SENT in page_text(client.get(f"/status/{token}"))
    lead_work_done(mail_app)
    [link_mail] = mails_to(smtp_server, "Confirm: delete your details")
    assert link_mail["To"] == EMAIL
    asked = " ".join(text_of(link_mail).split())
    assert "You asked us to delete your details after selling us your Rolex Submariner." in asked
    assert f"until {until}; then we delete them too." in asked
    path = ERASURE_LINK.search(text_of(link_mail)).group(1)

    browser = mail_app.test_client()  # the e-mail opened elsewhere
    confirmation = page_text(browser.get(path))
    assert "after selling us your Rolex Submariner" in confirmation
    assert f"until {until}" in confirmation
    assert store_lead(mail_app, lead_id)["erased_at"] is None  # opening the link does nothing
    done = browser.post(path, data={"csrf_token": page_csrf(browser, path)})
    assert done.status_code == 303 and done.headers["Location"] == "/status/erased"
    lead_work_done(mail_app)

    [last] = mails_to(smtp_server, "We are deleting your details")
    assert last["To"] == EMAIL
    said = " ".join(text_of(last).split())
    assert (
        "we are deleting your e-mail address and phone number, your messages, the photos of "
        in said
    )
    assert "your bank details and your status page now." in said
    assert "keep the record of the purchase (your name, address and date of birth" in said
    assert f"with the bill of sale and the receipt, until {until}; then we delete them too." in said
    for secret in (ID_NUMBER, BIRTH_DATE, ROUTING, ACCOUNT):
        assert secret not in last.as_string()

    lead = store_lead(mail_app, lead_id)
    assert lead["erased_at"] and lead["state"] == "bought"
    assert lead["email"] == lead["phone"] == lead["full_name"] == lead["additional_details"] == ""
    assert lead["client_ip"] is None and lead["user_agent"] is None
    assert lead["reference"].startswith("USWB-") and lead["watch_brand"] == "Rolex"
    with mail_app.app_context():
        purchase = record.get(lead_id)
        assert store.lead_photos(lead_id) == []
        assert [*storage.incoming_dir().glob("*"), *storage.photos_dir().glob("*")] == []
        assert files.files_of(lead_id, files.ID_PHOTOS) == []
        documents = files.files_of(lead_id, files.DOCUMENTS)
        assert [row["kind"] for row in documents] == ["bill_of_sale", "receipt"]
        assert all(files.read(row).startswith(b"%PDF-") for row in documents)
        assert sorted(p.name for p in files.files_dir().glob("*")) == sorted(
            row["file_name"] for row in documents
        )
        assert record.opened(purchase, "id_number_enc") == ID_NUMBER
        assert record.opened(purchase, "birth_date_enc") == BIRTH_DATE
        kinds = [event["kind"] for event in history.lead_events(lead_id)]
        rows = register.purchases_paid(business_today(), business_today())
    assert {key: purchase[key] for key in KEPT} == signed
    assert [purchase[key] for key in BANK_NUMBERS] == [None, None]
    assert purchase["payout_erased_at"] and purchase["record_erased_at"] is None
    assert kinds[-2:] == ["payout_details_erased", "erased"]

    [row] = rows
    assert (row["reference"], row["legal_name"]) == (lead["reference"], "Jordan A. Avery")
    assert (row["id_number"], row["birth_date"]) == (ID_NUMBER, BIRTH_DATE)
    assert (row["watch_brand"], row["serial_number"]) == ("Rolex", SERIAL)
    assert row["paid_amount"] == OFFER["amount"]
    assert row["purchased_at"]

    assert client.get(f"/status/{token}").status_code == 404
    assert browser.get(path).status_code == 404
    on_disk = leads_db_bytes(mail_app)
    for erased in (EMAIL, PHONE, DETAILS, "203.0.113.9"):
        assert erased.encode() not in on_disk, erased


def store_lead(app, lead_id: int) -> dict:
    with app.app_context():
        return store.get_lead(lead_id)


def test_asking_needs_the_box_ticked_and_a_bought_lead_and_records_nothing_otherwise(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    lead_id, token = sold(client)
    smtp_server.messages.clear()
    unticked = ask(client, token)
    assert unticked.status_code == 303
    assert messages.TICK_TO_DELETE in page_text(client.get(f"/status/{token}"))
    forged = client.post(f"/status/{token}/erase", data={"confirm": "yes"})
    assert forged.status_code == 303
    assert messages.OUT_OF_DATE in page_text(client.get(f"/status/{token}"))
    with mail_app.app_context(), transaction() as db:
        assert db.execute("SELECT count(*) FROM erasure_requests").fetchone()[0] == 0
        db.execute("UPDATE leads SET state = 'agreed' WHERE id = ?", (lead_id,))
    not_bought = ask(client, token, confirm="yes")
    assert not_bought.status_code == 303
    assert messages.NOT_NOW in page_text(client.get(f"/status/{token}"))
    unknown = client.post(
        f"/status/{new_status_token()}/erase",
        data={"csrf_token": page_csrf(client, f"/status/{token}"), "confirm": "yes"},
    )
    assert unknown.status_code == 404 and "USWB-" not in unknown.get_data(as_text=True)
    lead_work_done(mail_app)
    with mail_app.app_context():
        assert erasure.links_to_send() == []
        assert store.get_lead(lead_id)["erased_at"] is None
    assert smtp_server.messages == []


def test_the_status_page_offers_erasure_after_the_sale_only(mail_app, smtp_server):
    client = mail_app.test_client()
    _, token = sold(client)
    assert "data-delete-after-sale" in client.get(f"/status/{token}").get_data(as_text=True)
    assert post(client, {"email": "other@example.com"}).status_code == 303
    lead_work_done(mail_app)
    other = new_status_token()
    with mail_app.app_context():
        links.add_status_link(2, digest(other))
    page = client.get(f"/status/{other}").get_data(as_text=True)
    assert "data-delete-after-sale" not in page and "Withdraw your watch" in page


UNDER_WAY = "You have confirmed the deletion of your details: it is under way"


def test_once_the_erasure_is_confirmed_no_other_link_is_sent_however_often_it_is_asked(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    lead_id, token = sold(client)
    smtp_server.messages.clear()
    ask(client, token, confirm="yes")
    lead_work_done(mail_app)
    [link_mail] = mails_to(smtp_server, "Confirm: delete your details")
    path = ERASURE_LINK.search(text_of(link_mail)).group(1)
    mail_server, mail_app.config["SMTP_HOST"] = mail_app.config["SMTP_HOST"], ""  # down
    opened_before = page_csrf(client, f"/status/{token}")
    ask(client, token, confirm="yes")  # asked again before confirming: its link waits
    browser = mail_app.test_client()
    assert browser.post(path, data={"csrf_token": page_csrf(browser, path)}).status_code == 303
    lead_work_done(mail_app)
    assert store_lead(mail_app, lead_id)["erased_at"] is None  # the last e-mail waits too

    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert UNDER_WAY in page_text(client.get(f"/status/{token}"))
    assert "data-delete-after-sale" not in page
    again = {"csrf_token": opened_before, "confirm": "yes"}  # and again, from that page
    assert client.post(f"/status/{token}/erase", data=again).status_code == 303
    assert UNDER_WAY in page_text(client.get(f"/status/{token}"))
    with mail_app.app_context():  # no request made of it
        assert get_db().execute("SELECT count(*) FROM erasure_requests").fetchone()[0] == 2
    mail_app.config["SMTP_HOST"] = mail_server  # back
    requeued = mail_app.test_cli_runner().invoke(args=["leads", "requeue"])
    lead_work_done(mail_app)

    assert "erasure confirmation link" not in requeued.output
    assert f"Queued the confirmed erasure of lead #{lead_id}." in requeued.output
    assert mails_to(smtp_server, "Confirm: delete your details") == [link_mail]
    assert len(mails_to(smtp_server, "We are deleting your details")) == 1
    assert store_lead(mail_app, lead_id)["erased_at"]
