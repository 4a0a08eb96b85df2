"""The signed-in member's own credentials, from the account page: a new password (the current
one typed again, the rules of enrolment, every other session ended) and new recovery codes (all
the old ones replaced, the new ones shown once). Both views sit behind a recent sign-in
(`auth.require_recent_auth`); both are audited.
"""

from __future__ import annotations

from functools import partial

from app.leads import audit
from app.security.client import client_address
from app.staff import accounts, queries, sessions
from app.staff.recovery_codes import new_recovery_code, recovery_code_hash
from app.staff.signin import throttled_check

WRONG_CURRENT_PASSWORD = "Your current password is not right. Nothing was changed."


def change_password(current: str, new: str) -> str | None:
    """Set `new` (already checked against the rules by the form) if `current` is right, and end
    every other session of the account; None, else the refusal. The current password is
    throttled like a confirmation (throttle.Wait)."""
    row = sessions.load()
    staff = row["staff"]
    check = partial(accounts.check_password, staff["email"], current)
    if throttled_check("confirm", str(staff["id"]), staff["id"], check) is None:
        audit.record("password_change_refused", staff["id"], address=client_address())
        return WRONG_CURRENT_PASSWORD
    accounts.set_password(staff, new)
    ended = queries.end_sessions_of(staff["id"], keep=row["id"])
    audit.record("password_changed", staff["id"], address=client_address(), data={"ended": ended})
    return None


def renew_recovery_codes() -> list[str]:
    """New recovery codes for the signed-in member, replacing every old one: shown once."""
    staff = sessions.load()["staff"]
    codes = [new_recovery_code() for _ in range(accounts.RECOVERY_CODE_COUNT)]
    queries.replace_recovery_codes(staff["id"], [recovery_code_hash(code) for code in codes])
    audit.record("recovery_codes_renewed", staff["id"], address=client_address())
    return codes
