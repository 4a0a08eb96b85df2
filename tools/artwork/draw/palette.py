"""The palette: the site's colours and how to mix, lighten, darken and fade them."""

from __future__ import annotations

from collections.abc import Sequence

Color = tuple[int, ...]


NAVY = (18, 23, 34)


GOLD = (207, 162, 63)


CREAM = (248, 238, 211)


WHITE = (255, 255, 255)


BLACK = (0, 0, 0)


INK = (12, 13, 16)


LUME = (238, 234, 214)


BLUED = (34, 58, 128)


def mix(a: Sequence[int], b: Sequence[int], t: float) -> Color:
    """Blend two colours; t=0 gives a, t=1 gives b (alpha kept from a when b has none)."""
    n = max(len(a), len(b))
    a4 = tuple(a) + (255,) * (n - len(a))
    b4 = tuple(b) + (255,) * (n - len(b))
    return tuple(round(x + (y - x) * t) for x, y in zip(a4, b4, strict=True))


def lighter(c: Sequence[int], t: float) -> Color:
    return mix(c[:3], WHITE, t) + tuple(c[3:])


def darker(c: Sequence[int], t: float) -> Color:
    return mix(c[:3], BLACK, t) + tuple(c[3:])


def alpha(c: Sequence[int], a: int) -> Color:
    return (c[0], c[1], c[2], max(0, min(255, round(a))))
