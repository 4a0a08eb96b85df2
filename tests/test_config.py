"""Production refuses unsafe settings; everything else has safe local defaults."""

import re
import subprocess
import sys

import pytest

from app import create_app
from app.config import ConfigError
from tests.helpers import PRODUCTION, PRODUCTION_CONTACTS, PRODUCTION_REPLICA, ROOT


@pytest.fixture(autouse=True)
def leads_db_of_its_own(monkeypatch, tmp_path):
    """Apps made here straight from create_app() (and the probes' subprocesses) keep their
    leads.db in the test's folder, never in the checkout's instance/."""
    monkeypatch.setenv("LEADS_DB", str(tmp_path / "leads.db"))


def test_production_refuses_to_start_without_secret_key_and_site_url(monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("SITE_URL", raising=False)
    with pytest.raises(ConfigError, match="SECRET_KEY must be set.*SITE_URL must be set"):
        create_app({"ENV_NAME": "production"})


def test_production_refuses_the_development_secret(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app({"ENV_NAME": "production", "SECRET_KEY": "dev-only-not-secret"})


def test_production_refuses_placeholder_contact_details(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    with pytest.raises(ConfigError) as refused:
        create_app({"ENV_NAME": "production"})  # the defaults: example.com and 555-0147
    message = str(refused.value)
    assert "SITE_EMAIL is the placeholder 'offers@example.com'" in message
    assert "SITE_PHONE is the placeholder '(212) 555-0147'" in message
    assert "SITE_PHONE_E164 is the placeholder '+12125550147'" in message


@pytest.mark.parametrize(
    "setting, value",
    [
        ("SITE_EMAIL", "hello@shop.example"),
        ("SITE_EMAIL", "hello@example.org"),
        ("SITE_EMAIL", "hello@watches.test"),
        ("SITE_PHONE", "+1 (646) 555-0199"),
        ("SITE_PHONE_E164", "+13125550100"),
    ],
)
def test_production_refuses_each_reserved_example_contact(make_app, setting, value):
    with pytest.raises(ConfigError, match=f"{setting} is the placeholder"):
        make_app(**{**PRODUCTION, setting: value})


def test_production_starts_with_real_settings(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("STAFF_TOTP_KEY", "t" * 40)
    monkeypatch.setenv("PURCHASE_DATA_KEY", "p" * 40)
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    monkeypatch.setenv("RATELIMIT_SINGLE_PROCESS", "1")  # no REDIS_URL: one process intended
    for name, value in (PRODUCTION_CONTACTS | PRODUCTION_REPLICA).items():
        monkeypatch.setenv(name, value)
    app = create_app({"ENV_NAME": "production"})
    assert app.config["SITE_URL"] == "https://watches.example"
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["SITE_PHONE"] == "(212) 908-4417"
    assert app.config["SHOW_SAMPLE_CONTENT"] is False


def test_samples_are_shown_by_default_outside_production(make_app):
    assert make_app().config["SHOW_SAMPLE_CONTENT"] is True
    assert make_app(ENV_NAME="development").config["SHOW_SAMPLE_CONTENT"] is True


@pytest.mark.parametrize("text, expected", [("0", False), ("off", False), ("yes", True)])
def test_show_sample_content_from_the_environment_is_a_bool(monkeypatch, make_app, text, expected):
    monkeypatch.setenv("SHOW_SAMPLE_CONTENT", text)
    assert make_app(**PRODUCTION).config["SHOW_SAMPLE_CONTENT"] is expected


def test_production_refuses_to_start_without_a_staff_totp_key(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    monkeypatch.delenv("STAFF_TOTP_KEY", raising=False)
    with pytest.raises(ConfigError, match="STAFF_TOTP_KEY must be set"):
        create_app({"ENV_NAME": "production"})


@pytest.mark.parametrize("keys", ["", "short", "p" * 40 + ",short"])
def test_production_refuses_to_start_without_a_long_purchase_data_key(make_app, keys):
    with pytest.raises(ConfigError, match="PURCHASE_DATA_KEY must be set"):
        make_app(**{**PRODUCTION, "PURCHASE_DATA_KEY": keys})


def test_unknown_app_env_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("APP_ENV", "staging")
    with pytest.raises(ConfigError, match="APP_ENV='staging'"):
        create_app()


def test_environment_overrides_site_phone(monkeypatch, make_app):
    monkeypatch.setenv("SITE_PHONE", "(555) 010-0000")
    app = make_app()
    html = app.test_client().get("/").get_data(as_text=True)
    assert "(555) 010-0000" in html


def test_settings_from_the_environment_are_typed_once_at_start_up(monkeypatch, make_app):
    monkeypatch.setenv("SMTP_USE_TLS", "0")
    monkeypatch.setenv("SMTP_PORT", "2525")
    monkeypatch.setenv("JOB_RETRY_INTERVALS", "5, 30")
    monkeypatch.setenv("TRUSTED_HOSTS", "watches.example, www.watches.example")
    monkeypatch.setenv("HSTS_MAX_AGE", "600")
    config = make_app().config
    assert config["SMTP_USE_TLS"] is False
    assert config["SMTP_PORT"] == 2525
    assert config["JOB_RETRY_INTERVALS"] == (5, 30)
    assert config["TRUSTED_HOSTS"] == ("watches.example", "www.watches.example")
    assert config["HSTS_MAX_AGE"] == 600


def test_a_setting_of_the_wrong_type_is_a_clear_error(make_app):
    with pytest.raises(ConfigError, match="SMTP_PORT='twenty-five' is not a valid int"):
        make_app(SMTP_PORT="twenty-five")


def test_production_trusts_its_own_host_when_none_are_configured(make_app):
    config = make_app(**{**PRODUCTION, "SITE_URL": "https://w.example"}).config
    assert config["TRUSTED_HOSTS"] == ("w.example",)
    assert config["SESSION_COOKIE_NAME"] == "__Host-session"


def test_the_web_app_never_imports_the_worker():
    """Dependencies point one way: worker/ imports app/, and app/ only names the jobs."""
    probe = "import sys; from app import create_app; create_app(); print('\\n'.join(sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert not [name for name in result.stdout.split() if name.split(".")[0] == "worker"]
    assert not subprocess.run(
        ["grep", "-rnE", r"^\s*(from|import) worker", "app/"], cwd=ROOT, capture_output=True
    ).stdout


def test_the_queue_imports_none_of_the_apps_features():
    """app/queue.py is a leaf: features import it, it imports only the extensions and the
    Redis rest (a leaf too)."""
    source = (ROOT / "app" / "queue.py").read_text()
    imported = re.findall(r"^\s*(?:from|import) (app[\w.]*)", source, flags=re.M)
    assert imported == ["app.extensions", "app.redis_guard"]


@pytest.mark.parametrize("host", ["smtp.relay.example", "10.0.0.5"])
def test_production_refuses_mail_in_clear_to_a_relay_off_this_machine(make_app, host):
    with pytest.raises(ConfigError, match="SMTP_USE_TLS must be on"):
        make_app(**{**PRODUCTION, "SMTP_HOST": host, "SMTP_USE_TLS": "0"})


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_production_allows_mail_in_clear_to_a_relay_on_this_machine(make_app, host):
    app = make_app(**{**PRODUCTION, "SMTP_HOST": host, "SMTP_USE_TLS": "0"})
    assert app.config["SMTP_USE_TLS"] is False


def test_production_refuses_to_start_without_the_buyers_legal_name_and_address(make_app):
    for missing in ("BUSINESS_LEGAL_NAME", "BUSINESS_ADDRESS"):
        with pytest.raises(ConfigError, match="the bill of sale names the buyer by both"):
            make_app(**{**PRODUCTION, missing: ""})


@pytest.mark.parametrize(
    "settings, refusal",
    [
        ({"REPLICA_URL": ""}, "REPLICA_URL must name the off-site replica's bucket"),
        ({"REPLICA_URL": "https://bucket.example/x"}, "REPLICA_URL must name"),
        ({"REPLICA_ENCRYPTION_KEY": ""}, "REPLICA_ENCRYPTION_KEY must be 32 bytes"),
        ({"REPLICA_ENCRYPTION_KEY": "not base64!"}, "REPLICA_ENCRYPTION_KEY must be base64"),
        ({"REPLICA_ENCRYPTION_KEY": "c2hvcnQ="}, "REPLICA_ENCRYPTION_KEY must be 32 bytes"),
        ({"REPLICA_ENDPOINT": "http://s3.example.net"}, "REPLICA_ENDPOINT must be https://"),
    ],
)
def test_production_refuses_to_start_without_a_usable_off_site_replica(make_app, settings, refusal):
    with pytest.raises(ConfigError, match=refusal):
        make_app(**{**PRODUCTION, **settings})


@pytest.mark.parametrize("endpoint", ["https://s3.example.net", "http://127.0.0.1:9000"])
def test_production_replicates_over_https_or_to_a_gateway_on_this_machine(make_app, endpoint):
    assert make_app(**{**PRODUCTION, "REPLICA_ENDPOINT": endpoint}).config["REPLICA_ENDPOINT"]


def test_production_refuses_to_ask_the_market_data_provider_in_clear(make_app):
    with pytest.raises(ConfigError, match="MARKET_DATA_URL must be https://"):
        make_app(**{**PRODUCTION, "MARKET_DATA_URL": "http://prices.example.net/v1/price"})


@pytest.mark.parametrize("url", ["", "https://prices.example.net/v1/price"])
def test_production_starts_without_a_market_data_provider_or_with_one_over_https(make_app, url):
    assert make_app(**{**PRODUCTION, "MARKET_DATA_URL": url}).config["MARKET_DATA_URL"] == url


MAILIN = {
    "MAILIN_ENABLED": "1",
    "EASYPOST_API_KEY": "EZAK-live-0c4d",
    "EASYPOST_WEBHOOK_SECRET": "whsec-live-81f2",
    "MAILIN_CARRIER_ACCOUNT": "ca_ups_business",
    "MAILIN_POLICY_REFERENCE": "HV-PARCEL-2026-0417",
    "MAILIN_MAX_VALUE": "25000",
    "MAILIN_RECEIVING_ADDRESS": "USWB Receiving; 41 Orchard Street; ; New York; NY; 10002; "
    "2129084417",
}


def test_production_refuses_the_sale_by_mail_without_each_setting_it_needs_named(make_app):
    with pytest.raises(ConfigError) as refused:
        make_app(**PRODUCTION, MAILIN_ENABLED="1")
    message = str(refused.value)
    needed = (
        "EASYPOST_API_KEY", "EASYPOST_WEBHOOK_SECRET", "MAILIN_CARRIER_ACCOUNT",
        "MAILIN_POLICY_REFERENCE", "MAILIN_MAX_VALUE", "MAILIN_RECEIVING_ADDRESS",
    )  # fmt: skip
    for name in needed:
        assert f"{name} must be" in message


@pytest.mark.parametrize(
    "change, refusal",
    [
        ({"MAILIN_RECEIVING_ADDRESS": "USWB; 41 Orchard Street; New York; NY; 10002"},
         "it has 5 parts separated by ';', not 7"),
        ({"MAILIN_RECEIVING_ADDRESS": "US Watch Buyers; 41 Orchard St; ; New York; NY; 10002; 1"},
         "name must not say what a parcel holds"),
        ({"MAILIN_RECEIVING_ADDRESS": " ; 41 Orchard St; ; ; NY; 10002; 2129084417"},
         "its name, city are empty"),
        ({"EASYPOST_API_BASE": "http://api.easypost.com/v2"}, "EASYPOST_API_BASE must be https://"),
        ({"EASYPOST_API_KEY": "EZTK" + "q7" * 27}, "EASYPOST_API_KEY must be a production key"),
        ({"MAILIN_MAX_VALUE": "0"}, "MAILIN_MAX_VALUE must be set"),
        ({"MAILIN_ARRIVAL_VIDEO_MAX_MB": "30"},
         "MAILIN_ARRIVAL_VIDEO_MAX_MB must leave the arrival form's 8 photos room within the "
         "request limit: at most 21"),
    ],
)  # fmt: skip
def test_production_refuses_a_sale_by_mail_set_up_wrong(make_app, change, refusal):
    with pytest.raises(ConfigError, match=re.escape(refusal)):
        make_app(**PRODUCTION, **MAILIN | change)


def test_production_sells_by_mail_with_everything_it_needs(make_app):
    app = make_app(**PRODUCTION, **MAILIN)
    assert app.config["MAILIN_ENABLED"] is True and app.config["MAILIN_MAX_VALUE"] == 25000


REGISTER = {
    "REGISTER_API_URL": "https://api.register.example/v1",
    "REGISTER_API_KEY": "reg-live-51a9",
    "REGISTER_PROVIDER_NAME": "The Watch Register",
}


@pytest.mark.parametrize(
    "change, refusal",
    [
        ({"REGISTER_API_URL": "http://api.register.example/v1"},
         "REGISTER_API_URL must be https://"),
        ({"REGISTER_API_KEY": ""}, "REGISTER_API_KEY must be set"),
        ({"REGISTER_PROVIDER_NAME": ""}, "REGISTER_PROVIDER_NAME must be set"),
    ],
)  # fmt: skip
def test_production_refuses_a_register_api_set_up_wrong(make_app, change, refusal):
    with pytest.raises(ConfigError, match=re.escape(refusal)):
        make_app(**PRODUCTION, **REGISTER | change)


def test_production_asks_the_register_by_api_with_everything_it_needs(make_app):
    app = make_app(**PRODUCTION, **REGISTER, REGISTER_CHECK_MAX_AGE_DAYS="14")
    assert app.config["REGISTER_CHECK_MAX_AGE_DAYS"] == 14
    assert app.config["REGISTER_API_TIMEOUT"] == 10.0
