"""The final offer on the seller's status page: the amount, its date and what it
rests on, how it differs from the preliminary quote and why, and the seller's answer: accept
(then the paperwork e-mail) or decline (the watch goes back at our expense)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from app.leads import history, store
from app.sale import lifecycle
from tests.data.paperwork import (
    ACCOUNT,
    DIFFERENCES,
    OFFER,
    SERIAL,
    offered_lead,
    page_csrf,
)
from tests.helpers import answer_data, business_today, lead_work_done

EXPIRED = (business_today() - timedelta(days=1)).isoformat()


def status(client, token: str) -> str:
    return client.get(f"/status/{token}").get_data(as_text=True)


def answer(client, token: str, said: str):
    return client.post(f"/status/{token}/offer", data=answer_data(client, token, said))


def state_of(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["state"]


def block(page: str, marker: str) -> str:
    """The HTML of the element carrying `marker` up to the end of its section."""
    return page[page.index(marker) : page.index("</section>", page.index(marker))]


def test_the_offer_shows_its_amount_date_findings_and_why_it_differs_from_the_quote(app, client):
    lead_id, token = offered_lead(app)
    offer = block(status(client, token), "data-final-offer")
    assert re.search(r"data-offer-amount>\$7,400<", offer)
    assert re.search(r"data-quote-amount>\$8,000 to \$9,500<", offer)  # beside the offer
    valid = date.fromisoformat(OFFER["valid_until"])
    assert f"Valid until {valid.day} {valid:%B %Y}." in offer
    for words in ("126610LN", "Light scratches on the clasp", "Calibre 3235, service mark 2023",
                  "Bezel insert faded; dial and hands original"):  # fmt: skip
        assert words in offer
    for difference in DIFFERENCES:
        assert difference["what"] in offer and difference["why"] in offer
    assert "ending K9Q2" in offer
    assert SERIAL not in status(client, token)  # the serial only by its last 4 characters
    assert 'value="accept"' in offer and 'value="decline"' in offer
    assert "we return your watch to you at our expense" in offer


def test_an_offer_within_the_quote_and_without_reasons_shows_no_comparison(app, client):
    _, token = offered_lead(app, OFFER | {"amount": 9000, "differences": []})
    offer = block(status(client, token), "data-final-offer")
    assert "data-quote-amount" not in offer and "data-differences" not in offer
    assert "$9,000" in offer


def test_the_seller_accepts_the_offer_and_is_sent_to_the_paperwork(app, client):
    lead_id, token = offered_lead(app)
    answered = answer(client, token, "accept")
    assert answered.status_code == 303 and answered.headers["Location"] == f"/status/{token}"
    page = status(client, token)
    assert "you have accepted our final offer" in page
    assert f'href="/status/{token}/paperwork"' in page and "data-final-offer" not in page
    assert "Offer accepted: paperwork" in page
    with app.app_context():
        [change] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "agreed"]
    assert change["actor"] == "seller" and change["data"] == {
        "from": "offered",
        "to": "agreed",
        "via": "status_page",
    }


def test_an_expired_offer_cannot_be_accepted_but_can_be_declined(app, client):
    lead_id, token = offered_lead(app, OFFER | {"valid_until": EXPIRED})
    offer = block(status(client, token), "data-final-offer")
    assert "This offer expired on" in offer and 'value="accept"' not in offer
    answer(client, token, "accept")
    assert "This final offer has expired" in status(client, token)
    assert state_of(app, lead_id) == "offered"
    answer(client, token, "decline")
    assert state_of(app, lead_id) == "closed"


def test_declining_closes_the_enquiry_and_says_the_watch_comes_back_at_our_expense(app, client):
    lead_id, token = offered_lead(app)
    answer(client, token, "decline")
    page = status(client, token)
    assert "You have declined our final offer" in page
    assert "we return your watch to you at our expense" in page
    assert "covered by our insurance while it is in our custody" in page
    assert "You declined our final offer" in page and "declined our quote" not in page
    with app.app_context():
        closed = history.lead_events(lead_id)[-1]
    assert closed["data"]["to"] == "closed" and closed["data"]["reason"] == "seller_declined"


def test_an_answer_from_an_out_of_date_page_changes_nothing(app, client):
    lead_id, token = offered_lead(app)
    csrf = page_csrf(client, f"/status/{token}")
    with app.app_context():
        lifecycle.transition(lead_id, "agreed", "staff:1", {"via": "phone"}, "offered")
    for said in ("accept", "decline", "bogus"):
        refused = client.post(f"/status/{token}/offer", data={"answer": said, "csrf_token": csrf})
        assert refused.status_code == 303
        assert "Your sale has moved on since this page was opened" in status(client, token)
    forged = client.post(f"/status/{token}/offer", data={"answer": "decline"})
    assert forged.status_code == 303
    assert "Nothing was changed" in status(client, token)
    assert state_of(app, lead_id) == "agreed"


def test_the_paperwork_email_says_what_to_have_ready_and_links_the_status_page(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    lead_id, token = offered_lead(mail_app)
    smtp_server.wait_for(3)  # quote, appointment, final offer
    smtp_server.messages.clear()
    answer(client, token, "accept")
    [message] = smtp_server.wait_for(1)
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert str(message["Subject"]).startswith("Next step for your Rolex Submariner")
    for body in (text, html):
        assert "photo ID" in body and "front" in body and "routing and account numbers" in body
        assert "$7,400" in body and "never send them by e-mail" in body
    link = re.search(r"https://watches\.example(/status/[A-Za-z0-9_-]+)", text).group(1)
    assert client.get(link).status_code == 200
    assert ACCOUNT not in text and SERIAL not in text
    lead_work_done(mail_app)  # the job records the send once the relay has taken it
    with mail_app.app_context():
        sent = [e["data"] for e in history.lead_events(lead_id) if e["kind"] == "email_sent"]
    assert sent[-1]["template"] == "paperwork"


def test_an_offer_revised_after_the_page_was_opened_is_neither_accepted_nor_declined(app, client):
    lead_id, token = offered_lead(app)  # $7,400 on the page the seller opens
    seen = {said: answer_data(client, token, said) for said in ("accept", "decline")}
    with app.app_context():
        revised = OFFER | {"amount": 6900}
        lifecycle.transition(lead_id, "offered", "staff:1", revised, "offered")
    for said, data in seen.items():
        refused = client.post(f"/status/{token}/offer", data=data)
        assert refused.status_code == 303, said
        page = status(client, token)
        assert "We revised our final offer after this page was opened" in page
        assert "$6,900" in page and state_of(app, lead_id) == "offered"
    unnamed = seen["accept"] | {"shown": ""}
    client.post(f"/status/{token}/offer", data=unnamed)
    assert state_of(app, lead_id) == "offered"
    assert answer(client, token, "accept").status_code == 303  # the offer now on the page
    assert state_of(app, lead_id) == "agreed"
    with app.app_context():
        accepted = history.lead_events(lead_id)[-1]
    assert accepted["data"]["to"] == "agreed"
