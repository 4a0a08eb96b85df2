"""Lead references such as `USWB-7K3F9Q`: what a seller reads out on the phone and staff search.

Random (from `secrets`), not sequential, so a reference says nothing about how many leads there
are; drawn from 31 characters with none that are easily confused when read or heard (no 0/O,
1/I/L), which gives 31^6, about 887 million, references. Uniqueness is the database's job (a
unique index); the writer draws again on a collision. Photo ids for staff URLs and sellers'
status tokens are drawn here too (stored only as their digest,
app/security/tokens.py).
"""

from __future__ import annotations

import re
import secrets

PREFIX = "USWB-"
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6
PATTERN = re.compile(rf"{PREFIX}[{ALPHABET}]{{{LENGTH}}}")


def new_reference() -> str:
    """A fresh random reference such as 'USWB-7K3F9Q' (the writer draws again on a collision)."""
    return PREFIX + "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def new_photo_id() -> str:
    """A photo's handle in staff URLs: 128 random bits, so one cannot be guessed from another."""
    return secrets.token_urlsafe(16)


def new_status_token() -> str:
    """The secret in a seller's status link: 192 random bits (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def normalise(text: str) -> str:
    """A typed reference (any case, spaces, prefix or not) in its stored form, or '' if none."""
    compact = re.sub(r"[\s-]", "", text.upper()).removeprefix(PREFIX[:-1])
    candidate = PREFIX + compact
    return candidate if PATTERN.fullmatch(candidate) else ""
