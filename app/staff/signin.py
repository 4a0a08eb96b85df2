"""The two steps of signing in, and giving both factors again before a sensitive action.

Each step counts the attempt with the throttle first (a throttled attempt is not even checked:
`throttle.Wait` is raised), answers the same generic way whatever was wrong, and writes the
outcome to the audit log without anything typed. Each returns None on success, else the message
to show. The failure that brings an account to its ceiling is audited and e-mailed to staff.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from app import queue
from app.leads import audit
from app.security.client import client_address
from app.staff import accounts, queries, sessions, throttle, totp
from app.staff.recovery_codes import recovery_code_hash

T = TypeVar("T")
WRONG_PASSWORD = "That e-mail and password do not match an account that can sign in."
WRONG_CODE = "That code is not right, or it has already been used."
WRONG_CONFIRMATION = "That password or code is not right."


def throttled_check(
    kind: str, account: str, owner_id: int | None, check: Callable[[], T | None]
) -> T | None:
    """`check()` unless the throttle demands a wait; the attempt is counted before it is checked
    and a right answer (anything but None) takes it back. `owner_id` is the account's id, if
    the account exists, for the alert when its ceiling is reached."""
    attempt = throttle.begin(kind, account, client_address())
    result = check()
    if result is not None:
        throttle.succeeded(attempt)
    elif attempt.reached_ceiling:
        report_ceiling(kind, owner_id, attempt.ceiling_lifted_at)
    return result


def report_ceiling(kind: str, owner_id: int | None, until: str) -> None:
    """Audit that an account's failed attempts reached the ceiling and, when the account exists,
    have staff e-mailed: its sign-in is stopped `until` then, for its owner too."""
    data = {"attempt": kind, "failures": throttle.ACCOUNT_CEILING, "until": until}
    entry_id = audit.record(
        "sign_in_ceiling_reached", owner_id, address=client_address(), data=data
    )
    if owner_id is not None:
        queue.enqueue(queue.ALERT_SIGN_IN_CEILING, entry_id)


def second_factor(staff: dict, code: str) -> str | None:
    """'totp' or 'recovery' when `code` is an unused valid code of either kind, else None."""
    if totp.accept_code(staff, code):
        return "totp"
    if queries.claim_recovery_code(staff["id"], recovery_code_hash(code)):
        return "recovery"
    return None


def with_password(email: str, password: str) -> str | None:
    """First step: on success a new aal1 session replaces any session the browser had."""
    known = queries.staff_by_email(email.strip())
    known_id = known["id"] if known else None
    check = partial(accounts.check_password, email, password)
    staff = throttled_check("password", email, known_id, check)
    if staff is None:
        audit.record("sign_in_failed", known_id, address=client_address())
        return WRONG_PASSWORD
    sessions.begin(staff, aal=1)
    return None


def with_code(code: str) -> str | None:
    """Second step, on an aal1 session: on success a new aal2 session replaces it."""
    staff = sessions.load()["staff"]
    factor = throttled_check(
        "code", str(staff["id"]), staff["id"], partial(second_factor, staff, code)
    )
    if factor is None:
        audit.record("code_failed", staff["id"], address=client_address())
        return WRONG_CODE
    sessions.begin(staff, aal=2)
    audit.record("signed_in", staff["id"], address=client_address(), data={"factor": factor})
    return None


def confirm_again(password: str, code: str) -> str | None:
    """Both factors again within a signed-in session (before export or erasure)."""
    staff = sessions.load()["staff"]

    def both_factors() -> str | None:
        """The second factor used, if the password and then the code are both right."""
        if accounts.check_password(staff["email"], password) is None:
            return None
        return second_factor(staff, code)

    if throttled_check("confirm", str(staff["id"]), staff["id"], both_factors) is None:
        audit.record("confirm_failed", staff["id"], address=client_address())
        return WRONG_CONFIRMATION
    sessions.mark_verified()
    audit.record("confirmed", staff["id"], address=client_address())
    return None
