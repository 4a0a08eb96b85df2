"""Canvas units: the supersampling factor, points, and the curves and turns built of them."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

S = 4  # supersampling factor


Point = tuple[float, float]


Transform = Callable[[float, float], Point]


def polar(cx: float, cy: float, r: float, deg: float) -> Point:
    """A point at clock angle ``deg`` (0 = 12 o'clock, clockwise) and radius r."""
    a = math.radians(deg)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def frame(cx: float, cy: float, deg: float, sx: float = 1.0) -> Transform:
    """Local coordinates (u across, v outwards along the clock angle) to canvas points."""
    a = math.radians(deg)
    s, c = math.sin(a), math.cos(a)

    def tf(u: float, v: float) -> Point:
        return cx + v * s + u * c * sx, cy - v * c + u * s * sx

    return tf


def rotate_points(pts: Iterable[Point], deg: float, cx: float, cy: float) -> list[Point]:
    a = math.radians(deg)
    s, c = math.sin(a), math.cos(a)
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in pts]


def bezier(p0: Point, p1: Point, p2: Point, n: int = 16) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(
            (
                (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
                (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1],
            )
        )
    return out


def bar(p: Point, q: Point, w: float) -> list[Point]:
    """A straight stroke of width w from p to q, as a polygon."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / n * w / 2, dx / n * w / 2
    return [
        (p[0] + ox, p[1] + oy),
        (q[0] + ox, q[1] + oy),
        (q[0] - ox, q[1] - oy),
        (p[0] - ox, p[1] - oy),
    ]


def superellipse(
    cx: float, cy: float, a: float, b: float, n: float, steps: int = 120
) -> list[Point]:
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        c, s = math.cos(t), math.sin(t)
        pts.append(
            (
                cx + a * math.copysign(abs(c) ** (2 / n), c),
                cy + b * math.copysign(abs(s) ** (2 / n), s),
            )
        )
    return pts


def arc_points(
    cx: float, cy: float, r: float, a0: float, a1: float, n: int | None = None
) -> list[Point]:
    n = n or max(4, int(abs(a1 - a0) / 3))
    return [polar(cx, cy, r, a0 + (a1 - a0) * i / n) for i in range(n + 1)]
