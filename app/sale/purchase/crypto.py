"""The seller's ID and bank details at rest: AES-256-GCM (from the `cryptography` library) under
keys derived by HKDF from PURCHASE_DATA_KEY, a setting of its own, so leads.db and the storage
folder alone give none of it away.

Each value and file is sealed to its place: the lead, and the column or kind of file it belongs
to, are the cipher's associated data. A value copied into another lead's row, or into another
column, or a file swapped for another lead's, opens with no key (InvalidToken) instead of
showing one seller's numbers as another's.

PURCHASE_DATA_KEY is a comma-separated list, newest first: the first key seals and any opens, so
a new key can be put in front and `flask purchases rotate-key` re-seals every row and file; the
old key stays until the backups made under it are gone. Outside production (where the setting
is required) the material comes from SECRET_KEY.

Data written before sealing (Fernet, bound to nothing) is opened only by `legacy_open`, which
the start-up step in app/sale/purchase/sealing.py uses once to seal it to its place; reading
never accepts it.
"""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

SEALED = b"aes1."  # every sealed value and file starts with this; Fernet tokens never do
NONCE_BYTES = 12
AEAD_PURPOSE = b"purchase-data/aes-256-gcm"
LEGACY_PURPOSE = b"purchase-data"

__all__ = [
    "InvalidToken",
    "column_place",
    "decrypt",
    "decrypt_bytes",
    "encrypt",
    "encrypt_bytes",
    "file_place",
    "is_sealed",
    "legacy_open",
    "rotate",
    "rotate_bytes",
]


def column_place(lead_id: int, name: str) -> bytes:
    """The place of one encrypted column of a lead's purchase record."""
    return f"purchases/{lead_id}/{name}".encode()


def file_place(lead_id: int, kind: str) -> bytes:
    """The place of a lead's private file of one kind (every version of it)."""
    return f"purchase_files/{lead_id}/{kind}".encode()


def key_materials() -> list[bytes]:
    """PURCHASE_DATA_KEY's values, newest first; else one made from SECRET_KEY."""
    config = current_app.config
    materials = config.get("PURCHASE_DATA_KEY") or ("dev-purchase:" + config["SECRET_KEY"],)
    return [material.encode() for material in materials]


def derived(material: bytes, purpose: bytes) -> bytes:
    """A 32-byte key HKDF derives from one key material for one purpose."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(material)


def ciphers() -> list[AESGCM]:
    """Every configured key as a cipher: the first seals, any opens."""
    return [AESGCM(derived(material, AEAD_PURPOSE)) for material in key_materials()]


def encrypt_bytes(data: bytes, place: bytes) -> bytes:
    """`data` sealed to `place` under the newest key: the marker, a random nonce, the
    ciphertext and its tag."""
    nonce = os.urandom(NONCE_BYTES)
    return SEALED + nonce + ciphers()[0].encrypt(nonce, data, SEALED + place)


def decrypt_bytes(token: bytes, place: bytes) -> bytes:
    """Sealed bytes back; InvalidToken if they are not sealed, were sealed to another place,
    were altered, or no configured key opens them."""
    if not is_sealed(token):
        raise InvalidToken
    nonce, sealed = token[len(SEALED) :][:NONCE_BYTES], token[len(SEALED) + NONCE_BYTES :]
    for cipher in ciphers():
        try:
            return cipher.decrypt(nonce, sealed, SEALED + place)
        except InvalidTag:
            continue
    raise InvalidToken


def encrypt(text: str, place: bytes) -> str:
    """A column's value sealed to its place, as text: the marker, then base64url."""
    token = encrypt_bytes(text.encode(), place)
    return SEALED.decode() + base64.urlsafe_b64encode(token[len(SEALED) :]).decode()


def decrypt(token: str, place: bytes) -> str:
    """A column's value back; InvalidToken as decrypt_bytes."""
    if not is_sealed(token.encode()):
        raise InvalidToken
    try:
        raw = base64.urlsafe_b64decode(token[len(SEALED) :].encode())
    except ValueError as error:
        raise InvalidToken from error
    return decrypt_bytes(SEALED + raw, place).decode()


def is_sealed(token: bytes) -> bool:
    """True for a value or file written by this module (as opposed to a Fernet-era one)."""
    return token.startswith(SEALED)


def rotate(token: str, place: bytes) -> str:
    """A column's value re-sealed under the newest key (whichever configured key sealed it)."""
    return encrypt(decrypt(token, place), place)


def rotate_bytes(token: bytes, place: bytes) -> bytes:
    """A file's bytes re-sealed under the newest key."""
    return encrypt_bytes(decrypt_bytes(token, place), place)


def legacy_open(token: bytes) -> bytes:
    """A Fernet-era value or file opened (bound to nothing), for sealing it to its place once;
    InvalidToken if no configured key opens it."""
    fernets = [
        Fernet(base64.urlsafe_b64encode(derived(material, LEGACY_PURPOSE)))
        for material in key_materials()
    ]
    return MultiFernet(fernets).decrypt(token)
