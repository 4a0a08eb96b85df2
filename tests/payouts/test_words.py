"""Words that stay true in each mode: the home badge, the terms, the seller's status page and the
e-mails say "instant where your bank takes it, otherwise the same day" only while the bank's API
sends the payouts, and what the page says follows the payout (prepared, on its way, refused by
the seller's bank, paid by instant transfer at a time, returned); recorded by hand, they read
as they always did."""

from __future__ import annotations

import re
from html import unescape

import pytest

from app import queue
from app.leads import store
from app.leads.db import get_db
from tests.helpers import give_token
from tests.payouts.steps import ACCOUNT, ACH_BANK, deal_to_pay, payout_settings
from tests.payouts.test_two_people import approve, ask

PROMISE = "instant where your bank takes it, otherwise the same day"


def text_of(answer) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True))).split())


def status_page(app, lead_id: int) -> str:
    return text_of(app.test_client().get(f"/status/{give_token(app, lead_id)}"))


def test_the_home_badge_says_instant_only_while_the_bank_sends_payouts(make_app, bank):
    by_hand, by_api = make_app(), make_app(**payout_settings(bank))
    manual, instant = (
        text_of(by_hand.test_client().get("/")),
        text_of(by_api.test_client().get("/")),
    )
    assert "Same-Day Payment" in manual and "Instant Payment" not in manual
    assert "instant" not in manual.lower().replace("instant valuation", "")
    assert "Instant Payment" in instant and PROMISE in instant
    assert "Same-Day Payment" not in instant


def test_the_terms_say_how_the_transfer_is_sent_in_each_mode(make_app, bank):
    by_hand, by_api = make_app(), make_app(**payout_settings(bank))
    manual = text_of(by_hand.test_client().get("/terms"))
    instant = text_of(by_api.test_client().get("/terms"))
    for terms in (manual, instant):
        assert "How the Transfer Is Sent" in terms and "the day you accept the final offer" in terms
    assert "depends on your bank" in manual and "RTP" not in manual
    assert "instant where your bank takes instant payments" in instant
    assert "by same-day ACH, which reaches your bank that business day" in instant
    assert "A second member" not in manual and "second member of our team" in instant


def test_the_status_page_follows_the_payout_in_plain_words(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    before = status_page(payout_app, lead_id)
    assert PROMISE in before and "instant transfer to your account" not in before
    payout_id = ask(payout_app, lead_id)
    assert (
        "Your payment is being prepared: $9,500.00 by instant transfer to your account ending "
        "5566. A second member of our team approves every payment"
        in status_page(payout_app, lead_id)
    )
    bank.plan("approve", "pending")
    approve(payout_app, lead_id, payout_id)
    assert (
        "Your payment of $9,500.00 is on its way to your account ending 5566 by instant transfer."
        in status_page(payout_app, lead_id)
    )
    with payout_app.app_context():
        transfer_id = get_db().execute("SELECT transfer_id FROM payouts").fetchone()[0]
    bank.settle(transfer_id)
    payout_app.test_cli_runner().invoke(args=["payouts", "reconcile"])
    with payout_app.app_context():
        queue.wait_until_idle(60)
    paid = status_page(payout_app, lead_id)
    assert re.search(
        r"We have paid \$9,500 for your Rolex Submariner by instant transfer at "
        r"\d{1,2}:\d\d [ap]m E[SD]T on \d{1,2} \w+ 2026\.",
        paid,
    ), paid
    assert "Instant bank transfer (RTP)" in paid and "Time sent" in paid
    assert ACCOUNT not in paid


def test_a_transfer_the_sellers_bank_refused_is_said_plainly_with_a_call_promised(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    bank.plan("approve", "rejected")
    approve(payout_app, lead_id, payout_id)
    page = status_page(payout_app, lead_id)
    assert (
        "Your bank did not accept our transfer of $9,500.00 to your account ending 5566, so "
        "the money has not left us. We will call you" in page
    )
    assert "account closed" not in page  # the bank's code is for staff


def test_an_ach_payout_is_same_day_and_a_return_is_said_after_the_sale(payout_app, bank):
    lead_id = deal_to_pay(payout_app, routing=ACH_BANK)
    payout_id = ask(payout_app, lead_id)
    assert "$9,500.00 by same-day ACH transfer" in status_page(payout_app, lead_id)
    approve(payout_app, lead_id, payout_id)
    paid = status_page(payout_app, lead_id)
    assert "by same-day ACH transfer, sent at" in paid
    assert "instant" not in paid.split("Your payment")[1]
    with payout_app.app_context():
        transfer_id = get_db().execute("SELECT transfer_id FROM payouts").fetchone()[0]
    bank.advance(transfer_id, "returned", "no_account")
    payout_app.test_cli_runner().invoke(args=["payouts", "reconcile"])
    assert "Your bank returned our payment to your account ending 5566" in status_page(
        payout_app, lead_id
    )


def test_an_ach_payout_sent_after_the_same_day_cut_off_is_never_called_same_day(
    mailing_app, bank, smtp_server
):
    bank.ach_schedule = "future_dated"  # submitted after the day's last same-day window
    lead_id = deal_to_pay(mailing_app, routing=ACH_BANK)
    approve(mailing_app, lead_id, ask(mailing_app, lead_id))
    paid = status_page(mailing_app, lead_id).split("Your payment")[1]
    assert (
        "by ACH transfer, sent at" in paid and "your bank credits it the next business day" in paid
    )
    assert "same-day" not in paid and "Same-day" not in paid
    [told] = [m for m in smtp_server.wait_for(1, timeout=60) if "Payment sent" in m["Subject"]]
    body = told.get_body(("plain",)).get_content()
    assert "your bank credits it the next business day" in body and "same-day" not in body.lower()


@pytest.fixture
def mailing_app(make_app, bank, mail_settings):
    return make_app(**payout_settings(bank), **mail_settings)


def test_the_paid_e_mail_says_instant_transfer_at_its_time_and_never_the_number(
    mailing_app, bank, smtp_server
):
    lead_id = deal_to_pay(mailing_app)
    approve(mailing_app, lead_id, ask(mailing_app, lead_id))
    [paid] = [m for m in smtp_server.wait_for(1, timeout=60) if "Payment sent" in m["Subject"]]
    body = paid.get_body(("plain",)).get_content()
    assert re.search(r"by instant transfer at \d{1,2}:\d\d [ap]m E[SD]T on", body), body
    assert "Time sent" in body and ACCOUNT not in body


def test_the_final_offers_e_mail_promises_what_each_mode_delivers(make_app, bank, mail_settings,
                                                                  smtp_server):  # fmt: skip
    from worker import seller_mail

    for app, words in (
        (make_app(**mail_settings), "we pay by bank transfer the same day."),
        (
            make_app(**payout_settings(bank), **mail_settings),
            f"we pay by bank transfer: {PROMISE}.",
        ),
    ):
        lead_id = deal_to_pay(app)
        with app.app_context():
            letter = seller_mail.offer_letter(
                store.get_lead(lead_id), {"amount": 9500, "valid_until": "2026-12-15"}, False
            )
        assert words in " ".join(letter.paragraphs)
