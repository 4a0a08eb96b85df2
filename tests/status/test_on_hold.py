"""A sale on hold: a lead whose stolen-watch register check stands flagged, or a closed sale by
mail whose watch is held from its return. Its status page says only that the sale is on hold
pending checks (no "closed... call us" above it), and neither the page nor any e-mail such a
lead can receive says "stolen", "flagged", "register" or "police"."""

from __future__ import annotations

import re

import pytest

from app.leads import store
from app.leads.db import transaction
from app.leads.state import State
from app.shipping import returns
from tests.data.paperwork import APPOINTMENT
from tests.helpers import give_token
from tests.shipping.return_steps import mail_deal as deal_at_the_offer
from tests.status.mail_steps import mail_deal, quote
from worker import erasure_mail, label_jobs, parcel_mail, payout_mail, seller_mail

TELLING = ("stolen", "flagged", "register", "police")
ON_HOLD = "Your sale is on hold pending checks. We will contact you."


def flag(app, lead_id: int, state: str | None = None) -> None:
    """The lead's register check stands flagged (as a register check records it); moved to
    `state` if given."""
    with app.app_context(), transaction() as db:
        db.execute(
            "INSERT INTO purchases (lead_id, register_result) VALUES (?, 'flagged') "
            "ON CONFLICT (lead_id) DO UPDATE SET register_result = 'flagged'",
            (lead_id,),
        )
        if state:
            db.execute("UPDATE leads SET state = ? WHERE id = ?", (state, lead_id))


def page_text(app, lead_id: int) -> tuple[str, str]:
    """The status page's visible text (lower case) and its "What happens now"."""
    html = app.test_client().get(f"/status/{give_token(app, lead_id)}").get_data(as_text=True)
    now = re.search(r"data-next-step>.*?<p[^>]*>(.*?)</p>", html, re.S).group(1).strip()
    body = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)
    return body.lower(), now


@pytest.mark.parametrize("state", [State.ACCEPTED, State.OFFERED, State.AGREED, State.CLOSED])
def test_a_flagged_leads_page_says_only_on_hold(mailin_app, state):
    lead_id, _ = mail_deal(mailin_app)
    flag(mailin_app, lead_id, state)
    text, now = page_text(mailin_app, lead_id)
    assert now == ON_HOLD
    assert "this enquiry is closed" not in text and "your enquiry is closed" not in text
    assert not [word for word in TELLING if word in text]


def test_a_mail_deal_on_hold_before_its_label_shows_no_steps_to_a_label(mailin_app):
    lead_id, _ = mail_deal(mailin_app)
    html = mailin_app.test_client().get(f"/status/{give_token(mailin_app, lead_id)}").text
    assert "data-mail-step" in html  # the steps, before the hold
    flag(mailin_app, lead_id)
    html = mailin_app.test_client().get(f"/status/{give_token(mailin_app, lead_id)}").text
    assert "data-mail-step" not in html and "data-mail" not in html
    assert ON_HOLD in html


def test_a_held_closed_mail_deal_reads_on_hold_once_and_never_closed(mailin_app):
    inbound = deal_at_the_offer(mailin_app, "delivered")
    lead_id = inbound["lead_id"]
    flag(mailin_app, lead_id, State.CLOSED)
    with mailin_app.app_context():
        assert "held" in returns.open_return(lead_id)
        with transaction() as db:  # a flag cleared since: the watch stays held all the same
            db.execute("UPDATE purchases SET register_result = 'clear' WHERE lead_id = ?",
                       (lead_id,))  # fmt: skip
        assert returns.on_hold(lead_id)
    text, now = page_text(mailin_app, lead_id)
    assert now == ON_HOLD and text.count("on hold pending checks") == 1
    assert "this enquiry is closed" not in text and "call us and we will pick it up" not in text
    assert "your enquiry is closed" not in text and "on hold" in text.split("where your sale")[1]
    assert not [word for word in TELLING if word in text]


def every_message(lead: dict) -> list:
    """Every e-mail a lead can be sent, as it would be sent now."""
    url = "https://watches.example/status/x"
    events = {
        "quote": quote(9500) | {"from": "quoted", "to": "quoted"},
        "appointment": APPOINTMENT | {"from": "accepted", "to": "appointment"},
        "offer": {"amount": 9000, "valid_until": "2099-01-01"},
        "paperwork": {},
    }
    messages = []
    for reason in seller_mail.CLOSING_WORDS:
        closed = {"reason": reason, "message": "Stolen per the police: do not return."}
        event = {"id": 1, "data": closed}
        messages.append(seller_mail.build_message(lead, event, "closed", url, []))
    for template in ("quote", "appointment", "offer", "paperwork"):
        event = {"id": 2, "data": events[template]}
        messages.append(seller_mail.build_message(lead, event, template, url, []))
    letters = [parcel_mail.label_ready_letter(lead)]
    letters += [parcel_mail.letter(lead, words) for words in parcel_mail.PARCEL_WORDS.values()]
    messages += [seller_mail.letter_message(lead, letter, "k", url) for letter in letters]
    messages += [
        seller_mail.confirmation_message(lead, 3, url),
        seller_mail.new_link_message(lead, url),
        payout_mail.confirm_payout_message(lead | {"account_last4": "6789"}, url),
        erasure_mail.confirm_erasure_message(lead, url),
        label_jobs.address_check_message(lead | {"new_address": ADDRESS}, url),
    ]
    return messages


ADDRESS = {"name": "Jordan Avery", "street1": "12 MAIN ST", "city": "BOISE", "state": "ID",
           "zip": "83702"}  # fmt: skip


def test_no_e_mail_a_flagged_lead_can_receive_says_why(mailin_app):
    lead_id, _ = mail_deal(mailin_app)
    flag(mailin_app, lead_id)
    with mailin_app.app_context():
        lead = store.get_lead(lead_id)
        messages = every_message(lead)
        closed = seller_mail.compose(lead, {"id": 3, "data": {"reason": "not_a_fit"}}, "closed")
        paperwork = seller_mail.compose(lead, {"id": 4, "data": {}}, "paperwork")
    for message in messages:
        text = message.get_body(("plain",)).get_content().lower()
        text += message.get_body(("html",)).get_content().lower() + message["Subject"].lower()
        assert not [word for word in TELLING if word in text], message["Subject"]
    assert closed.paragraphs == [ON_HOLD] and closed.heading == "Your sale is on hold"
    assert not closed.note  # staff's own words are not passed on either
    assert "on hold pending checks" in " ".join(paperwork.paragraphs)


def test_a_lead_not_on_hold_reads_as_before(mailin_app):
    lead_id, _ = mail_deal(mailin_app)
    with mailin_app.app_context():
        lead = store.get_lead(lead_id)
        closed = seller_mail.compose(lead, {"id": 3, "data": {"reason": "withdrawn"}}, "closed")
        paperwork = seller_mail.compose(lead, {"id": 4, "data": {}}, "paperwork")
    assert closed.heading == "Your enquiry is closed"
    assert "stolen-watch register" in " ".join(paperwork.paragraphs)
    _, now = page_text(mailin_app, lead_id)
    assert now.startswith("Three steps before your prepaid label")
