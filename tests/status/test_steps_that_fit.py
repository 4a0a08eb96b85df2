"""The seller's page at each step: photos only until the watch is authenticated in person, a
timeline whose "Now" moves on at signing and shows the payment done once bought, and then the
payment itself as the "paid" e-mail tells it."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

from werkzeug.datastructures import MultiDict

from app.leads import history, store
from app.rendering.dates import display_date
from app.sale import seller_steps
from tests.data.paperwork import agreed_lead, offered_lead, post_paperwork
from tests.helpers import (
    PAYMENT,
    business_today,
    buy_lead,
    give_token,
    photo,
    post_multipart,
    save_sample_lead,
)
from worker import seller_mail


def page(client, token: str) -> str:
    return client.get(f"/status/{token}").get_data(as_text=True)


def steps_of(app, lead_id: int, state: str) -> list[tuple[str, str]]:
    """(label, status) of each step of the seller's timeline."""
    with app.app_context():
        events = history.lead_events(lead_id)
        return [(step.label, step.status) for step in seller_steps.seller_steps(state, events)]


def test_photos_are_offered_until_the_authentication_and_refused_after(app, client):
    before = give_token(app, save_sample_lead(app))
    assert "Forgot the caseback" in page(client, before)
    _, after = offered_lead(app)  # authenticated in person, offer made
    html = page(client, after)
    assert "Forgot the caseback" not in html and 'data-island="AddPhotos"' not in html
    form = MultiDict({"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', html)[1]})
    assert post_multipart(client, f"/status/{after}/photos", form, [photo()]).status_code == 303
    assert "Your sale has moved on since this page was opened" in page(client, after)


def test_now_moves_on_to_the_payment_once_the_paperwork_is_signed(app, client):
    lead_id, token = agreed_lead(app)
    assert steps_of(app, lead_id, "agreed")[4:] == [
        ("Offer accepted: paperwork", "current"),
        ("Completed", "upcoming"),
    ]
    assert post_paperwork(client, token).status_code == 303
    assert steps_of(app, lead_id, "agreed")[4:] == [
        ("Offer accepted, paperwork signed", "done"),
        ("Payment: after our checks", "current"),
    ]


def test_a_bought_lead_shows_the_payment_done(app):
    lead_id = save_sample_lead(app)
    buy_lead(app, lead_id)
    assert steps_of(app, lead_id, "bought")[-1] == ("Completed: payment sent", "done")
    assert not [status for _, status in steps_of(app, lead_id, "bought") if status != "done"]


def payment_shown(html: str) -> list[tuple[str, str]]:
    """The (label, value) pairs of the status page's payment section; none without it."""
    section = re.search(r"<section[^>]*data-payment>(.*?)</section>", html, re.S)
    pairs = re.findall(r"<dt[^>]*>(.*?)</dt><dd[^>]*>(.*?)</dd>", section[1]) if section else []
    return [(unescape(label), unescape(value)) for label, value in pairs]


def test_a_bought_lead_shows_the_banks_confirmation_and_the_payment_date_as_the_email_does(
    app, client
):
    lead_id = save_sample_lead(app)
    event_id = buy_lead(app, lead_id, amount=9500, paid_days_ago=2)
    token = give_token(app, lead_id)
    paid_on = display_date((business_today() - timedelta(days=2)).isoformat())
    html = page(client, token)
    assert payment_shown(html) == [
        ("Amount paid", "$9,500"),
        ("Method", "ACH bank transfer"),
        ("Payment date", paid_on),
        ("Bank confirmation", PAYMENT["confirmation"]),
    ]
    assert f"by bank transfer on {paid_on}." in html
    with app.app_context():  # the "paid" e-mail's own facts, from the same words
        letter = seller_mail.compose(
            store.get_lead(lead_id), history.get_event(event_id), "completed"
        )
    assert payment_shown(html) == letter.facts and unescape(letter.paragraphs[0]) in unescape(html)


def test_no_payment_is_shown_before_the_lead_is_bought(app, client):
    _, token = agreed_lead(app)
    assert post_paperwork(client, token).status_code == 303
    html = page(client, token)
    assert payment_shown(html) == [] and "data-payment" not in html
