"""Recovery codes: handed out once, typed by hand later, and kept only as a keyed HMAC.

A code has about 59 bits, few enough that a plain digest in a stolen leads.db would fall to one
GPU pass. So what is stored is HMAC-SHA256, under a key derived from STAFF_TOTP_KEY
(app/staff/keys.py), of the code's SHA-256: checking a guess needs the key, which is not in the
database. Hashing the SHA-256 rather than the code lets codes stored by earlier releases (the
plain SHA-256, without the `hmac-sha256:` prefix) be re-keyed in place, without the codes,
whenever the app starts (`rekey_stored_codes`); a re-keyed code is checked like a new one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.security.tokens import digest
from app.staff import keys, queries

RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread
KEYED_PREFIX = "hmac-sha256:"


def new_recovery_code() -> str:
    """Three groups of four (about 59 bits), easy to copy by hand: `k7mp-x2rd-9qwe`."""
    chars = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(12))
    return "-".join(chars[i : i + 4] for i in range(0, 12, 4))


def normalise_recovery_code(typed: str) -> str:
    """What the person typed, as we stored it: lowercase, in groups, spaces and dashes ignored."""
    chars = "".join(c for c in typed.lower() if c.isalnum())
    return "-".join(chars[i : i + 4] for i in range(0, len(chars), 4))


def keyed(code_digest: str) -> str:
    """The stored form of a code's SHA-256 (hex): its HMAC under the recovery-code key."""
    key = keys.derived_key(keys.RECOVERY_CODES)
    return KEYED_PREFIX + hmac.new(key, code_digest.encode(), hashlib.sha256).hexdigest()


def recovery_code_hash(code: str) -> str:
    """What leads.db keeps of a recovery code, as handed out or as typed."""
    return keyed(digest(normalise_recovery_code(code)))


def rekey_stored_codes() -> int:
    """Re-key codes an earlier release stored as plain SHA-256; how many. Safe to run at every
    start, in several processes at once: each row changes only from its unkeyed value."""
    rekeyed = 0
    for row in queries.unkeyed_recovery_codes(KEYED_PREFIX):
        rekeyed += queries.replace_recovery_code_hash(
            row["id"], row["code_hash"], keyed(row["code_hash"])
        )
    return rekeyed
