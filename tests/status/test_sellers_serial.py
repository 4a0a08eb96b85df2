"""The serial number a seller may give on the status page once the quote is accepted: its form
(with where to find the serial, and never "open the watch"), its rules said back plainly and
what was typed kept, given once then thanked for, asked of the register when it is asked by API
(the page the same whatever the answer), kept whole for staff and by its last 4 characters on
the timeline, blanked by an erasure, and limited like the seller's other posts."""

from __future__ import annotations

import re

import pytest

from app.leads import history, store
from app.leads.db import get_db, transaction
from app.sale import erasure, lifecycle
from app.sale.purchase import register_asks
from tests.helpers import wait_until
from tests.sale.purchase.fake_register import (  # noqa: F401 (fixtures)
    register,
    register_server,
    register_settings,
)
from tests.status.mail_steps import csrf, mail_deal

GIVEN = "Thank you: we have your serial number."


def post_serial(client, token: str, serial: str, **kwargs):
    data = {"csrf_token": csrf(client, token), "serial": serial}
    return client.post(f"/status/{token}/serial", data=data, **kwargs)


def page(client, token: str) -> str:
    return client.get(f"/status/{token}").get_data(as_text=True)


def lead_of(app, lead_id: int) -> dict:
    with app.app_context():
        return store.get_lead(lead_id)


@pytest.mark.parametrize("handover", ["mail", "in_person"])
def test_the_form_is_offered_after_the_quote_is_accepted_and_hidden_once_given(
    mailin_app, handover
):
    lead_id, token = mail_deal(mailin_app, handover=handover)
    client = mailin_app.test_client()
    html = page(client, token)
    assert "data-serial-form" in html and "between the lugs at 6 o&#39;clock" in html
    assert "rehaut" in html and "warranty card" in html and "never open the watch" in html
    assert 'required maxlength="20"' in html  # the form's own rules, told to the browser
    assert post_serial(client, token, " 7z41-k9q2 ").status_code == 303
    html = page(client, token)
    assert "data-serial-form" not in html and html.count(GIVEN) >= 1
    assert lead_of(mailin_app, lead_id)["sellers_serial"] == "7Z41K9Q2"
    with mailin_app.app_context():
        [given] = [e for e in history.lead_events(lead_id) if e["kind"] == "sellers_serial_given"]
    assert given["data"] == {"serial_last4": "K9Q2"} and given["actor"] == "seller"
    # Given once: a second post (a forwarded link, say) changes nothing.
    assert post_serial(client, token, "AAAA1111").status_code == 303
    assert lead_of(mailin_app, lead_id)["sellers_serial"] == "7Z41K9Q2"
    assert "nothing was changed" in page(client, token)


@pytest.mark.parametrize(
    "typed, problem",
    [
        ("", "Please type the serial number, or leave it for now: it is optional."),
        ("7Z4", "A serial number has 4 to 20 letters and digits"),
        ("7Z41K9Q2/88", "A serial number has 4 to 20 letters and digits"),
        ("A" * 21, "A serial number has 4 to 20 letters and digits"),
        ("<script>", "A serial number has 4 to 20 letters and digits"),
    ],
)
def test_a_serial_against_the_rules_is_refused_plainly_and_kept_to_correct(
    mailin_app, typed, problem
):
    lead_id, token = mail_deal(mailin_app)
    client = mailin_app.test_client()
    assert post_serial(client, token, typed).status_code == 303
    html = page(client, token)
    assert re.search(r'role="alert"[^>]*data-notice>' + re.escape(problem), html)
    if typed and typed != "<script>":
        assert f'value="{typed}"' in html  # what was typed, put back to correct
    assert "<script>" not in html.split("data-serial-form")[1].split("</form>")[0]
    assert lead_of(mailin_app, lead_id)["sellers_serial"] is None


@pytest.mark.parametrize("state", ["quoted", "offered", "agreed"])
def test_before_the_acceptance_and_once_staff_have_seen_the_watch_there_is_no_form(
    mailin_app, state
):
    lead_id, token = mail_deal(mailin_app)
    with mailin_app.app_context(), transaction() as db:  # quoted, or authenticated since
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (state, lead_id))
    client = mailin_app.test_client()
    assert "data-serial-form" not in page(client, token)
    assert post_serial(client, token, "7Z41K9Q2").status_code == 303
    assert lead_of(mailin_app, lead_id)["sellers_serial"] is None


def test_with_the_register_asked_by_api_a_flag_reads_exactly_as_a_clear_serial(
    make_app,
    register,  # noqa: F811 (the fixture)
    easypost,
):
    from tests.shipping.steps import mailin_settings

    app = make_app(**mailin_settings(easypost), **register_settings(register))
    register.answer("7Z41K9Q2", "flagged")
    client, pages = app.test_client(), {}
    for serial in ("7z41 k9q2", "5H20 L8P1"):  # flagged, then clear
        lead_id, token = mail_deal(app)
        assert post_serial(client, token, serial).status_code == 303
        with app.app_context():
            [ask] = get_db().execute("SELECT * FROM register_asks WHERE lead_id = ?", (lead_id,))
            assert ask["reason"] == "sellers_serial"
            wait_until(lambda ask=ask: register_asks.get(ask["id"])["outcome"], timeout=20)
        html = page(client, token)
        pages[serial] = re.sub(r"<script.*?</script>|<[^>]+>|USWB-\w+", " ", html, flags=re.S)
    # Nobody has seen the watch: asked without a brand, never the one chosen on /sell.
    assert register.searches()[0]["body"] == {"serial_number": "7Z41K9Q2", "brand": None,
                                              "item": "watch"}  # fmt: skip
    with app.app_context():
        outcomes = [row["outcome"] for row in get_db().execute("SELECT * FROM register_asks")]
    assert outcomes == ["flagged", "clear"]
    flagged, clear = pages.values()
    assert flagged == clear and GIVEN in flagged and "Three steps before your prepaid" in flagged
    text = flagged.lower()
    telling = ("stolen", "flagged", "register", "police", "hold")
    assert not [word for word in telling if word in text]


def test_without_the_register_api_the_serial_is_kept_for_staff_and_erased_with_the_lead(
    mailin_app,
):
    lead_id, token = mail_deal(mailin_app)
    assert post_serial(mailin_app.test_client(), token, "7Z41K9Q2").status_code == 303
    with mailin_app.app_context():
        assert get_db().execute("SELECT count(*) FROM register_asks").fetchone()[0] == 0
        lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "accepted")
        erasure.erase(lead_id, "staff:1")
        assert store.get_lead(lead_id)["sellers_serial"] is None


def test_the_serial_form_is_limited_like_the_sellers_other_posts(make_app, easypost):
    from tests.shipping.steps import mailin_settings

    app = make_app(**mailin_settings(easypost), RATELIMIT_ENABLED=True,
                   STATUS_ACTION_RATELIMIT="2 per minute")  # fmt: skip
    _, token = mail_deal(app)
    client = app.test_client()
    answers = [post_serial(client, token, "7Z4").status_code for _ in range(3)]
    assert answers[:2] == [303, 303] and answers[2] in (303, 429)
    assert "Too many requests from your connection" in page(client, token)
