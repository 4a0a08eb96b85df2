"""Signing in: password, then a TOTP or recovery code; the leads page behind both factors.
Attack tests: replayed codes, session fixation, revoked and expired sessions."""

import re

from tests.helpers import form_token


def test_enrolled_account_signs_in_with_password_and_code_and_sees_leads(
    staff, account, app, add_lead
):
    add_lead(full_name="Grace <b>Hopper</b>")
    client = app.test_client()
    response = staff.sign_in(client, account)
    assert response.headers["Location"] == "/staff/leads"
    page = client.get("/staff/leads")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Grace &lt;b&gt;Hopper&lt;/b&gt;" in html
    assert "Submariner 126610LN" in html
    assert page.headers["Cache-Control"] == "no-store"
    assert "noindex" in page.headers["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in html


def test_staff_redirects_to_the_leads_page(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    assert client.get("/staff").headers["Location"] == "/staff/leads"


def test_password_alone_does_not_open_the_leads_page(staff, account, app):
    client = app.test_client()
    assert staff.password_step(client, account).headers["Location"] == "/staff/login/code"
    response = client.get("/staff/leads")
    assert response.status_code == 303
    assert response.headers["Location"] == "/staff/login"


def test_wrong_password_gives_the_same_answer_whether_or_not_the_email_has_an_account(
    staff, account, app
):
    client = app.test_client()
    known = staff.password_step(client, account, password="not the right one at all")
    ghost = staff.post(
        client, "/staff/login", {"email": "ghost@example.com", "password": account.password}
    )
    assert known.status_code == ghost.status_code == 401

    def answer(response) -> str:
        html = re.sub(r'name="csrf_token" type="hidden" value="[^"]+"', "", response.text)
        return html.replace("ghost@example.com", account.email)

    assert answer(known) == answer(ghost)
    assert "do not match an account" in answer(known)


def test_replayed_totp_code_is_refused(staff, account, app, clock):
    first = app.test_client()
    staff.sign_in(first, account)
    code = account.code(clock())
    second = app.test_client()
    assert staff.password_step(second, account).status_code == 303
    response = staff.code_step(second, code)
    assert response.status_code == 401
    assert "already been used" in response.get_data(as_text=True)
    assert second.get("/staff/leads").status_code == 303


def test_code_older_than_the_last_used_one_is_refused(staff, account, app, clock):
    client = app.test_client()
    staff.sign_in(client, account)
    earlier = account.code(clock() - 30)
    other = app.test_client()
    staff.password_step(other, account)
    assert staff.code_step(other, earlier).status_code == 401


def test_codes_one_step_either_side_are_accepted_and_two_steps_are_not(staff, account, app, clock):
    client = app.test_client()
    clock.advance(120)
    staff.password_step(client, account)
    assert staff.code_step(client, account.code(clock() - 60)).status_code == 401
    assert staff.code_step(client, account.code(clock() + 60)).status_code == 401
    assert staff.code_step(client, account.code(clock() - 30)).status_code == 303


def test_a_recovery_code_works_once(staff, account, app):
    code = account.recovery_codes[3]
    client = app.test_client()
    staff.password_step(client, account)
    assert staff.code_step(client, code.upper().replace("-", " ")).status_code == 303
    assert client.get("/staff/leads").status_code == 200
    again = app.test_client()
    staff.password_step(again, account)
    response = staff.code_step(again, code)
    assert response.status_code == 401
    assert again.get("/staff/leads").status_code == 303
    assert "9 of 10" in client.get("/staff/account").get_data(as_text=True)


def test_a_preset_session_id_is_not_kept_at_sign_in(staff, account, app):
    client = app.test_client()
    client.set_cookie("staff", "attacker-chosen-session-id")
    staff.password_step(client, account)
    after_password = client.get_cookie("staff").value
    staff.clock.advance()
    staff.code_step(client, account.code(staff.clock()))
    signed_in = client.get_cookie("staff").value
    assert len({"attacker-chosen-session-id", after_password, signed_in}) == 3
    attacker = app.test_client()
    for stale in ("attacker-chosen-session-id", after_password):
        attacker.set_cookie("staff", stale)
        assert attacker.get("/staff/leads").status_code == 303
    assert client.get("/staff/leads").status_code == 200


def test_session_ids_are_stored_only_as_digests(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    token = client.get_cookie("staff").value
    with staff.db() as db:
        stored = [row[0] for row in db.execute("SELECT token_hash FROM staff_sessions")]
    assert token not in stored and all(len(value) == 64 for value in stored)


def test_signing_out_ends_the_session_on_the_server(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    token = client.get_cookie("staff").value
    page = client.get("/staff/leads").get_data(as_text=True)
    assert client.post("/staff/logout", data={"csrf_token": form_token(page)}).status_code == 303
    replay = app.test_client()
    replay.set_cookie("staff", token)
    assert replay.get("/staff/leads").status_code == 303


def test_revoked_sessions_are_refused_at_once(staff, account, app, runner):
    phone, laptop = app.test_client(), app.test_client()
    staff.sign_in(phone, account)
    staff.sign_in(laptop, account)
    result = runner.invoke(args=["staff", "revoke", account.email])
    assert "Ended 2 sessions" in result.output
    assert phone.get("/staff/leads").status_code == 303
    assert laptop.get("/staff/leads").status_code == 303


def test_idle_session_is_refused_after_thirty_minutes(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    staff.backdate_sessions("last_seen_at", 29)
    assert client.get("/staff/leads").status_code == 200
    staff.backdate_sessions("last_seen_at", 31)
    assert client.get("/staff/leads").status_code == 303
    staff.backdate_sessions("last_seen_at", 0)  # ended for good, not only turned away once
    assert client.get("/staff/leads").status_code == 303


def test_session_is_refused_twelve_hours_after_sign_in_even_when_busy(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    staff.backdate_sessions("created_at", 12 * 60 + 1)
    assert client.get("/staff/leads").status_code == 303


def test_disabled_account_cannot_sign_in_and_loses_its_sessions(staff, account, app, runner):
    client = app.test_client()
    staff.sign_in(client, account)
    assert runner.invoke(args=["staff", "disable", account.email]).exit_code == 0
    assert client.get("/staff/leads").status_code == 303
    assert staff.password_step(app.test_client(), account).status_code == 401


def test_account_page_ends_another_session(staff, account, app):
    phone, laptop = app.test_client(), app.test_client()
    staff.sign_in(phone, account)
    staff.sign_in(laptop, account)
    page = laptop.get("/staff/account").get_data(as_text=True)
    assert page.count("End session") == 1 and "This browser" in page
    with staff.db() as db:
        phone_id = db.execute("SELECT min(id) FROM staff_sessions WHERE aal = 2").fetchone()[0]
    response = laptop.post(
        f"/staff/account/sessions/{phone_id}/end", data={"csrf_token": form_token(page)}
    )
    assert response.status_code == 303
    assert phone.get("/staff/leads").status_code == 303
    assert laptop.get("/staff/leads").status_code == 200


def test_password_step_expires_if_no_code_follows_within_ten_minutes(staff, account, app):
    client = app.test_client()
    staff.password_step(client, account)
    page = client.get("/staff/login/code").get_data(as_text=True)
    staff.backdate_sessions("created_at", 11)
    staff.clock.advance()
    data = {"code": account.code(staff.clock()), "csrf_token": form_token(page)}
    response = client.post("/staff/login/code", data=data)
    assert response.headers["Location"] == "/staff/login"
    assert client.get("/staff/leads").status_code == 303


def test_a_csrf_token_from_before_sign_in_is_refused_after_it(staff, account, app):
    client = app.test_client()
    before = form_token(client.get("/staff/login").get_data(as_text=True))
    staff.sign_in(client, account)
    response = client.post("/staff/logout", data={"csrf_token": before})
    assert response.status_code == 400
    assert client.get("/staff/leads").status_code == 200
