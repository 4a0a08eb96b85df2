"""Recovery codes at rest: a keyed HMAC under a key derived from STAFF_TOTP_KEY, so a stolen
leads.db alone does not give them up; codes stored the old way (plain SHA-256) are re-keyed when
the app starts and keep working."""

import hashlib

from app.staff import recovery_codes
from tests.helpers import Staff


def stored_codes(staff) -> list[str]:
    with staff.db() as db:
        return [row[0] for row in db.execute("SELECT code_hash FROM staff_recovery_codes")]


def plain_digests(codes: list[str]) -> set[str]:
    """What an unkeyed store would hold: SHA-256 of each code, and of that digest again."""
    first = {hashlib.sha256(code.encode()).hexdigest() for code in codes}
    return first | {hashlib.sha256(value.encode()).hexdigest() for value in first}


def test_stored_recovery_codes_are_not_their_sha256_and_need_the_key_to_check(
    staff, account, make_app
):
    stored = stored_codes(staff)
    assert len(stored) == 10
    assert not set(stored) & plain_digests(account.recovery_codes)
    assert not any(
        digest in value for value in stored for digest in plain_digests(account.recovery_codes)
    )
    with staff.app.app_context():
        assert recovery_codes.recovery_code_hash(account.recovery_codes[0]) in stored
    other_key = make_app(STAFF_TOTP_KEY="another key of thirty-two characters or more")
    with other_key.app_context():
        assert recovery_codes.recovery_code_hash(account.recovery_codes[0]) not in stored


def test_a_recovery_code_still_signs_in_once_stored_keyed(staff, account, app):
    client = app.test_client()
    staff.password_step(client, account)
    assert staff.code_step(client, account.recovery_codes[0]).status_code == 303
    assert client.get("/staff/leads").status_code == 200


def test_codes_stored_the_old_way_are_rekeyed_at_start_and_still_sign_in(
    staff, account, make_app, clock
):
    legacy = account.recovery_codes[2]
    with staff.db() as db:  # as the release before keyed codes stored every code
        rows = [row[0] for row in db.execute("SELECT id FROM staff_recovery_codes ORDER BY id")]
        db.execute(
            "UPDATE staff_recovery_codes SET code_hash = ? WHERE id = ?",
            (hashlib.sha256(legacy.encode()).hexdigest(), rows[2]),
        )
    restarted = make_app(LEADS_DB=staff.app.config["LEADS_DB"])
    after_start = stored_codes(staff)
    assert not set(after_start) & plain_digests(account.recovery_codes)
    make_app(LEADS_DB=staff.app.config["LEADS_DB"])  # a second start changes nothing
    assert stored_codes(staff) == after_start
    again = Staff(restarted, restarted.test_cli_runner(), clock)
    client = restarted.test_client()
    again.password_step(client, account)
    assert again.code_step(client, legacy).status_code == 303
    assert client.get("/staff/leads").status_code == 200
