"""What a seller selling by mail reads before the label: no appointment and no in-person
authentication, on the status page ("What happens now" at each state, the answer to the quote)
nor in the e-mails (confirmation, quote, final offer); a watch above the policy's per-parcel
limit is bought in person and reads so, one worth exactly the limit goes by mail to its label;
an in-person sale reads as it always has. And the
carrier's suggested correction of an address shows as a suggestion, not as an error."""

from __future__ import annotations

import re

import pytest

from app import queue
from app.leads import store
from app.leads.db import transaction
from app.sale import lifecycle
from app.shipping import labels
from tests.helpers import give_token, sample_lead
from tests.shipping.steps import mailin_settings
from tests.status.mail_steps import all_given, csrf, mail_deal, post_address, quote, verify_id
from worker import seller_mail

IN_PERSON_WORDS = ("appointment", "in-person", "in person", "50 miles", "collection")


def lead_at(app, state: str, handover: str | None = "mail", high: int = 9500) -> tuple[int, str]:
    """A lead (sold by mail unless `handover` says otherwise) moved as staff move it to `state`
    (new, contacted or quoted); its id and a status token."""
    with app.app_context():
        lead_id, _ = store.save_lead(sample_lead(), [])
        with transaction() as db:
            db.execute("UPDATE leads SET handover = ? WHERE id = ?", (handover, lead_id))
        if state in ("contacted", "quoted"):
            lifecycle.transition(lead_id, "contacted", "staff:1", {}, "new")
        if state == "quoted":
            lifecycle.transition(lead_id, "quoted", "staff:1", quote(high), "contacted")
    return lead_id, give_token(app, lead_id)


def next_step(html: str) -> str:
    found = re.search(r"data-next-step>.*?<p[^>]*>(.*?)</p>", html, re.S)
    return found.group(1).strip()


def said(client, token: str) -> str:
    return client.get(f"/status/{token}").get_data(as_text=True)


@pytest.mark.parametrize("state", ["new", "contacted", "quoted"])
def test_what_happens_now_promises_no_appointment_to_a_mail_deal(mailin_app, state):
    _, token = lead_at(mailin_app, state)
    words = next_step(said(mailin_app.test_client(), token))
    assert words and not any(word in words.lower() for word in IN_PERSON_WORDS)
    if state == "quoted":
        assert words.startswith("Accept the preliminary quote below to go on to your prepaid")


def test_an_in_person_sale_and_a_watch_above_the_limit_still_read_in_person(mailin_app):
    _, in_person = lead_at(mailin_app, "quoted", handover="in_person")
    _, over = lead_at(mailin_app, "quoted", high=40000)  # the policy covers $25,000
    client = mailin_app.test_client()
    for token in (in_person, over):
        assert next_step(said(client, token)).startswith(
            "Accept the preliminary quote below to book your authentication"
        )


def accept(client, token: str):
    html = said(client, token)
    shown = re.search(r'name="shown" value="(\d+)"', html).group(1)
    data = {"csrf_token": csrf(client, token), "shown": shown, "answer": "accept"}
    return client.post(f"/status/{token}/quote", data=data)


def notice_of(html: str) -> str:
    return re.search(r"data-notice>(.*?)</p>", html, re.S).group(1).strip()


def test_accepting_the_quote_by_mail_thanks_without_an_appointment(mailin_app):
    _, token = lead_at(mailin_app, "quoted")
    client = mailin_app.test_client()
    assert accept(client, token).status_code == 303
    html = said(client, token)
    assert notice_of(html).startswith("Thank you: you have accepted our preliminary quote. Three")
    assert "appointment" not in notice_of(html) + next_step(html)
    assert next_step(html).startswith("Three steps before your prepaid label")
    _, over = lead_at(mailin_app, "quoted", high=40000)
    assert accept(client, over).status_code == 303
    assert "book your appointment" in notice_of(said(client, over))  # bought in person


def test_a_watch_worth_exactly_the_policys_limit_goes_by_mail_to_its_label(
    make_app, easypost, mail_settings
):
    app = make_app(**mailin_settings(easypost, MAILIN_MAX_VALUE="18750") | mail_settings)
    lead_id, token = lead_at(app, "quoted", high=18_750)
    client = app.test_client()
    assert next_step(said(client, token)).startswith("Accept the preliminary quote below to go on")
    assert accept(client, token).status_code == 303
    html = said(client, token)
    assert notice_of(html).startswith("Thank you: you have accepted our preliminary quote. Three")
    assert 'Insured for <span class="font-semibold text-ink-900">$18,750</span>' in html
    assert html.count("data-mail-step=") == 3 and "our shipping insurance covers" not in html
    all_given(app, token)
    with app.app_context():
        parcel = labels.buy_label(verify_id(lead_id))
        queue.wait_until_idle(30)
    assert parcel["insured_value"] == 18_750 and parcel["state"] == "label_ready"


def test_the_carriers_suggestion_is_a_neutral_notice_not_an_error(mailin_app):
    _, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    assert post_address(client, token, {"street1": "12 Mian St"}).status_code == 303
    html = said(client, token)
    [notice] = re.findall(r"<p role=\"(\w+)\" class=\"([^\"]+)\" data-suggestion-notice", html)
    assert notice[0] == "status" and "red" not in notice[1] and "gold" in notice[1]
    assert 'role="alert"' not in html
    assert post_address(client, token, {"street1": "1 Nowhere Rd"}).status_code == 303
    assert 'role="alert"' in said(client, token)


def letter_text(letter) -> str:
    return " ".join(letter.paragraphs).lower()


def test_the_confirmation_and_quote_e_mails_of_a_mail_deal_promise_no_appointment(mailin_app):
    mail_id, _ = lead_at(mailin_app, "new")
    person_id, _ = lead_at(mailin_app, "new", handover="in_person")
    with mailin_app.app_context():
        by_mail, in_person = store.get_lead(mail_id), store.get_lead(person_id)
        confirmation = letter_text(seller_mail.confirmation_letter(by_mail, 3))
        quoted = letter_text(seller_mail.quote_letter(by_mail, quote(9500), False))
        over = letter_text(seller_mail.quote_letter(by_mail, quote(40000), False))
        person = letter_text(seller_mail.quote_letter(in_person, quote(9500), False))
        person_confirmation = letter_text(seller_mail.confirmation_letter(in_person, 3))
    for text in (confirmation, quoted):
        assert not any(word in text for word in IN_PERSON_WORDS), text
        assert "prepaid" in text and "insured" in text
    assert "follows the authentication of your watch by a certified watchmaker once it" in quoted
    assert "above the $25,000 our shipping insurance covers per parcel" in over
    assert "in-person authentication" in over and "in-person authentication" in person
    assert "insured collection within 50 miles" in person_confirmation


def test_the_final_offer_e_mail_of_a_mail_deal_names_the_watch_we_received(mailin_app):
    mail_id, _ = mail_deal(mailin_app)
    person_id, _ = mail_deal(mailin_app, handover="in_person")
    offer = {"amount": 9000, "valid_until": "2099-01-01", "sequence": 1}
    with mailin_app.app_context():
        by_mail = letter_text(seller_mail.offer_letter(store.get_lead(mail_id), offer, False))
        person = letter_text(seller_mail.offer_letter(store.get_lead(person_id), offer, False))
    assert "received by insured mail, has been authenticated" in by_mail
    assert "received by insured mail" not in person and "has been authenticated" in person
    assert not any(word in by_mail for word in IN_PERSON_WORDS)
