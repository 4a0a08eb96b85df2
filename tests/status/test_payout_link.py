"""The payout account confirmed from the seller's mailbox (F1: a forwarded status link could
have the payment sent to its holder's own account). Signing e-mails the address on file the
account's last 4 digits and a one-time link; only that link confirms it, or says "this wasn't
me", which voids the paperwork, switches every status link off and alerts staff. Every link
that cannot be used gets one refusal, the same byte for byte, naming nothing."""

from __future__ import annotations

import re

import pytest

from app.leads import links
from app.leads.db import transaction
from app.sale import lifecycle
from app.sale.purchase import files, payout, record
from tests.data.paperwork import ACCOUNT, SECRETS, agreed_lead, page_csrf, post_paperwork
from tests.helpers import CLEAR_CHECK, PAYMENT, business_today, lead_work_done

SITE = "https://watches.example"
PAYOUT_LINK = re.compile(re.escape(SITE) + r"(/status/payout/[A-Za-z0-9_-]+)")
REFUSAL = "This link cannot be used"


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def signed(app, smtp_server) -> tuple[int, str, str]:
    """A lead whose seller signed the paperwork on the status page; (lead id, status token, the
    path of the payout link e-mailed to the address on file)."""
    lead_id, token = agreed_lead(app)
    assert post_paperwork(app.test_client(), token).status_code == 303
    lead_work_done(app)
    [message] = [m for m in smtp_server.messages if PAYOUT_LINK.search(text_of(m))]
    assert message["To"] == "jane@example.com"
    assert f"ending {ACCOUNT[-4:]}" in text_of(message)
    assert not [secret for secret in SECRETS if secret in message.as_string()]
    return lead_id, token, PAYOUT_LINK.search(text_of(message)).group(1)


def press(client, path: str, said: str, page: str | None = None):
    """Press one of the link page's buttons, as the seller does, with the CSRF token of the
    page at `page` (by default the link's own)."""
    token = page_csrf(client, page or path)
    return client.post(path, data={"csrf_token": token, "answer": said})


def try_to_buy(app, lead_id: int):
    """The `bought` move with every other item on record."""
    checked = {"id_verified_by": "staff:1", "id_verified_at": "2026-11-20T16:00:00+00:00"}
    with app.app_context():
        record.record(lead_id, "staff:1", "checked", checked | CLEAR_CHECK, {})
        data = {"amount": 7400, "paid_on": business_today().isoformat()} | PAYMENT
        return lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")


def test_bought_waits_until_the_seller_confirms_the_account_from_their_mailbox(
    mail_app, smtp_server
):
    lead_id, token, path = signed(mail_app, smtp_server)
    with pytest.raises(lifecycle.MissingDetails, match="confirmation of the payout account"):
        try_to_buy(mail_app, lead_id)
    client = mail_app.test_client()
    page = client.get(path)
    assert page.status_code == 200 and f"data-account-last4>{ACCOUNT[-4:]}<" in page.text
    assert ACCOUNT not in page.text and page.headers["Referrer-Policy"] == "no-referrer"
    assert press(client, path, "confirm").headers["Location"] == "/status/payout-confirmed"
    with mail_app.app_context():
        assert record.get(lead_id)["payout_confirmed_by"] == "seller"
    try_to_buy(mail_app, lead_id)
    lead_work_done(mail_app)  # the documents and the "paid" e-mail
    with mail_app.app_context():
        assert record.get(lead_id)["paid_amount"] == 7400


def test_the_link_works_as_soon_as_its_email_arrives_before_the_worker_notes_it_sent(
    mail_app, smtp_server, monkeypatch
):
    # The seller opens the e-mail before the worker has noted it sent (or noting it failed).
    monkeypatch.setattr(payout, "mark_link_sent", lambda check_id: None)
    lead_id, _, path = signed(mail_app, smtp_server)
    client = mail_app.test_client()
    assert f"data-account-last4>{ACCOUNT[-4:]}<" in client.get(path).text
    assert press(client, path, "confirm").headers["Location"] == "/status/payout-confirmed"
    with mail_app.app_context():
        assert record.get(lead_id)["payout_confirmed_by"] == "seller"


def test_a_used_altered_or_status_link_gets_one_refusal_and_changes_nothing(mail_app, smtp_server):
    lead_id, token, path = signed(mail_app, smtp_server)
    client = mail_app.test_client()
    refusals = [
        client.get(f"/status/payout/{token}"),  # the status link is not the payout link
        client.get(path[:-1] + ("A" if path[-1] != "A" else "B")),
        client.get("/status/payout/short"),
        press(client, path.replace(path[-5:], "xxxxx"), "confirm", page=path),
    ]
    assert {response.status_code for response in refusals} == {404}
    assert len({response.data for response in refusals}) == 1
    assert REFUSAL in refusals[0].text and "ending" not in refusals[0].text
    with mail_app.app_context():
        assert record.get(lead_id)["payout_confirmed_at"] is None
    press(client, path, "confirm")
    again = press(client, path, "deny", page="/status")  # used: no second answer
    assert again.status_code == 404 and again.data == refusals[0].data
    with mail_app.app_context():
        assert record.get(lead_id)["signed_at"] is not None


def test_this_wasnt_me_voids_the_paperwork_switches_the_links_off_and_alerts_staff(
    make_app, mail_settings, smtp_server
):
    mail_app = make_app(**mail_settings, STAFF_EMAIL="buyers@watches.example")
    lead_id, token, path = signed(mail_app, smtp_server)
    client = mail_app.test_client()
    assert press(client, path, "deny").headers["Location"] == "/status/payout-refused"
    assert "switched off every link" in client.get("/status/payout-refused").text
    assert client.get(f"/status/{token}").status_code == 404  # the forwarded link is dead
    lead_work_done(mail_app)
    with mail_app.app_context():
        kept = record.get(lead_id)
        assert kept["signed_at"] is None and kept["account_number_enc"] is None
        assert files.files_of(lead_id, files.ID_PHOTOS) == []
        assert links.working_link_count(lead_id) == 0
        assert lifecycle.store.get_lead(lead_id)["state"] == "agreed"  # back to the paperwork
    alerts = [m["Subject"] for m in smtp_server.messages if m["To"] == "buyers@watches.example"]
    assert any("“this wasn't me”" in subject for subject in alerts)


def test_this_wasnt_me_on_a_sale_whose_watch_is_flagged_keeps_the_paperwork_as_evidence(
    make_app, mail_settings, smtp_server
):
    mail_app = make_app(**mail_settings, STAFF_EMAIL="buyers@watches.example")
    lead_id, token, path = signed(mail_app, smtp_server)
    with mail_app.app_context(), transaction() as db:  # the register reports the watch
        db.execute("UPDATE purchases SET register_result = 'flagged' WHERE lead_id = ?", (lead_id,))
        photos = sorted(row["id"] for row in files.files_of(lead_id, files.ID_PHOTOS))
    client = mail_app.test_client()
    assert press(client, path, "deny").headers["Location"] == "/status/payout-refused"
    assert client.get(f"/status/{token}").status_code == 404  # the links go all the same
    lead_work_done(mail_app)
    with mail_app.app_context():
        kept = record.get(lead_id)
        assert kept["signed_at"] and kept["legal_name"] and kept["account_number_enc"]
        assert sorted(row["id"] for row in files.files_of(lead_id, files.ID_PHOTOS)) == photos
        assert photos and kept["payout_confirmed_at"] is None
    alerts = [m["Subject"] for m in smtp_server.messages if m["To"] == "buyers@watches.example"]
    assert any("“this wasn't me”" in subject for subject in alerts)


def test_a_signature_with_another_account_needs_a_new_confirmation(mail_app, smtp_server):
    lead_id, token, first = signed(mail_app, smtp_server)
    client = mail_app.test_client()
    press(client, first, "deny")
    with mail_app.app_context():
        fresh = links.issue_status_link(lead_id).rsplit("/", 1)[1]
    smtp_server.messages.clear()
    assert post_paperwork(client, fresh).status_code == 303
    lead_work_done(mail_app)
    [message] = [m for m in smtp_server.messages if PAYOUT_LINK.search(text_of(m))]
    second = PAYOUT_LINK.search(text_of(message)).group(1)
    assert second != first and client.get(first).status_code == 404
    assert client.get(second).status_code == 200
