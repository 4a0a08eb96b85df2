"""Keys for staff secrets at rest, each derived by HKDF from STAFF_TOTP_KEY under a label of its
own (the TOTP secrets' Fernet key, the recovery codes' HMAC key), so leads.db alone gives
neither away and one key's use tells nothing about another's. Outside production, without the
setting, the material comes from SECRET_KEY.
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

TOTP_SECRETS = b"staff-totp-secret"
RECOVERY_CODES = b"staff-recovery-code"


def key_material() -> bytes:
    """STAFF_TOTP_KEY, else (outside production, where it is required) one made from SECRET_KEY."""
    config = current_app.config
    return (config.get("STAFF_TOTP_KEY") or "dev-totp:" + config["SECRET_KEY"]).encode()


def derived_key(label: bytes) -> bytes:
    """32 bytes for the purpose `label` names: the same every time for the same settings."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=label).derive(key_material())
