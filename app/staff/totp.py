"""Time-based one-time codes (RFC 6238 via pyotp): 30-second steps, six digits, the step
before and after accepted for clock drift, and each step usable once per account.

The shared secret is encrypted at rest with Fernet (AES-128-CBC + HMAC) under a key derived by
HKDF from STAFF_TOTP_KEY, a setting of its own so that leaking the database alone does not give
the second factor away. Outside production the key is derived from SECRET_KEY.
"""

from __future__ import annotations

import base64
import time

import pyotp
import segno
from cryptography.fernet import Fernet
from flask import current_app
from markupsafe import Markup

from app.staff import keys, queries

STEP_SECONDS = 30
DRIFT_STEPS = 1


def fernet() -> Fernet:
    """The Fernet for TOTP secrets, keyed by HKDF from STAFF_TOTP_KEY (else from SECRET_KEY)."""
    return Fernet(base64.urlsafe_b64encode(keys.derived_key(keys.TOTP_SECRETS)))


def new_encrypted_secret() -> str:
    """A new random TOTP secret, encrypted for storage."""
    return fernet().encrypt(pyotp.random_base32().encode()).decode()


def decrypt(encrypted: str) -> str:
    """The plain base32 TOTP secret from its encrypted form."""
    return fernet().decrypt(encrypted.encode()).decode()


def provisioning_uri(encrypted: str, email: str) -> str:
    """The otpauth:// URI an authenticator app reads from the QR code (or typed by hand)."""
    issuer = current_app.config["SITE_NAME"] + " staff"
    return pyotp.TOTP(decrypt(encrypted)).provisioning_uri(name=email, issuer_name=issuer)


def manual_key(encrypted: str) -> str:
    """The secret in groups of four, for typing into an app that cannot scan."""
    secret = decrypt(encrypted)
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def qr_svg(uri: str) -> Markup:
    """The URI as an inline SVG QR code, drawn on the server (no script, no outside service)."""
    svg = segno.make(uri, error="m").svg_inline(border=2, dark="#121722", omitsize=True)
    return Markup(svg)


def now() -> float:
    """The clock codes are checked against (tests move it forward)."""
    return time.time()


def current_step(at: float | None = None) -> int:
    """The 30-second time step of `at`, or of now."""
    return int((now() if at is None else at) // STEP_SECONDS)


def matching_step(encrypted: str, code: str, at: float | None = None) -> int | None:
    """The time step within the drift window whose code is `code`, if any."""
    code = "".join(code.split())
    if not (len(code) == 6 and code.isdigit()):
        return None
    totp = pyotp.TOTP(decrypt(encrypted))
    now_step = current_step(at)
    for step in range(now_step - DRIFT_STEPS, now_step + DRIFT_STEPS + 1):
        if totp.verify(code, for_time=step * STEP_SECONDS):
            return step
    return None


def accept_code(staff: dict, code: str) -> bool:
    """True once per valid code: a code already used (or older than the last used) is refused."""
    if not staff.get("totp_secret"):
        return False
    step = matching_step(staff["totp_secret"], code)
    return step is not None and queries.claim_totp_step(staff["id"], step)
