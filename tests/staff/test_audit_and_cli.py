"""`flask staff` commands, the append-only audit log, and what never reaches logs or audit."""

import logging
import re
import sqlite3
import threading
import urllib.request

import pytest
from werkzeug.serving import make_server

from app.leads import audit
from tests.helpers import form_token


def test_add_prints_the_enrolment_link_as_its_last_line(runner):
    result = runner.invoke(args=["staff", "add", "bo@example.com", "--name", "Bo Chen"])
    assert result.exit_code == 0
    assert re.fullmatch(
        r"http://127\.0\.0\.1:5000/staff/enrol/[A-Za-z0-9_-]{43}", result.output.splitlines()[-1]
    )


def test_add_refuses_a_second_account_for_the_same_email(runner, staff):
    staff.add("bo@example.com")
    result = runner.invoke(args=["staff", "add", "BO@example.com", "--name", "Bo"])
    assert result.exit_code == 1
    assert "already has an account" in result.output


@pytest.mark.parametrize("command", ["revoke", "reset", "disable"])
def test_commands_on_an_unknown_email_say_so(runner, command):
    result = runner.invoke(args=["staff", command, "nobody@example.com"])
    assert result.exit_code == 1
    assert "No staff account for nobody@example.com" in result.output


def test_list_shows_each_account_with_its_status(runner, staff, account):
    staff.add("bo@example.com", "Bo Chen")
    staff.sign_in(staff.app.test_client(), account)
    output = runner.invoke(args=["staff", "list"]).output
    assert re.search(r"ana@example.com\s+Ana Lima\s+active\s+1 open sessions", output)
    assert re.search(r"bo@example.com\s+Bo Chen\s+enrolment pending\s+0 open", output)


def test_reset_stops_old_password_totp_and_recovery_codes_and_gives_a_new_link(
    staff, account, app, runner, clock
):
    client = app.test_client()
    staff.sign_in(client, account)
    result = runner.invoke(args=["staff", "reset", account.email])
    assert result.exit_code == 0
    new_link = result.output.splitlines()[-1]
    assert client.get("/staff/leads").status_code == 303
    assert staff.password_step(app.test_client(), account).status_code == 401
    with staff.db() as db:
        assert db.execute("SELECT count(*) FROM staff_recovery_codes").fetchone()[0] == 0
    renewed = staff.enrol(app.test_client(), new_link, account.email, "a different long passphrase")
    assert renewed.secret != account.secret
    assert staff.password_step(app.test_client(), account).status_code == 401
    other = app.test_client()
    staff.password_step(other, renewed)
    assert staff.code_step(other, account.recovery_codes[0]).status_code == 401


def test_audit_records_sign_in_events_and_the_cli_prints_them(staff, account, app, runner):
    client = app.test_client()
    staff.password_step(client, account, password="wrong wrong wrong")
    staff.password_step(client, account)
    staff.code_step(client, "999999")
    staff.sign_in(app.test_client(), account)
    runner.invoke(args=["staff", "revoke", account.email])
    with app.app_context():
        actions = [entry["action"] for entry in audit.entries()]
    assert actions == [
        "account_added",
        "enrolled",
        "sign_in_failed",
        "code_failed",
        "signed_in",
        "sessions_revoked",
    ]
    output = runner.invoke(args=["staff", "audit", "--staff", account.email]).output
    assert re.search(r"signed_in\s+ana@example.com\s+127\.0\.0\.1\s+factor=totp", output)
    assert "No audit entries match." in runner.invoke(args=["staff", "audit", "--lead", "7"]).output


def test_audit_filters_by_lead_and_staff(app, runner, staff, account):
    with app.app_context():
        staff_id = audit.entries()[0]["staff_id"]
        audit.record("lead_viewed", staff_id, lead_id=7, address="203.0.113.5")
        audit.record("lead_viewed", None, lead_id=8)
        assert [e["lead_id"] for e in audit.entries(lead_id=7)] == [7]
        assert {e["lead_id"] for e in audit.entries(staff_id=staff_id)} == {None, 7}
    output = runner.invoke(args=["staff", "audit", "--lead", "7"]).output
    assert "lead_viewed" in output and "lead #7" in output and "203.0.113.5" in output


def test_the_audit_log_refuses_updates_and_deletes(app):
    with app.app_context():
        audit.record("signed_in", 1, address="198.51.100.1")
    db = sqlite3.connect(app.config["LEADS_DB"])
    for statement in ("UPDATE audit SET action = 'nothing'", "DELETE FROM audit"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
    db.close()
    with app.app_context():
        assert [e["action"] for e in audit.entries()] == ["signed_in"]


def test_logs_and_audit_never_hold_passwords_codes_secrets_or_tokens(
    staff, app, runner, clock, caplog
):
    caplog.set_level(logging.DEBUG)
    link = staff.add("ana@example.com")
    client = app.test_client()
    account = staff.enrol(client, link, "ana@example.com")
    staff.password_step(client, account, password="a wrong guess of a password")
    staff.sign_in(client, account)
    session_token = client.get_cookie("staff").value
    other = app.test_client()
    staff.password_step(other, account)
    staff.code_step(other, account.recovery_codes[0])
    page = client.get("/staff/account").get_data(as_text=True)
    client.post("/staff/logout", data={"csrf_token": form_token(page)})
    with app.app_context():
        recorded = repr(audit.entries())
    logged = caplog.text + recorded
    secrets = [
        account.password,
        "a wrong guess of a password",
        account.secret,
        link.rsplit("/", 1)[1],
        session_token,
        account.code(clock()),
        account.code(clock() - 30),
        *account.recovery_codes,
    ]
    assert all(secret not in logged for secret in secrets)
    assert "signed_in" in recorded and "sign_in_failed" in recorded


def test_request_logs_hide_enrolment_tokens(app, staff, caplog):
    link = staff.add()
    token = link.rsplit("/", 1)[1]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    caplog.set_level(logging.INFO, logger="werkzeug")
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/staff/enrol/{token}"):
            pass
    finally:
        server.shutdown()
    assert "/staff/enrol/[token hidden]" in caplog.text
    assert token not in caplog.text
