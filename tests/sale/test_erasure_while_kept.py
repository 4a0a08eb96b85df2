"""A held watch keeps its evidence (app/sale/keeping.py): while a watch travels to us, is with
us, is held or travels back, while a register check of it stands flagged or a question about it
is open, no erasure runs, by the seller, by staff or by the daily retention, and closing a
flagged sale keeps its paperwork. The seller asking is refused in one sentence whatever the
reason, and never offered a deletion their page would not offer for a clear watch: nothing tells
a thief of a flag. A restore's re-erasure of a lead erased before is never stopped."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest

from app.leads import store
from app.leads.db import get_db, transaction
from app.leads.state import State
from app.sale import erasure, lifecycle, pending
from app.sale.lifecycle import IllegalMove
from app.sale.purchase import files, record
from app.shipping import labels, tracking
from app.status import messages
from tests.helpers import (
    backdate_activity,
    give_token,
    lead_work_done,
    put_purchase_on_record,
    save_sample_lead,
)
from tests.shipping.deal_steps import mail_deal, move
from tests.shipping.fake_easypost import easypost, easypost_server  # noqa: F401 (fixtures)
from tests.shipping.steps import mailin_settings
from worker import jobs

QUOTE = {"amount_low": 8000, "amount_high": 9000, "valid_until": "2099-12-01"}


@pytest.fixture
def kept_app(make_app, easypost, mail_settings):  # noqa: F811 (the fixture)
    """Selling by mail through the fake, e-mail to the loopback SMTP server."""
    return make_app(**mailin_settings(easypost), **mail_settings)


def accepted(app, **lead) -> int:
    """A lead in person whose seller accepted the quote; its id."""
    lead_id = save_sample_lead(app, **lead)
    with app.app_context():
        lifecycle.transition(lead_id, State.QUOTED, "staff:1", QUOTE, State.NEW)
        lifecycle.transition(lead_id, State.ACCEPTED, "seller", {}, State.QUOTED)
    lead_work_done(app)
    return lead_id


def withdraw(client, token: str, erase: bool = True):
    page = client.get(f"/status/{token}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    data = {"csrf_token": csrf, "confirm": "yes"} | ({"erase": "yes"} if erase else {})
    return client.post(f"/status/{token}/withdraw", data=data)


def withdraw_section(client, token: str) -> str:
    """The status page's withdrawal form, the link's token and the CSRF token taken out."""
    page = client.get(f"/status/{token}").get_data(as_text=True)
    section = re.search(r"<details[^>]*>\s*<summary[^>]*>Withdraw.*?</details>", page, re.S)
    return unescape(re.sub(r'value="[^"]+"', "", section.group(0).replace(token, "TOKEN")))


def notice(client, token: str) -> str:
    page = client.get(f"/status/{token}").get_data(as_text=True)
    return unescape(re.search(r"data-notice>(.*?)<", page, re.S).group(1))


def requests_of(app, lead_id: int) -> int:
    with app.app_context():
        return (
            get_db()
            .execute("SELECT count(*) FROM erasure_requests WHERE lead_id = ?", (lead_id,))
            .fetchone()[0]
        )


def flag(app, lead_id: int) -> None:
    """A register check of the lead's watch stands flagged."""
    with app.app_context(), transaction() as db:
        db.execute(
            "INSERT INTO purchases (lead_id, register_result, register_serial) "
            "VALUES (?, 'flagged', '7Z41K9Q2') ON CONFLICT (lead_id) "
            "DO UPDATE SET register_result = 'flagged'",
            (lead_id,),
        )


# The seller asking


@pytest.mark.parametrize("parcel", ["label_ready", "in_transit", "delivered"])
def test_a_seller_whose_watch_may_be_on_its_way_or_with_us_cannot_have_it_erased(kept_app, parcel):
    shipment = mail_deal(kept_app)
    move(kept_app, shipment, *{"label_ready": (), "in_transit": ("in_transit",),
                               "delivered": ("in_transit", "delivered")}[parcel])  # fmt: skip
    lead_id = shipment["lead_id"]
    token, client = give_token(kept_app, lead_id), kept_app.test_client()
    section = withdraw_section(client, token)
    assert 'name="erase"' not in section and messages.DETAILS_KEPT in section
    assert withdraw(client, token).status_code == 303
    assert notice(client, token) == messages.ERASE_NOT_NOW
    with kept_app.app_context():
        assert store.get_lead(lead_id)["state"] == State.ACCEPTED  # nothing was changed
    assert requests_of(kept_app, lead_id) == 0


def test_a_flag_on_the_sellers_serial_reads_exactly_as_a_clear_one_when_asking_to_erase(app):
    clear, flagged = accepted(app), accepted(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET sellers_serial = '7Z41K9Q2' WHERE id IN (?, ?)",
                   (clear, flagged))  # fmt: skip
    flag(app, flagged)
    client = app.test_client()
    tokens = {lead_id: give_token(app, lead_id) for lead_id in (clear, flagged)}
    sections = {lead_id: withdraw_section(client, token) for lead_id, token in tokens.items()}
    assert sections[clear] == sections[flagged] and 'name="erase"' not in sections[clear]
    refused = set()
    for token in tokens.values():
        assert withdraw(client, token).status_code == 303
        refused.add(notice(client, token))
    assert refused == {messages.ERASE_NOT_NOW}
    assert requests_of(app, clear) == requests_of(app, flagged) == 0


def test_a_seller_with_nothing_under_way_may_still_ask(app):
    lead_id = accepted(app)
    token, client = give_token(app, lead_id), app.test_client()
    assert 'name="erase"' in withdraw_section(client, token)
    assert withdraw(client, token).status_code == 303
    assert requests_of(app, lead_id) == 1


def test_a_confirmed_request_waits_while_the_lead_is_kept_and_is_done_once_it_is_not(
    mail_app, smtp_server
):
    lead_id = save_sample_lead(mail_app)
    with mail_app.app_context():
        closed = lifecycle.transition(lead_id, State.CLOSED, "seller",
                                      {"reason": "withdrawn"}, State.NEW)  # fmt: skip
        request_id = erasure.ask_seller_to_confirm(lead_id, closed)
        with transaction() as db:
            db.execute("UPDATE erasure_requests SET sent_at = 'x', confirmed_at = 'x' "
                       "WHERE id = ?", (request_id,))  # fmt: skip
    lead_work_done(mail_app)
    flag(mail_app, lead_id)  # (a lead reopened since its findings, say)
    smtp_server.messages.clear()
    with mail_app.app_context():
        assert jobs.erase_at_sellers_request(lead_id).startswith("kept while its stolen-watch")
        assert store.get_lead(lead_id)["erased_at"] is None
        assert lead_id not in pending.requeue_all().erasures
    assert smtp_server.messages == []  # no "we deleted your details" that did not happen
    with mail_app.app_context(), transaction() as db:
        db.execute("UPDATE purchases SET register_result = 'clear' WHERE lead_id = ?", (lead_id,))
    with mail_app.app_context():
        assert pending.requeue_all().erasures == [lead_id]
    lead_work_done(mail_app)
    with mail_app.app_context():
        assert store.get_lead(lead_id)["erased_at"]


# Staff and the daily retention


def closed_with_us(app, parcel_state: str = "delivered") -> dict:
    """A sale by mail the seller withdrew from, its watch with us (or as `parcel_state` says);
    the inbound parcel."""
    shipment = mail_deal(app)
    move(app, shipment, *("in_transit", "delivered")[: 2 if parcel_state == "delivered" else 1])
    with app.app_context():
        lifecycle.transition(shipment["lead_id"], State.CLOSED, "seller",
                             {"reason": "withdrawn"}, State.ACCEPTED)  # fmt: skip
    lead_work_done(app)
    return shipment


@pytest.mark.parametrize(
    ("kept", "words"),
    [
        ("in_transit", "its watch is on its way to us"),
        ("delivered", "its watch is with us"),
        ("held", "its watch is held"),
        ("travels_back", "its watch is on its way back to its seller"),
    ],
)
def test_staff_cannot_erase_a_closed_lead_whose_watch_is_not_back_with_its_seller(
    kept_app, kept, words
):
    shipment = closed_with_us(kept_app, "in_transit" if kept == "in_transit" else "delivered")
    lead_id = shipment["lead_id"]
    with kept_app.app_context(), transaction() as db:
        if kept == "held":
            db.execute("UPDATE shipments SET return_held_at = 'x' WHERE id = ?", (shipment["id"],))
        if kept == "travels_back":
            back = labels.open_shipment(lead_id, "return", shipment["deal_event_id"], 10500,
                                        "adr_seller_1")  # fmt: skip
            db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (back,))
    with kept_app.app_context():
        with pytest.raises(IllegalMove, match=words):
            erasure.erase(lead_id, "staff:1")
        assert store.get_lead(lead_id)["full_name"] == "Jane Doe"


def test_staff_erase_once_the_return_is_delivered(kept_app):
    shipment = closed_with_us(kept_app)
    lead_id = shipment["lead_id"]
    with kept_app.app_context():
        back = labels.open_shipment(lead_id, "return", shipment["deal_event_id"], 10500,
                                    "adr_seller_1")  # fmt: skip
        with transaction() as db:
            tracking.apply_status(db, labels.get(back), "delivered")
        erasure.erase(lead_id, "staff:1")
        assert store.get_lead(lead_id)["erased_at"]


@pytest.mark.parametrize("why", ["flagged", "question open"])
def test_a_flag_or_an_open_question_keeps_a_closed_lead_from_staff_erasure(app, why):
    lead_id = save_sample_lead(app)
    with app.app_context():
        lifecycle.transition(lead_id, State.CLOSED, "staff:1", {"reason": "not_a_fit"}, "new")
    if why == "flagged":
        flag(app, lead_id)
    with app.app_context():
        if why == "question open":
            with transaction() as db:
                db.execute("INSERT INTO register_asks (lead_id, serial_number, reason, "
                           "asked_at) VALUES (?, '7Z41K9Q2', 'sellers_serial', 'x')",
                           (lead_id,))  # fmt: skip
        with pytest.raises(IllegalMove, match="register"):
            erasure.erase(lead_id, "staff:1")


def test_the_daily_retention_erases_nothing_kept(app):
    open_flagged, held = save_sample_lead(app), save_sample_lead(app)
    flag(app, open_flagged)
    flag(app, held)
    with app.app_context():
        lifecycle.transition(held, State.CLOSED, "staff:1", {"reason": "not_a_fit"}, "new")
    for lead_id in (open_flagged, held):
        backdate_activity(app, lead_id, timedelta(days=-1))
    with app.app_context():
        assert "leads 0" in jobs.apply_retention()
    with app.app_context():
        assert store.get_lead(open_flagged)["state"] == State.NEW  # not even closed
        assert not store.get_lead(open_flagged)["erased_at"]
        assert not store.get_lead(held)["erased_at"]


def test_closing_a_flagged_sale_keeps_its_paperwork_and_id_photos(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            photos = [files.add_file(db, lead_id, kind, b"id", "image/jpeg")
                      for kind in files.ID_PHOTOS]  # fmt: skip
    flag(app, lead_id)
    with app.app_context():
        lifecycle.transition(lead_id, State.CLOSED, "seller", {"reason": "withdrawn"}, "agreed")
        kept = record.get(lead_id)
        assert kept["legal_name"] == "Jordan A. Avery" and kept["signed_at"]
        kept_photos = files.files_of(lead_id, files.ID_PHOTOS)
        assert sorted(row["id"] for row in kept_photos) == sorted(row["id"] for row in photos)


def test_a_restore_erases_again_a_lead_erased_before_whatever_keeps_it_now(app):
    lead_id = save_sample_lead(app)
    flag(app, lead_id)
    with app.app_context():
        erasure.close_and_erase(lead_id, State.NEW, "withdrawn", erasure.RESTORE)
        assert store.get_lead(lead_id)["erased_at"]
