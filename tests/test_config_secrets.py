"""A key, secret, password or token holding a control character (a line break from an env file,
a tab, a carriage return) would end up in an error's text, the timeline, a staff e-mail and the
log (a library quotes the header it refuses): every environment refuses to start with one,
naming the setting and never its value."""

import pytest

from app import create_app
from app.config import ConfigError
from tests.helpers import PRODUCTION

SECRET_PART = "8f1c2d4b9e77a0c3"  # what must never appear in the refusal


@pytest.fixture(autouse=True)
def leads_db_of_its_own(monkeypatch, tmp_path):
    """Apps made here straight from create_app() keep their leads.db in the test's folder."""
    monkeypatch.setenv("LEADS_DB", str(tmp_path / "leads.db"))


@pytest.mark.parametrize(
    "setting, value",
    [
        ("EASYPOST_API_KEY", f"EZAK{SECRET_PART}\n"),
        ("REGISTER_API_KEY", f"rk_live_{SECRET_PART}\r\n"),
        ("EASYPOST_WEBHOOK_SECRET", f"whsec-{SECRET_PART}\tx"),
        ("EASYPOST_WEBHOOK_SECRET_PREVIOUS", f"whsec-\x0b{SECRET_PART}"),
        ("SMTP_PASSWORD", f"{SECRET_PART}\n"),
        ("SECRET_KEY", f"{SECRET_PART * 3}\n"),
        ("META_CAPI_TOKEN", f"EAAG{SECRET_PART}\x7f"),
        ("REPLICA_SECRET_ACCESS_KEY", f"wJalr/{SECRET_PART}\u2028"),
        ("PURCHASE_DATA_KEY", f"{'p' * 40}, {SECRET_PART * 3}\nq"),
    ],
)
def test_a_secret_with_a_control_character_is_refused_by_name_never_by_value(
    make_app, setting, value
):
    with pytest.raises(ConfigError) as refused:
        make_app(**{setting: value})
    message = str(refused.value)
    assert f"{setting} holds a control character" in message
    assert SECRET_PART not in message and "EZAK" not in message


@pytest.mark.parametrize("env_name", ["development", "testing", "production"])
def test_every_environment_refuses_one_from_the_environment(monkeypatch, env_name):
    for name, value in PRODUCTION.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("EASYPOST_API_KEY", f"EZAK{SECRET_PART}\n")
    with pytest.raises(ConfigError, match="EASYPOST_API_KEY holds a control character"):
        create_app({"ENV_NAME": env_name})


def test_each_such_secret_is_named_and_others_and_plain_ones_start(make_app):
    with pytest.raises(ConfigError) as refused:
        make_app(SMTP_PASSWORD="a\nb", GA4_API_SECRET="c\td", SITE_NAME="US Watch Buyers")
    message = str(refused.value)
    assert "SMTP_PASSWORD" in message and "GA4_API_SECRET" in message
    assert "SITE_NAME" not in message
    app = make_app(SMTP_PASSWORD="pä55 wörd with spaces", EASYPOST_API_KEY="EZAK" + SECRET_PART)
    assert app.config["SMTP_PASSWORD"] == "pä55 wörd with spaces"
