"""Production refuses unsafe settings; everything else has safe local defaults."""

import pytest

from app import create_app
from app.config import ConfigError


def test_production_refuses_to_start_without_secret_key_and_site_url(monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("SITE_URL", raising=False)
    with pytest.raises(ConfigError, match="SECRET_KEY must be set.*SITE_URL must be set"):
        create_app({"ENV_NAME": "production"})


def test_production_refuses_the_development_secret(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app({"ENV_NAME": "production", "SECRET_KEY": "dev-only-not-secret"})


def test_production_starts_with_real_settings(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("STAFF_TOTP_KEY", "t" * 40)
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    app = create_app({"ENV_NAME": "production"})
    assert app.config["SITE_URL"] == "https://watches.example"
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_production_refuses_to_start_without_a_staff_totp_key(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "x" * 40)
    monkeypatch.setenv("SITE_URL", "https://watches.example")
    monkeypatch.delenv("STAFF_TOTP_KEY", raising=False)
    with pytest.raises(ConfigError, match="STAFF_TOTP_KEY must be set"):
        create_app({"ENV_NAME": "production"})


def test_unknown_app_env_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("APP_ENV", "staging")
    with pytest.raises(ConfigError, match="APP_ENV='staging'"):
        create_app()


def test_environment_overrides_site_phone(monkeypatch, content_db):
    monkeypatch.setenv("SITE_PHONE", "(555) 010-0000")
    app = create_app({"ENV_NAME": "testing", "CONTENT_DB": str(content_db)})
    html = app.test_client().get("/").get_data(as_text=True)
    assert "(555) 010-0000" in html
