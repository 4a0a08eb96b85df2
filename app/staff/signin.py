"""The two steps of signing in, and giving both factors again before a sensitive action.

Each step checks the throttle first (a throttled attempt is not even checked: `throttle.Wait`
is raised), answers the same generic way whatever was wrong, and writes the outcome to the
audit log without anything typed. Each returns None on success, else the message to show.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from app.security.client import client_address
from app.security.tokens import digest
from app.staff import accounts, audit, sessions, store, throttle, totp
from app.staff.tokens import normalise_recovery_code

T = TypeVar("T")
WRONG_PASSWORD = "That e-mail and password do not match an account that can sign in."
WRONG_CODE = "That code is not right, or it has already been used."
WRONG_CONFIRMATION = "That password or code is not right."


def throttled_check(kind: str, account: str, check: Callable[[], T | None]) -> T | None:
    """`check()` unless the account or address must wait; a None result counts as a failure,
    anything else clears the account's count."""
    checked = throttle.counters(kind, account, client_address())
    throttle.raise_if_waiting(checked)
    result = check()
    if result is None:
        throttle.failed(checked)
    else:
        throttle.succeeded(checked)
    return result


def second_factor(staff: dict, code: str) -> str | None:
    """'totp' or 'recovery' when `code` is an unused valid code of either kind, else None."""
    if totp.accept_code(staff, code):
        return "totp"
    if store.claim_recovery_code(staff["id"], digest(normalise_recovery_code(code))):
        return "recovery"
    return None


def with_password(email: str, password: str) -> str | None:
    """First step: on success a new aal1 session replaces any session the browser had."""
    staff = throttled_check("password", email, lambda: accounts.check_password(email, password))
    if staff is None:
        known = store.staff_by_email(email.strip())
        audit.record("sign_in_failed", known["id"] if known else None, address=client_address())
        return WRONG_PASSWORD
    sessions.begin(staff, aal=1)
    return None


def with_code(code: str) -> str | None:
    """Second step, on an aal1 session: on success a new aal2 session replaces it."""
    staff = sessions.load()["staff"]
    factor = throttled_check("code", str(staff["id"]), lambda: second_factor(staff, code))
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

    if throttled_check("confirm", str(staff["id"]), both_factors) is None:
        audit.record("confirm_failed", staff["id"], address=client_address())
        return WRONG_CONFIRMATION
    sessions.mark_verified()
    audit.record("confirmed", staff["id"], address=client_address())
    return None
