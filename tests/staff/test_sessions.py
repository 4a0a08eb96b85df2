"""The staff cookie in production, and both factors asked again before sensitive actions."""

import pytest

from app.staff.auth import require_recent_auth
from tests.helpers import PRODUCTION, SITE, Staff, form_token


@pytest.fixture
def app(make_app):
    """An app of each test's own: some add routes of their own to it, which an app that has
    answered requests refuses."""
    return make_app()


@pytest.fixture
def production_app(make_app):
    return make_app(**PRODUCTION, STAFF_PASSWORD_PROFILE="CHEAPEST")


def test_production_session_cookie_is_host_prefixed_secure_httponly_and_strict(
    production_app, clock
):
    staff = Staff(production_app, production_app.test_cli_runner(), clock, base_url=SITE)
    client = production_app.test_client()
    account = staff.enrol(client, staff.add(), "ana@example.com")
    response = staff.password_step(client, account)
    assert response.status_code == 303
    cookie = next(c for c in response.headers.getlist("Set-Cookie") if "staff" in c)
    assert cookie.startswith("__Host-staff=")
    attributes = [part.strip() for part in cookie.split(";")[1:]]
    assert {"Secure", "HttpOnly", "Path=/", "SameSite=Strict"} <= set(attributes)
    assert not any(part.lower().startswith("domain") for part in attributes)


def test_totp_secrets_encrypted_under_one_key_cannot_be_read_under_another(staff, account, app):
    from cryptography.fernet import InvalidToken

    from app.staff import totp

    with staff.db() as db:
        encrypted = db.execute("SELECT totp_secret FROM staff").fetchone()[0]
    with app.app_context():
        assert totp.decrypt(encrypted) == account.secret
    app.config["STAFF_TOTP_KEY"] = "another key of more than thirty-two characters"
    with app.app_context(), pytest.raises(InvalidToken):
        totp.decrypt(encrypted)


@pytest.fixture
def sensitive_app(app):
    """The app with a stand-in sensitive page, guarded as export and erasure will be (list it
    before other fixtures that make requests: routes are added before the first one)."""
    app.add_url_rule(
        "/staff/test-export", "test_export", require_recent_auth(lambda: "exported rows")
    )
    return app


def test_sensitive_action_asks_for_password_and_code_again(sensitive_app, staff, account, clock):
    client = sensitive_app.test_client()
    staff.sign_in(client, account)
    staff.backdate_sessions("verified_at", 6)
    response = client.get("/staff/test-export")
    assert response.status_code == 303 and response.headers["Location"] == "/staff/confirm"
    assert "exported rows" not in response.get_data(as_text=True)
    page = client.get("/staff/confirm").get_data(as_text=True)
    clock.advance()
    wrong = client.post(
        "/staff/confirm",
        data={
            "password": "not it at all",
            "code": account.code(clock()),
            "csrf_token": form_token(page),
        },
    )
    assert wrong.status_code == 401
    right = client.post(
        "/staff/confirm",
        data={
            "password": account.password,
            "code": account.code(clock()),
            "csrf_token": form_token(page),
        },
    )
    assert right.status_code == 303 and right.headers["Location"] == "/staff/test-export"
    assert client.get("/staff/test-export").get_data(as_text=True) == "exported rows"


def test_a_fresh_sign_in_counts_as_recent(sensitive_app, staff, account):
    client = sensitive_app.test_client()
    staff.sign_in(client, account)
    assert client.get("/staff/test-export").get_data(as_text=True) == "exported rows"


def test_sensitive_action_needs_a_full_session_first(sensitive_app, staff, account):
    client = sensitive_app.test_client()
    staff.password_step(client, account)
    response = client.get("/staff/test-export")
    assert response.headers["Location"] == "/staff/login"


@pytest.fixture
def erasing_app(app):
    """A stand-in erasure: a page with the form and the POST, both guarded."""
    guarded = require_recent_auth(lambda: "the erase form")
    app.add_url_rule("/staff/test-erase", "test_erase_form", guarded)
    erase = require_recent_auth(lambda: "erased")
    app.add_url_rule("/staff/test-erase", "test_erase", erase, methods=["POST"])
    return app


def test_after_confirming_a_post_the_person_returns_to_its_form(erasing_app, staff, account, clock):
    client = erasing_app.test_client()
    staff.sign_in(client, account)
    token = form_token(client.get("/staff/account").get_data(as_text=True))
    staff.backdate_sessions("verified_at", 6)
    response = client.post(
        "/staff/test-erase",
        data={"csrf_token": token},
        headers={"Referer": "http://localhost/staff/test-erase"},
    )
    assert response.headers["Location"] == "/staff/confirm"
    page = client.get("/staff/confirm").get_data(as_text=True)
    clock.advance()
    data = {
        "password": account.password,
        "code": account.code(clock()),
        "csrf_token": form_token(page),
    }
    assert client.post("/staff/confirm", data=data).headers["Location"] == "/staff/test-erase"
