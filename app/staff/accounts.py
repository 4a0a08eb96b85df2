"""Staff accounts: creation and reset (each hands out a one-time enrolment link), passwords,
enrolment and the first factor of sign-in.

No self-registration: accounts are made with `flask staff add`. Passwords are hashed with
argon2id (argon2-cffi's profile named by STAFF_PASSWORD_PROFILE, by default RFC 9106's second
recommended set; a hash made with other parameters is redone at the next sign-in). A sign-in
for an e-mail without a usable account still verifies a password against a stand-in hash, so
the answer and the time it takes do not tell whether the address has an account.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from flask import current_app

from app.security.tokens import digest, new_token
from app.staff import queries, totp
from app.staff.recovery_codes import new_recovery_code, recovery_code_hash

PASSWORD_MIN_LENGTH = 12
PASSWORD_MAX_LENGTH = 256
RECOVERY_CODE_COUNT = 10
# The 10,000 most common passwords, lower-cased (zxcvbn's ranked list, MIT licence).
COMMON_PASSWORDS_FILE = Path(__file__).with_name("common-passwords.txt")


class AccountError(ValueError):
    """A staff command or enrolment step that cannot be done, with a message saying why."""


@cache
def common_passwords() -> frozenset[str]:
    """The common-passwords list, read once: a new password on it is refused."""
    return frozenset(COMMON_PASSWORDS_FILE.read_text().split())


@cache
def hasher_for(profile: str) -> PasswordHasher:
    """The argon2id hasher for an argon2-cffi profile name, made once per profile."""
    return PasswordHasher.from_parameters(getattr(profiles, profile))


def hasher() -> PasswordHasher:
    """The hasher for the configured STAFF_PASSWORD_PROFILE."""
    return hasher_for(current_app.config["STAFF_PASSWORD_PROFILE"])


@cache
def stand_in_hash(profile: str) -> str:
    """Verified against when there is no account, so that both cases cost one argon2 run."""
    return hasher_for(profile).hash(new_token())


def password_problem(password: str) -> str | None:
    """Why a new password is refused, or None."""
    if len(password) < PASSWORD_MIN_LENGTH:
        return f"Use at least {PASSWORD_MIN_LENGTH} characters."
    if len(password) > PASSWORD_MAX_LENGTH:
        return f"Use at most {PASSWORD_MAX_LENGTH} characters."
    if password.lower() in common_passwords() or len(set(password)) < 4:
        return "That password is too common or too simple to guess. Choose another."
    return None


def enrolment_deadline() -> str:
    """When an enrolment link made now expires: STAFF_ENROL_HOURS from now, in ISO format."""
    hours = current_app.config["STAFF_ENROL_HOURS"]
    return (datetime.now(UTC) + timedelta(hours=hours)).isoformat(timespec="seconds")


def enrolment_link(token: str) -> str:
    """The full enrolment URL on SITE_URL for `token`."""
    return current_app.config["SITE_URL"].rstrip("/") + "/staff/enrol/" + token


def add_account(email: str, name: str) -> tuple[dict, str]:
    """A new account waiting for enrolment, and its enrolment link."""
    email = email.strip()
    if "@" not in email or not name.strip():
        raise AccountError("Give an e-mail address and a name.")
    if queries.staff_by_email(email):
        raise AccountError(f"{email} already has an account.")
    token = new_token()
    staff_id = queries.insert_staff(email, name.strip(), digest(token), enrolment_deadline())
    return queries.staff_by_id(staff_id), enrolment_link(token)


def find_account(email: str) -> dict:
    """The account with this e-mail, or AccountError if there is none."""
    staff = queries.staff_by_email(email.strip())
    if staff is None:
        raise AccountError(f"No staff account for {email}.")
    return staff


def reset_account(staff: dict) -> str:
    """End every session, forget password, TOTP and recovery codes; a new enrolment link."""
    token = new_token()
    queries.restart_enrolment(staff["id"], digest(token), enrolment_deadline())
    queries.end_sessions_of(staff["id"])
    return enrolment_link(token)


def disable_account(staff: dict) -> None:
    """Stop the account from signing in and end all its sessions."""
    queries.disable_staff(staff["id"])
    queries.end_sessions_of(staff["id"])


def status(staff: dict) -> str:
    """The account's status as listed: active, enrolment pending or disabled."""
    if staff["disabled_at"]:
        return "disabled"
    return "active" if staff["enrolled_at"] else "enrolment pending"


# Enrolment


def account_enrolling(token: str) -> dict | None:
    """The account an unexpired, unused enrolment link belongs to."""
    staff = queries.staff_by_enrol_token(digest(token))
    if staff is None or staff["disabled_at"] or staff["enrolled_at"]:
        return None
    if staff["enrol_expires_at"] < datetime.now(UTC).isoformat(timespec="seconds"):
        return None
    return staff


def set_password(staff: dict, password: str) -> None:
    """Hash and store a new password, or raise AccountError saying why it is refused."""
    problem = password_problem(password)
    if problem:
        raise AccountError(problem)
    queries.set_password_hash(staff["id"], hasher().hash(password))


def pending_totp_secret(staff: dict) -> str:
    """The encrypted secret being enrolled: made once, kept while the page is reloaded."""
    if not staff["totp_secret"]:
        staff["totp_secret"] = totp.new_encrypted_secret()
        queries.set_totp_secret(staff["id"], staff["totp_secret"])
    return staff["totp_secret"]


def confirm_totp(staff: dict, code: str) -> list[str]:
    """Finish enrolment with a first code; the recovery codes, shown once and kept hashed."""
    step = totp.matching_step(pending_totp_secret(staff), code)
    if step is None:
        raise AccountError("That code is not right. Check the app's clock and try the next code.")
    codes = [new_recovery_code() for _ in range(RECOVERY_CODE_COUNT)]
    queries.finish_enrolment(staff["id"], [recovery_code_hash(code) for code in codes], step)
    return codes


# Sign-in, first factor


def check_password(email: str, password: str) -> dict | None:
    """The enrolled, enabled account with this e-mail and password; the same work either way."""
    staff = queries.staff_by_email(email.strip())
    usable = bool(staff and staff["enrolled_at"] and not staff["disabled_at"])
    stand_in = stand_in_hash(current_app.config["STAFF_PASSWORD_PROFILE"])  # made on first use
    stored = staff["password_hash"] if usable and staff["password_hash"] else stand_in
    try:
        hasher().verify(stored, password[: PASSWORD_MAX_LENGTH + 1])
    except (VerificationError, InvalidHashError):
        return None
    if not usable:
        return None
    if hasher().check_needs_rehash(stored):
        queries.set_password_hash(staff["id"], hasher().hash(password))
    return staff
