"""Hands: where the time puts them and the shape of each kind."""

from __future__ import annotations

from tools.artwork.draw.geometry import Point, frame
from tools.artwork.draw.metals import BLUE_STEEL
from tools.artwork.draw.palette import BLACK, alpha, darker
from tools.artwork.draw.shapes import Circle, local_poly
from tools.artwork.draw.surface import Surface, fill, outline, soft
from tools.artwork.draw.watch import Watch


def hand_angles(w: Watch) -> tuple[float, float, float]:
    h, m, s = w.time
    return ((h % 12) + m / 60) * 30, (m + s / 60) * 6, s * 6


def _hand_shapes(kind: str, length: float, width: float) -> tuple[list[Point], list[Point] | None]:
    """Outline and inner (lume) polygon of a hand pointing along +v."""
    L, W = length, width
    if kind == "sword":
        outer = [
            (-W * 0.2, -0.1 * L),
            (W * 0.2, -0.1 * L),
            (W * 0.5, 0.7 * L),
            (0, L),
            (-W * 0.5, 0.7 * L),
        ]
        inner = [
            (-W * 0.08, 0.25 * L),
            (W * 0.08, 0.25 * L),
            (W * 0.33, 0.7 * L),
            (0, 0.93 * L),
            (-W * 0.33, 0.7 * L),
        ]
    elif kind == "baton":
        outer = [
            (-W * 0.5, -0.12 * L),
            (W * 0.5, -0.12 * L),
            (W * 0.5, 0.92 * L),
            (0, L),
            (-W * 0.5, 0.92 * L),
        ]
        inner = [
            (-W * 0.25, 0.3 * L),
            (W * 0.25, 0.3 * L),
            (W * 0.25, 0.9 * L),
            (0, 0.95 * L),
            (-W * 0.25, 0.9 * L),
        ]
    elif kind == "pilot":
        outer = [
            (-W * 0.25, -0.1 * L),
            (W * 0.25, -0.1 * L),
            (W * 0.5, 0.55 * L),
            (0, L),
            (-W * 0.5, 0.55 * L),
        ]
        inner = [
            (-W * 0.1, 0.2 * L),
            (W * 0.1, 0.2 * L),
            (W * 0.34, 0.55 * L),
            (0, 0.9 * L),
            (-W * 0.34, 0.55 * L),
        ]
    elif kind == "leaf":
        outer = [
            (-W * 0.12, -0.08 * L),
            (W * 0.12, -0.08 * L),
            (W * 0.5, 0.45 * L),
            (W * 0.3, 0.8 * L),
            (0, L),
            (-W * 0.3, 0.8 * L),
            (-W * 0.5, 0.45 * L),
        ]
        inner = None
    else:  # dauphine
        outer = [(0, -0.1 * L), (W * 0.5, 0.15 * L), (0, L), (-W * 0.5, 0.15 * L)]
        inner = None
    return outer, inner


def hands(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    ha, ma, sa = hand_angles(w)
    m = w.hand_metal
    specs = [
        (ha, 0.56 * rd, 0.12 * rd if w.hands in ("sword", "pilot") else 0.075 * rd),
        (ma, 0.88 * rd, 0.09 * rd if w.hands in ("sword", "pilot") else 0.06 * rd),
    ]
    if w.hands in ("dauphine", "leaf"):
        specs = [(ha, 0.58 * rd, 0.1 * rd), (ma, 0.9 * rd, 0.08 * rd)]
    for ang, length, width in specs:
        tf = frame(cx, cy, ang)
        outer, inner = _hand_shapes(w.hands, length, width)
        soft(sf, local_poly(tf, outer), BLACK, 0.02 * rd, 0.5, (0.025 * rd, 0.045 * rd))
        if w.hands == "dauphine":
            fill(
                sf,
                local_poly(tf, [(0, -0.1 * length), (0, length), (-width * 0.5, 0.15 * length)]),
                m.hi,
            )
            fill(
                sf,
                local_poly(tf, [(0, -0.1 * length), (width * 0.5, 0.15 * length), (0, length)]),
                m.lo,
            )
            outline(sf, local_poly(tf, outer).pts, alpha(m.edge, 120), 0.005 * rd)
        else:
            fill(
                sf,
                local_poly(tf, outer),
                m.mid,
            )
            if inner and w.hand_fill:
                fill(sf, local_poly(tf, inner), w.hand_fill)
            elif m is not BLUE_STEEL:
                half = [(0, p[1]) if p[0] > 0 else p for p in outer]
                fill(sf, local_poly(tf, half), alpha(m.hi, 140))
            outline(sf, local_poly(tf, outer).pts, alpha(m.edge, 150), 0.006 * rd)
    if w.seconds:
        tf = frame(cx, cy, sa)
        shape = local_poly(
            tf,
            [
                (-0.012 * rd, -0.25 * rd),
                (0.012 * rd, -0.25 * rd),
                (0.006 * rd, 0.95 * rd),
                (-0.006 * rd, 0.95 * rd),
            ],
        )
        soft(sf, shape, BLACK, 0.015 * rd, 0.45, (0.03 * rd, 0.055 * rd))
        fill(sf, shape, w.seconds)
        if w.indices in ("diver", "pilot"):
            p = tf(0, 0.64 * rd)
            fill(sf, Circle(p[0], p[1], 0.045 * rd), w.seconds)
            fill(sf, Circle(p[0], p[1], 0.032 * rd), w.lume)
        p = tf(0, -0.2 * rd)
        fill(sf, Circle(p[0], p[1], 0.03 * rd), w.seconds)
    fill(sf, Circle(cx, cy, 0.045 * rd), m.polished(cx, cy))
    fill(sf, Circle(cx, cy, 0.018 * rd), darker(m.lo, 0.3))
