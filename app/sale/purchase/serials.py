"""A watch's serial number in one normal form, wherever two are compared or one is asked of
the register: capitals, without the spaces, dashes, dots and slashes people type inside one, so
"7z-41k9 q2", "7Z41 K9Q2" and "7Z41K9Q2" are one serial. Staff's findings keep the serial as
typed (the bill of sale shows it so); every comparison goes through here."""

from __future__ import annotations

import re

SEPARATORS = re.compile(r"[\s\-./]+")


def normal(serial: str | None) -> str:
    """The serial in its normal form ("" for none)."""
    return SEPARATORS.sub("", serial or "").upper()


def same(one: str | None, other: str | None) -> bool:
    """Whether two serials are the same one, however each was typed (never two blanks)."""
    return bool(normal(one)) and normal(one) == normal(other)
