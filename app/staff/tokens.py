"""Recovery codes: handed out once at enrolment, typed by hand later, kept only as digests
(app/security/tokens.py)."""

from __future__ import annotations

import secrets

RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread


def new_recovery_code() -> str:
    """Three groups of four (about 59 bits), easy to copy by hand: `k7mp-x2rd-9qwe`."""
    chars = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(12))
    return "-".join(chars[i : i + 4] for i in range(0, 12, 4))


def normalise_recovery_code(typed: str) -> str:
    """What the person typed, as we stored it: lowercase, in groups, spaces and dashes ignored."""
    chars = "".join(c for c in typed.lower() if c.isalnum())
    return "-".join(chars[i : i + 4] for i in range(0, len(chars), 4))
