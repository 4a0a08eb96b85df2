"""Brute force: password and code floods meet growing delays, per account and address and per
address, without telling which e-mails have accounts; parallel guesses cannot slip through one
wait; an attacker elsewhere cannot keep the owner waiting; a per-account ceiling alerts staff."""

import re
import threading
import time

import pytest

from app.leads import audit
from app.staff import throttle
from tests.helpers import Staff, form_token, lead_work_done
from worker import jobs

WRONG = "definitely not the password"


def flood_passwords(staff, client, email: str, count: int) -> list[int]:
    return [
        staff.post(client, "/staff/login", {"email": email, "password": WRONG}).status_code
        for _ in range(count)
    ]


def test_wrong_password_flood_is_throttled_and_then_even_the_right_password_waits(
    staff, account, app
):
    client = app.test_client()
    statuses = flood_passwords(staff, client, account.email, throttle.ACCOUNT_FREE_TRIES + 2)
    assert statuses[: throttle.ACCOUNT_FREE_TRIES] == [401] * throttle.ACCOUNT_FREE_TRIES
    assert statuses[-1] == 429
    response = staff.password_step(client, account)
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1
    assert "Too many attempts" in response.get_data(as_text=True)
    assert client.get("/staff/login/code").status_code == 303  # no session was started


def test_delays_grow_with_each_failure():
    counter = throttle.Counter("password:test", free_tries=3)
    at = time.time()
    waits = [counter.wait({"failures": n, "last_failure": at}, at) for n in range(1, 9)]
    assert waits[:2] == [0, 0]
    assert waits[2:] == sorted(waits[2:]) and waits[-1] >= 16
    assert max(waits) <= throttle.MAX_DELAY


def test_unknown_email_is_throttled_exactly_like_a_real_one(staff, account, app):
    real = flood_passwords(staff, app.test_client(), account.email, 5)
    ghost = flood_passwords(staff, app.test_client(), "ghost@example.com", 5)
    assert real == ghost


def test_one_address_trying_many_accounts_is_throttled(staff, app):
    client = app.test_client()
    statuses = [
        flood_passwords(staff, client, f"guess{n}@example.com", 1)[0]
        for n in range(throttle.ADDRESS_FREE_TRIES + 1)
    ]
    assert statuses[:-1] == [401] * throttle.ADDRESS_FREE_TRIES
    assert statuses[-1] == 429


def test_wrong_code_flood_is_throttled_and_then_even_the_right_code_waits(
    staff, account, app, clock
):
    client = app.test_client()
    assert staff.password_step(client, account).status_code == 303
    statuses = [staff.code_step(client, "000000").status_code for _ in range(5)]
    assert statuses[:3] == [401, 401, 401] and statuses[-1] == 429
    clock.advance()
    response = staff.code_step(client, account.code(clock()))
    assert response.status_code == 429
    assert client.get("/staff/leads").status_code == 303


def test_the_wait_passes_and_a_right_answer_clears_the_account_count_from_that_address(
    staff, account, app
):
    client = app.test_client()
    flood_passwords(staff, client, account.email, throttle.ACCOUNT_FREE_TRIES + 1)
    with staff.db() as db:  # the wait has passed
        db.execute("UPDATE staff_throttle SET last_failure = last_failure - 60")
    assert staff.password_step(client, account).status_code == 303
    with staff.db() as db:
        counts = dict(db.execute("SELECT key, failures FROM staff_throttle"))
    assert not [key for key in counts if key.startswith("password:")]
    failures = throttle.ACCOUNT_FREE_TRIES  # neither the refused try nor the right one counts
    assert counts["address:127.0.0.1"] == failures
    assert [n for key, n in counts.items() if key.startswith("password-ceiling:")] == [failures]


@pytest.mark.parametrize("email", ["ana@example.com", "ghost@example.com"])
def test_throttle_keys_never_hold_the_email_typed(staff, account, app, email):
    flood_passwords(staff, app.test_client(), email, 2)
    with staff.db() as db:
        keys = " ".join(row[0] for row in db.execute("SELECT key FROM staff_throttle"))
    assert email not in keys and re.search(r"password:[0-9a-f]{64}", keys)


def from_address(client, address: str):
    client.environ_base["REMOTE_ADDR"] = address
    return client


def wrong_passwords_at_once(staff, app, email: str, count: int) -> list[int]:
    """`count` browsers, each holding its form, post a wrong password at the same moment."""
    clients = [app.test_client() for _ in range(count)]
    tokens = [form_token(staff.request(client, "GET", "/staff/login").text) for client in clients]
    start = threading.Barrier(count)
    statuses = [0] * count

    def guess(n: int) -> None:
        start.wait()
        data = {"email": email, "password": WRONG, "csrf_token": tokens[n]}
        statuses[n] = staff.request(clients[n], "POST", "/staff/login", data=data).status_code

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_parallel_wrong_passwords_get_no_more_checks_than_the_free_tries(staff, account, app):
    statuses = wrong_passwords_at_once(staff, app, account.email, 16)
    assert statuses.count(401) <= throttle.ACCOUNT_FREE_TRIES
    assert statuses.count(429) == 16 - statuses.count(401)


def test_an_attackers_wrong_passwords_from_one_address_do_not_delay_the_owner_at_another(
    staff, account, app
):
    attacker = from_address(app.test_client(), "203.0.113.66")
    statuses = flood_passwords(staff, attacker, account.email, throttle.ACCOUNT_FREE_TRIES + 3)
    assert statuses[-1] == 429
    owner = from_address(app.test_client(), "198.51.100.20")
    assert staff.password_step(owner, account).status_code == 303


def test_an_attackers_wrong_codes_from_one_address_do_not_delay_the_owners_code_at_another(
    staff, account, app, clock
):
    attacker = from_address(app.test_client(), "203.0.113.66")
    staff.password_step(attacker, account)
    statuses = [staff.code_step(attacker, "000000").status_code for _ in range(5)]
    assert statuses[-1] == 429
    owner = from_address(app.test_client(), "198.51.100.20")
    staff.sign_in(owner, account)
    assert owner.get("/staff/leads").status_code == 200


def test_failures_from_many_addresses_stop_at_the_accounts_ceiling_and_alert_staff(
    make_app, mail_settings, smtp_server, clock
):
    app = make_app(**mail_settings, STAFF_EMAIL="security@watches.example")
    staff = Staff(app, app.test_cli_runner(), clock)
    account = staff.account()
    statuses, address = [], 0
    while len(statuses) < throttle.ACCOUNT_CEILING:
        address += 1
        client = from_address(app.test_client(), f"198.51.100.{address}")
        tries = min(throttle.ACCOUNT_FREE_TRIES, throttle.ACCOUNT_CEILING - len(statuses))
        statuses += flood_passwords(staff, client, account.email, tries)
    assert set(statuses) == {401}  # no address was ever made to wait
    fresh = from_address(app.test_client(), "192.0.2.200")
    assert flood_passwords(staff, fresh, account.email, 1) == [429]
    assert staff.password_step(fresh, account).status_code == 429  # even the right one waits
    with app.app_context():
        alerts = [e for e in audit.entries() if e["action"] == "sign_in_ceiling_reached"]
    assert len(alerts) == 1 and alerts[0]["data"]["attempt"] == "password"
    lead_work_done(app)
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "security@watches.example"
    assert account.email in message["Subject"]
    body = message.get_body(preferencelist=("plain",)).get_content()
    assert str(throttle.ACCOUNT_CEILING) in body and "flask staff reset" in body
    assert WRONG not in body and account.password not in body
    with app.app_context():  # a retried or requeued job sends nothing more
        assert jobs.alert_sign_in_ceiling(alerts[0]["id"]) == "already sent"
    assert len(smtp_server.messages) == 1
