"""The seller's ID and bank details at rest: Fernet (AES-128-CBC with HMAC-SHA256, from the
`cryptography` library) under keys derived by HKDF from PURCHASE_DATA_KEY, a setting of its own,
so leads.db and the storage folder alone give none of it away.

PURCHASE_DATA_KEY is a comma-separated list, newest first: MultiFernet encrypts with the first
and decrypts with any, so a new key can be put in front and `flask purchases rotate-key`
re-encrypts every row and file; the old key stays until the backups made under it are gone.
Outside production (where the setting is required) the material comes from SECRET_KEY.
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

PURPOSE = b"purchase-data"

__all__ = ["InvalidToken", "decrypt", "decrypt_bytes", "encrypt", "encrypt_bytes", "rotate"]


def key_materials() -> list[bytes]:
    """PURCHASE_DATA_KEY's values, newest first; else one made from SECRET_KEY."""
    config = current_app.config
    materials = config.get("PURCHASE_DATA_KEY") or ("dev-purchase:" + config["SECRET_KEY"],)
    return [material.encode() for material in materials]


def fernet_for(material: bytes) -> Fernet:
    """The Fernet whose key HKDF derives from one key material for this purpose."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=PURPOSE).derive(material)
    return Fernet(base64.urlsafe_b64encode(key))


def keys() -> MultiFernet:
    """Every configured key: the first encrypts, any decrypts."""
    return MultiFernet([fernet_for(material) for material in key_materials()])


def encrypt(text: str) -> str:
    """A column's value as a Fernet token (text)."""
    return keys().encrypt(text.encode()).decode()


def decrypt(token: str) -> str:
    """A column's value back; raises InvalidToken if no configured key opens it."""
    return keys().decrypt(token.encode()).decode()


def encrypt_bytes(data: bytes) -> bytes:
    """A file's bytes as a Fernet token."""
    return keys().encrypt(data)


def decrypt_bytes(token: bytes) -> bytes:
    """A file's bytes back; raises InvalidToken if no configured key opens it."""
    return keys().decrypt(token)


def rotate(token: bytes) -> bytes:
    """A token re-encrypted under the newest key (whichever configured key made it)."""
    return keys().rotate(token)
