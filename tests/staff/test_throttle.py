"""Brute force: password and code floods meet growing delays, per account and per address,
without telling which e-mails have accounts."""

import re
import time

import pytest

from app.staff import throttle

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


def test_delays_grow_with_each_failure(app):
    counter = throttle.Counter("password:test", free_tries=3)
    waits = []
    with app.app_context():
        for _ in range(8):
            throttle.failed([counter])
            waits.append(counter.wait(at=time.time()))
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


def test_the_wait_passes_and_a_right_answer_clears_the_account_count(staff, account, app):
    client = app.test_client()
    flood_passwords(staff, client, account.email, throttle.ACCOUNT_FREE_TRIES + 1)
    with staff.db() as db:  # the wait has passed
        db.execute("UPDATE staff_throttle SET last_failure = last_failure - 60")
    assert staff.password_step(client, account).status_code == 303
    with staff.db() as db:
        keys = [row[0] for row in db.execute("SELECT key FROM staff_throttle")]
    assert keys == [k for k in keys if k.startswith("address:")]


@pytest.mark.parametrize("email", ["ana@example.com", "ghost@example.com"])
def test_throttle_keys_never_hold_the_email_typed(staff, account, app, email):
    flood_passwords(staff, app.test_client(), email, 2)
    with staff.db() as db:
        keys = " ".join(row[0] for row in db.execute("SELECT key FROM staff_throttle"))
    assert email not in keys and re.search(r"password:[0-9a-f]{64}", keys)
