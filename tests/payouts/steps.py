"""Steps the payout's tests share: its settings, a deal whose purchase record lacks nothing but
the payment, and the bank's events signed as the bank signs them."""

from __future__ import annotations

from app.leads.db import transaction
from app.leads.history import append_event
from app.sale.purchase import record
from tests.helpers import business_today, put_purchase_on_record, save_sample_lead
from tests.payouts.fake_increase import ACCOUNT_NUMBER_ID, FakeIncrease

SECRET = "whsec-payouts-current-2b7f"
PREVIOUS_SECRET = "whsec-payouts-previous-91ce"
API_KEY = "inc_live_key_7Hq2vNw9XcR4"
# The seller's account as they typed it, and banks the fake knows: one on RTP, one on FedNow
# only, one on neither instant network.
ACCOUNT = "483920175566"
INSTANT_BANK = "021000021"
FEDNOW_BANK = "263181368"
ACH_BANK = "211274450"


def payout_settings(fake: FakeIncrease, **changes) -> dict:
    """Payouts sent through `fake` (requests give up after 1 s), $25,000 a transfer and
    $60,000 a day at most."""
    return {
        "PAYOUT_PROVIDER": "increase",
        "PAYOUT_MAX_AMOUNT": "25000",
        "PAYOUT_DAILY_LIMIT": "60000",
        "INCREASE_API_KEY": API_KEY,
        "INCREASE_API_BASE": fake.api_base,
        "INCREASE_ACCOUNT_NUMBER_ID": ACCOUNT_NUMBER_ID,
        "INCREASE_TIMEOUT": "1",
        "INCREASE_WEBHOOK_SECRET": SECRET,
    } | changes


def deal_to_pay(app, offer: int = 9500, routing: str = INSTANT_BANK, **lead) -> int:
    """A lead whose seller accepted a final offer of `offer` dollars, signed the paperwork with
    the account ACCOUNT at `routing` and confirmed it from their mailbox, with its ID checked
    and the register clear today: all that is left is to pay. Its id."""
    lead_id = save_sample_lead(app, **lead)
    with app.app_context():
        put_purchase_on_record(lead_id, offer)
        with transaction() as db:
            append_event(db, lead_id, "seller", "paperwork_signed", {"account_last4": ACCOUNT[-4:]})
            record.update(db, lead_id, {
                "authenticated_by": "staff:1",
                "authenticated_at": "2026-11-20T12:00:00+00:00",
                "register_checked_on": business_today().isoformat(),
                "routing_number_enc": record.sealed(lead_id, "routing_number_enc", routing),
                "account_number_enc": record.sealed(lead_id, "account_number_enc", ACCOUNT),
                "account_number_last4": ACCOUNT[-4:],
                "account_holder": "Jordan Avery",
            })  # fmt: skip
    return lead_id
