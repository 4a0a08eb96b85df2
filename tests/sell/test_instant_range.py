"""The seller's instant range on /sell: the island's JSON question, the form's answers with
JavaScript (JSON) and without (the thank-you page), and the lead keeping what it was shown. No
number without one fresh matching entry, whatever is sent."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from app.leads import store
from app.leads.db import transaction
from app.sale import lifecycle
from tests.data.prices import SUB_LINE, add_entry
from tests.helpers import JSON, give_token, island_props, lead_work_done, page_html, post

WATCH = {
    "watchBrand": "Rolex",
    "watchModel": "sub 126610 ln",
    "watchCondition": "Very Good - Minor wear",
    "hasBox": "y",
    "hasPapers": "y",
}


def asked(client, **changes):
    answer = client.get(f"/sell/range?{urlencode(WATCH | changes)}")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    return answer.get_json()["range"]


def test_the_island_gets_the_range_for_what_is_typed(app, client):
    add_entry(app)
    shown = asked(client)
    assert shown["line"] == SUB_LINE and (shown["low"], shown["high"]) == (9500, 10800)
    assert "From our buy-price guide, set" in shown["basis"]
    without_box = asked(client, hasBox="")
    assert without_box["line"].endswith("with papers, without box.")


@pytest.mark.parametrize(
    "changes",
    [
        {"watchModel": "126610"},  # LN or LV
        {"watchModel": "Daytona"},
        {"watchBrand": "Omega"},
        {"watchBrand": "Swatch"},  # not one of the form's brands
        {"watchCondition": "Mint"},  # not one of the form's grades
        {"watchCondition": "Needs Service/Repair"},  # no adjustment set for it
        {"watchModel": "1" * 500},
        {"watchModel": "\x00\ufffd\u202e 126610"},
    ],
)
def test_no_number_where_the_guide_does_not_stand_behind_one(app, client, changes):
    add_entry(app)
    assert asked(client, **changes) is None


def test_a_reference_among_markup_still_gives_only_the_guides_words(app, client):
    add_entry(app)
    shown = asked(client, watchModel="<script>alert(1)</script> 126610LN")
    assert shown["line"] == SUB_LINE and "<script" not in json.dumps(shown)


def test_a_stale_entry_gives_no_number(app, client):
    add_entry(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE price_guide SET set_on = '2020-01-01'")
    assert asked(client) is None


def test_the_island_is_answered_and_the_lead_keeps_what_it_was_shown(app, client):
    add_entry(app)
    answer = post(client, WATCH, headers=JSON)
    assert answer.status_code == 200
    assert answer.get_json()["range"]["line"] == SUB_LINE
    with app.app_context(), transaction() as db:
        db.execute("UPDATE price_guide SET high = 20000")  # the guide moves on
    with app.app_context():
        kept = json.loads(store.get_lead(1)["instant_range"])
    assert kept["line"] == SUB_LINE and kept["reference"] == "126610LN" and kept["high"] == 10800


def test_without_javascript_the_thank_you_page_shows_the_range(app, client):
    add_entry(app)
    answer = post(client, WATCH)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/sell/thanks")
    thanks = page_html(client, "/sell/thanks")
    assert SUB_LINE in thanks and "data-instant-range" in thanks
    assert "confirmed after we authenticate the watch" in thanks


def test_without_a_match_the_thank_you_page_promises_a_reply_and_shows_no_number(app, client):
    add_entry(app)
    post(client, WATCH | {"watchModel": "Daytona"})
    thanks = page_html(client, "/sell/thanks")
    assert "data-instant-range" not in thanks and "within 24 hours" in thanks
    assert "$" not in thanks.split("<main", 1)[1].split("</main>", 1)[0]


def test_a_refused_form_is_drawn_again_with_the_range_for_its_watch(app, client):
    add_entry(app)
    refused = post(client, WATCH | {"email": "not an address"})
    assert refused.status_code == 422
    html = refused.get_data(as_text=True).replace("<!-- -->", "")
    assert island_props(html)["range"]["line"] == SUB_LINE
    assert SUB_LINE in html  # drawn by React on the server, there without JavaScript


def test_the_emails_and_the_status_page_repeat_the_range_beside_the_quote(
    make_app, mail_settings, smtp_server
):
    app = make_app(**mail_settings, STAFF_EMAIL="staff@watches.example")
    add_entry(app)
    client = app.test_client()
    assert post(client, WATCH, headers=JSON).status_code == 200
    lead_work_done(app)
    [confirmation] = [m for m in smtp_server.wait_for(2) if m["To"] == "jane@example.com"]
    text = confirmation.get_body(("plain",)).get_content()
    assert SUB_LINE in " ".join(text.split()) and "$9,500 to $10,800" in text
    quote = {"amount_low": 8000, "amount_high": 9500, "valid_until": "2099-12-01"}
    with app.app_context():
        lifecycle.transition(1, "quoted", "staff:1", quote, "new")
    lead_work_done(app)
    [quoted] = [m for m in smtp_server.wait_for(3) if "preliminary quote" in str(m["Subject"])]
    quoted_text = " ".join(quoted.get_body(("plain",)).get_content().split())
    assert "$8,000 to $9,500" in quoted_text and "$9,500 to $10,800" in quoted_text
    page = page_html(client, f"/status/{give_token(app, 1)}")
    assert SUB_LINE in page
    assert "Our preliminary quote, from your details and photos:" in page
    assert "$8,000 to $9,500" in page
