"""Enrolment by one-time link: password rules, TOTP set-up with a server-drawn QR code, and
recovery codes shown once."""

import re

import pyotp
import pytest

from tests.helpers import PASSWORD, form_token


def link_path(link: str) -> str:
    return "/staff/enrol/" + link.rsplit("/", 1)[1]


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short pass", "Use at least 12 characters."),
        ("Qwerty123456", "too common"),
        ("1qaz2wsx3edc", "too common"),
        ("aaaaaaaaaaaaaaaa", "too common or too simple"),
    ],
)
def test_weak_password_is_refused_with_a_reason(staff, app, password, message):
    path = link_path(staff.add())
    client = app.test_client()
    response = staff.post(client, path, {"password": password, "confirm": password})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert "Choose your password" in client.get(path).get_data(as_text=True)


def test_common_password_list_has_ten_thousand_entries():
    from app.staff.accounts import common_passwords

    assert len(common_passwords()) == 10_000
    assert "password" in common_passwords()


def test_totp_step_shows_a_qr_code_and_the_otpauth_uri_as_text(staff, app):
    path = link_path(staff.add())
    client = app.test_client()
    staff.post(client, path, {"password": PASSWORD, "confirm": PASSWORD})
    html = client.get(path).get_data(as_text=True)
    assert "<svg" in html and "<script" not in html.split("<svg", 1)[1].split("</svg>")[0]
    uri = re.search(r"(otpauth://totp/[^<\s]+)", html).group(1)
    assert "issuer=US%20Watch%20Buyers%20staff" in uri.replace("&amp;", "&")
    # The same secret is shown on every reload until enrolment finishes.
    assert uri in client.get(path).get_data(as_text=True)


def test_wrong_first_code_is_refused_and_enrolment_can_go_on(staff, app, clock):
    path = link_path(staff.add())
    client = app.test_client()
    staff.post(client, path, {"password": PASSWORD, "confirm": PASSWORD})
    html = client.get(path).get_data(as_text=True)
    response = client.post(path, data={"code": "000000", "csrf_token": form_token(html)})
    assert response.status_code == 400
    assert "That code is not right" in response.get_data(as_text=True)
    secret = re.search(r"secret=([A-Z2-7]+)", html).group(1)
    code = pyotp.TOTP(secret).at(clock())
    response = client.post(path, data={"code": code, "csrf_token": form_token(html)})
    assert response.status_code == 200
    assert "Save your recovery codes" in response.get_data(as_text=True)


def test_enrolment_shows_ten_recovery_codes_once_and_the_link_then_stops_working(staff, app):
    link = staff.add()
    client = app.test_client()
    account = staff.enrol(client, link, "ana@example.com")
    assert len(set(account.recovery_codes)) == 10
    response = client.get(link_path(link))
    assert response.status_code == 404
    assert "does not work" in response.get_data(as_text=True)
    assert account.recovery_codes[0] not in response.get_data(as_text=True)


def test_expired_enrolment_link_is_refused(staff, app):
    link = staff.add()
    with staff.db() as db:
        db.execute("UPDATE staff SET enrol_expires_at = '2020-01-01T00:00:00+00:00'")
    response = app.test_client().get(link_path(link))
    assert response.status_code == 404
    assert "Choose your password" not in response.get_data(as_text=True)


def test_unknown_enrolment_link_is_refused(app):
    response = app.test_client().get("/staff/enrol/not-a-real-token")
    assert response.status_code == 404


def test_secrets_are_stored_hashed_or_encrypted(staff, account):
    with staff.db() as db:
        row = dict(db.execute("SELECT * FROM staff").fetchone())
        codes = [r[0] for r in db.execute("SELECT code_hash FROM staff_recovery_codes")]
    assert row["password_hash"].startswith("$argon2id$")
    assert account.secret not in row["totp_secret"]
    assert not set(account.recovery_codes) & set(codes)
