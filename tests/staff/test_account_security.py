"""The account page's own security: a new password and new recovery codes, each behind a recent
sign-in (both factors within STAFF_REAUTH_MINUTES), as plain forms that work without JavaScript,
and each recorded in the audit log."""

import re

import pytest

from app.leads import audit
from tests.helpers import form_token

NEW_PASSWORD = "a quite different passphrase"
PASSWORD_PAGE = "/staff/account/password"
CODES_PAGE = "/staff/account/recovery-codes"
CODE = re.compile(r"<li>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})</li>")


def change_password(staff, client, current: str, new: str, confirm: str | None = None):
    data = {"current_password": current, "password": new, "confirm": confirm or new}
    return staff.post(client, PASSWORD_PAGE, data)


def signs_in_with(staff, app, account, password: str) -> bool:
    return staff.password_step(app.test_client(), account, password=password).status_code == 303


def actions(app) -> list[str]:
    with app.app_context():
        return [entry["action"] for entry in audit.entries()]


def test_the_account_page_links_to_both_as_plain_links(signed_in):
    html = signed_in.get("/staff/account").get_data(as_text=True)
    assert f'href="{PASSWORD_PAGE}"' in html and f'href="{CODES_PAGE}"' in html


def test_a_new_password_replaces_the_old_one_after_the_current_one_is_given(
    staff, account, app, signed_in
):
    other = app.test_client()
    staff.sign_in(other, account)
    page = signed_in.get(PASSWORD_PAGE).get_data(as_text=True)
    assert '<form method="post"' in page and 'name="csrf_token"' in page
    response = change_password(staff, signed_in, account.password, NEW_PASSWORD)
    assert response.status_code == 303 and response.headers["Location"] == "/staff/account"
    assert "Your password is changed" in signed_in.get("/staff/account").get_data(as_text=True)
    assert not signs_in_with(staff, app, account, account.password)
    assert signs_in_with(staff, app, account, NEW_PASSWORD)
    assert other.get("/staff/leads").status_code == 303  # every other session has ended
    assert signed_in.get("/staff/leads").status_code == 200
    assert "password_changed" in actions(app)


@pytest.mark.parametrize(
    ("current", "new", "confirm", "status", "message"),
    [
        ("not my password at all", NEW_PASSWORD, None, 401, "current password is not right"),
        (None, "Qwerty123456", None, 400, "too common or too simple"),
        (None, "short", None, 400, "at least 12 characters"),
        (None, NEW_PASSWORD, "another new passphrase", 400, "The two passwords differ."),
    ],
    ids=["wrong current password", "common password", "too short", "mismatch"],
)
def test_a_password_change_is_refused_and_changes_nothing(
    staff, account, app, signed_in, current, new, confirm, status, message
):
    response = change_password(staff, signed_in, current or account.password, new, confirm)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert signs_in_with(staff, app, account, account.password)
    assert "password_changed" not in actions(app)


def test_a_wrong_current_password_is_audited(staff, app, signed_in):
    change_password(staff, signed_in, "not my password at all", NEW_PASSWORD)
    assert "password_change_refused" in actions(app)


def test_new_recovery_codes_replace_every_old_one_and_are_shown_once(
    staff, account, app, signed_in
):
    page = signed_in.get(CODES_PAGE).get_data(as_text=True)
    assert '<form method="post"' in page and not CODE.search(page)
    response = staff.post(signed_in, CODES_PAGE, {})
    assert response.status_code == 200
    codes = CODE.findall(response.get_data(as_text=True))
    assert len(set(codes)) == 10 and not set(codes) & set(account.recovery_codes)
    assert not CODE.search(signed_in.get(CODES_PAGE).get_data(as_text=True))
    assert "10 of 10" in signed_in.get("/staff/account").get_data(as_text=True)
    old, new = app.test_client(), app.test_client()
    staff.password_step(old, account)
    assert staff.code_step(old, account.recovery_codes[0]).status_code == 401
    staff.password_step(new, account)
    assert staff.code_step(new, codes[0]).status_code == 303
    assert "recovery_codes_renewed" in actions(app)


@pytest.mark.parametrize(
    ("path", "data"),
    [
        (PASSWORD_PAGE, {"current_password": "x", "password": NEW_PASSWORD, "confirm": "x"}),
        (CODES_PAGE, {}),
    ],
    ids=["password", "recovery codes"],
)
def test_both_need_a_recent_sign_in_first(staff, account, app, signed_in, path, data):
    token = form_token(signed_in.get(path).get_data(as_text=True))
    staff.backdate_sessions("verified_at", 6)
    assert signed_in.get(path).headers["Location"] == "/staff/confirm"
    data = data | {"current_password": account.password} if data else {}
    posted = staff.request(signed_in, "POST", path, data={**data, "csrf_token": token})
    assert posted.status_code == 303 and posted.headers["Location"] == "/staff/confirm"
    assert signs_in_with(staff, app, account, account.password)
    other = app.test_client()
    staff.password_step(other, account)
    assert staff.code_step(other, account.recovery_codes[1]).status_code == 303


@pytest.mark.parametrize(
    ("path", "data"),
    [(PASSWORD_PAGE, {"password": NEW_PASSWORD, "confirm": NEW_PASSWORD}), (CODES_PAGE, {})],
    ids=["password", "recovery codes"],
)
def test_both_refuse_a_post_without_its_csrf_token(staff, account, app, signed_in, path, data):
    if data:
        data = data | {"current_password": account.password}
    response = staff.request(signed_in, "POST", path, data=data)
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    assert signs_in_with(staff, app, account, account.password)
    other = app.test_client()
    staff.password_step(other, account)
    assert staff.code_step(other, account.recovery_codes[1]).status_code == 303
