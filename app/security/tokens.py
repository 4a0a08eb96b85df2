"""Random secrets handed out once (session ids, enrolment and status links) and the one digest
kept of them instead of the secret.

A long random token needs no slow hash: SHA-256 cannot be reversed, and a fixed digest lets a
lookup use an index.
"""

from __future__ import annotations

import hashlib
import secrets

TOKEN_LENGTH = 43  # what new_token() gives: 32 random bytes as URL-safe base64


def new_token() -> str:
    """256 random bits, URL-safe: a session id or an enrolment link's secret."""
    return secrets.token_urlsafe(32)


def digest(value: str) -> str:
    """What the database keeps of a token or code: its SHA-256, in hex."""
    return hashlib.sha256(value.encode()).hexdigest()
