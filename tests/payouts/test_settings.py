"""The payout by bank API is a setting: unset, staff record a payment made elsewhere as always;
`increase`, production refuses to start without each of its settings, named, with the bank's
key sent over plain HTTP, or pointed at the bank's sandbox, where no money moves; any other
provider is refused everywhere."""

from __future__ import annotations

import re

import pytest

from app.config import ConfigError
from tests.helpers import PRODUCTION

INCREASE = {
    "PAYOUT_PROVIDER": "increase",
    "PAYOUT_MAX_AMOUNT": "25000",
    "PAYOUT_DAILY_LIMIT": "60000",
    "INCREASE_API_KEY": "inc_live_key_7Hq2vNw9XcR4",
    "INCREASE_ACCOUNT_NUMBER_ID": "account_number_v18nkfqm6afpsrvy82b2",
    "INCREASE_WEBHOOK_SECRET": "whsec-live-5ab1",
}


def test_production_refuses_payouts_by_bank_api_without_each_setting_named(make_app):
    with pytest.raises(ConfigError) as refused:
        make_app(**PRODUCTION, PAYOUT_PROVIDER="increase")
    message = str(refused.value)
    for name in (
        "INCREASE_API_KEY", "INCREASE_ACCOUNT_NUMBER_ID", "INCREASE_WEBHOOK_SECRET",
        "PAYOUT_MAX_AMOUNT", "PAYOUT_DAILY_LIMIT",
    ):  # fmt: skip
        assert f"{name} must be set" in message


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"INCREASE_API_BASE": "http://api.increase.com"}, "INCREASE_API_BASE must be https://"),
        # The bank's sandbox moves no money: sellers would be told they were paid.
        (
            {"INCREASE_API_BASE": "https://sandbox.increase.com"},
            "INCREASE_API_BASE must not be the bank's sandbox (sandbox.increase.com)",
        ),
        (
            {"INCREASE_API_BASE": "https://SANDBOX.increase.com:443/"},
            "INCREASE_API_BASE must not be the bank's sandbox (sandbox.increase.com)",
        ),
        ({"INCREASE_API_KEY": ""}, "INCREASE_API_KEY must be set"),
        ({"PAYOUT_MAX_AMOUNT": "0"}, "PAYOUT_MAX_AMOUNT must be set"),
        ({"PAYOUT_DAILY_LIMIT": "-1"}, "PAYOUT_DAILY_LIMIT must be set"),
    ],
)
def test_production_refuses_payouts_set_up_wrong(make_app, change, refusal):
    with pytest.raises(ConfigError, match=re.escape(refusal)):
        make_app(**PRODUCTION, **INCREASE | change)


def test_production_pays_by_bank_api_with_everything_it_needs(make_app):
    app = make_app(**PRODUCTION, **INCREASE)
    assert app.config["PAYOUT_MAX_AMOUNT"] == 25000 and app.config["PAYOUT_DAILY_LIMIT"] == 60000
    assert app.config["INCREASE_API_BASE"] == "https://api.increase.com"


def test_production_without_a_provider_needs_none_of_the_banks_settings(make_app):
    assert make_app(**PRODUCTION).config["PAYOUT_PROVIDER"] == ""


@pytest.mark.parametrize("env", ["testing", "production"])
def test_a_provider_the_site_does_not_know_is_refused(make_app, env):
    settings = PRODUCTION if env == "production" else {}
    with pytest.raises(ConfigError, match="PAYOUT_PROVIDER='stripe' is not one of empty, increase"):
        make_app(**settings | INCREASE | {"PAYOUT_PROVIDER": "stripe"})


def test_a_limit_that_is_not_whole_dollars_is_refused(make_app):
    with pytest.raises(ConfigError, match="PAYOUT_MAX_AMOUNT='25000.50' is not a valid int"):
        make_app(**INCREASE | {"PAYOUT_MAX_AMOUNT": "25000.50"})
