"""A sale held for its checks (a register check standing flagged, or a closed sale by mail whose
watch is held from its return) tips nobody off: until a staff member chooses to tell the seller,
their status page and e-mails read exactly as a clear sale's at the same step; once told, they
say only that the sale is on hold pending checks (no "closed... call us" above it). No page or
e-mail a seller can receive says "stolen", "flagged", "register" or "police", told or not, nor
does staff's register alert reply to the seller."""

from __future__ import annotations

import re

import pytest

from app.leads import audit, history, store
from app.leads.db import transaction
from app.leads.state import State
from app.shipping import returns
from tests.data.paperwork import APPOINTMENT
from tests.helpers import give_token, put_purchase_on_record
from tests.shipping.return_steps import mail_deal as deal_at_the_offer
from tests.shipping.return_steps import staff_on  # noqa: F401 (a fixture)
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


def moved(app, lead_id: int, state: str) -> None:
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (state, lead_id))


@pytest.fixture
def desk(mailin_app, staff_on):
    """A staff member signed in to the app with both factors: their client."""
    return staff_on(mailin_app)[0]


def tell(client, lead_id: int):
    """A staff member chooses to tell the seller, from the lead page; the answer."""
    page = client.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    token = re.search(r'name="tell_hold-csrf_token"[^>]*value="([^"]+)"', page).group(1)
    data = {"tell_hold-csrf_token": token, "tell_hold-told": "y"}
    return client.post(f"/staff/leads/{lead_id}/tell-hold", data=data)


def page_text(app, lead_id: int) -> tuple[str, str]:
    """The status page's visible text (lower case, the lead's own reference taken out) and its
    "What happens now"."""
    html = app.test_client().get(f"/status/{give_token(app, lead_id)}").get_data(as_text=True)
    now = re.search(r"data-next-step>.*?<p[^>]*>(.*?)</p>", html, re.S).group(1).strip()
    body = re.sub(r"<script.*?</script>|<[^>]+>|USWB-\w+", " ", html, flags=re.S)
    return " ".join(body.lower().split()), now


@pytest.mark.parametrize("state", [State.ACCEPTED, State.OFFERED, State.AGREED, State.CLOSED])
def test_a_flagged_leads_page_reads_as_a_clear_ones_until_staff_tell_the_seller(
    mailin_app, desk, state
):
    clear, _ = mail_deal(mailin_app)
    flagged, _ = mail_deal(mailin_app)
    moved(mailin_app, clear, state)
    flag(mailin_app, flagged, state)
    assert page_text(mailin_app, flagged) == page_text(mailin_app, clear)
    assert "on hold" not in page_text(mailin_app, flagged)[0]
    assert tell(desk, flagged).status_code == 303
    text, now = page_text(mailin_app, flagged)
    assert now == ON_HOLD
    assert "this enquiry is closed" not in text and "your enquiry is closed" not in text
    assert not [word for word in TELLING if word in text]


def test_a_mail_deal_flagged_before_its_label_shows_the_steps_until_the_seller_is_told(
    mailin_app, desk
):
    lead_id, token = mail_deal(mailin_app)
    flag(mailin_app, lead_id)
    html = mailin_app.test_client().get(f"/status/{token}").text
    assert "data-mail-step" in html and ON_HOLD not in html  # as for any mail deal
    tell(desk, lead_id)
    html = mailin_app.test_client().get(f"/status/{token}").text
    assert "data-mail-step" not in html and "data-mail" not in html
    assert ON_HOLD in html


def test_a_held_closed_mail_deal_reads_as_a_waiting_return_then_on_hold_once_told(mailin_app, desk):
    waiting = deal_at_the_offer(mailin_app, "delivered")["lead_id"]
    held = deal_at_the_offer(mailin_app, "delivered")["lead_id"]
    flag(mailin_app, held, State.CLOSED)
    with mailin_app.app_context(), transaction() as db:  # its check not in: the return waits
        db.execute("UPDATE purchases SET register_result = NULL WHERE lead_id = ?", (waiting,))
        db.execute("UPDATE leads SET state = 'closed' WHERE id = ?", (waiting,))
    with mailin_app.app_context():
        assert "held" in returns.open_return(held)
        assert "waits" in returns.open_return(waiting)
        assert returns.held_for_checks(held) and not returns.on_hold(held)
    assert page_text(mailin_app, held) == page_text(mailin_app, waiting)
    tell(desk, held)
    with mailin_app.app_context(), transaction() as db:  # a flag cleared since: still held
        db.execute("UPDATE purchases SET register_result = 'clear' WHERE lead_id = ?", (held,))
    with mailin_app.app_context():
        assert returns.on_hold(held)
    text, now = page_text(mailin_app, held)
    assert now == ON_HOLD and text.count("on hold pending checks") == 1
    assert "this enquiry is closed" not in text and "call us and we will pick it up" not in text
    assert "your enquiry is closed" not in text and "on hold" in text.split("where your sale")[1]
    assert not [word for word in TELLING if word in text]


def test_telling_the_seller_is_a_staff_choice_on_record_and_offered_only_for_a_held_sale(
    mailin_app, desk
):
    clear, _ = mail_deal(mailin_app)
    flagged, _ = mail_deal(mailin_app)
    flag(mailin_app, flagged)
    client = desk
    assert "tell_hold-csrf_token" not in client.get(f"/staff/leads/{clear}").get_data(True)
    assert tell(desk, flagged).status_code == 303
    with mailin_app.app_context():
        [told] = [e for e in history.lead_events(flagged) if e["kind"] == returns.TOLD]
        assert told["actor"].startswith("staff:")
        assert [e["action"] for e in audit.entries(lead_id=flagged)].count("hold_told") == 1
    page = client.get(f"/staff/leads/{flagged}").get_data(as_text=True)
    assert "tell_hold-csrf_token" not in page  # told once
    assert "The seller was told their sale is on hold pending checks" in page


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


def words_of(message) -> str:
    text = message.get_body(("plain",)).get_content().lower()
    return text + message.get_body(("html",)).get_content().lower() + message["Subject"].lower()


def composed(app, lead_id: int) -> tuple:
    """The closing and paperwork e-mails the lead would be sent now."""
    with app.app_context():
        lead = store.get_lead(lead_id)
        closed = seller_mail.compose(lead, {"id": 3, "data": {"reason": "not_a_fit"}}, "closed")
        paperwork = seller_mail.compose(lead, {"id": 4, "data": {}}, "paperwork")
    return closed, paperwork


def test_no_e_mail_a_flagged_lead_can_receive_says_why_told_or_not(mailin_app, desk):
    clear, _ = mail_deal(mailin_app)
    lead_id, _ = mail_deal(mailin_app)
    flag(mailin_app, lead_id)
    assert composed(mailin_app, lead_id) == composed(mailin_app, clear)  # as any, until told
    with mailin_app.app_context():
        untold = every_message(store.get_lead(lead_id))
    tell(desk, lead_id)
    with mailin_app.app_context():
        told = every_message(store.get_lead(lead_id))
    for message in untold + told:
        assert not [word for word in TELLING if word in words_of(message)], message["Subject"]
    closed, paperwork = composed(mailin_app, lead_id)
    assert closed.paragraphs == [ON_HOLD] and closed.heading == "Your sale is on hold"
    assert not closed.note  # staff's own words are not passed on either
    assert "on hold pending checks" in " ".join(paperwork.paragraphs)


def test_a_lead_not_on_hold_reads_as_before_and_never_names_the_register(mailin_app):
    lead_id, _ = mail_deal(mailin_app)
    closed, paperwork = composed(mailin_app, lead_id)
    assert closed.heading == "Your enquiry is closed"
    assert "register" not in " ".join(paperwork.paragraphs)
    assert (
        "we complete our checks of your id and the watch" in " ".join(paperwork.paragraphs).lower()
    )
    _, now = page_text(mailin_app, lead_id)
    assert now.startswith("Three steps before your prepaid label")


@pytest.mark.parametrize("flagged", [False, True])
def test_the_paperwork_pages_never_name_the_register(mailin_app, flagged):
    lead_id, _ = mail_deal(mailin_app)
    with mailin_app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            db.execute("UPDATE purchases SET signed_at = NULL WHERE lead_id = ?", (lead_id,))
    if flagged:
        flag(mailin_app, lead_id)
    token = give_token(mailin_app, lead_id)
    html = mailin_app.test_client().get(f"/status/{token}/paperwork").get_data(as_text=True)
    visible = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S).lower()
    assert "sale paperwork" in visible
    assert "register" not in visible.replace("reported lost or stolen", "")
