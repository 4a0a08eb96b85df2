"""A watchmaker's tools on the bench: the loupe and tweezers."""

from __future__ import annotations

import math

from tools.artwork.draw.geometry import bezier, frame
from tools.artwork.draw.metals import STEEL
from tools.artwork.draw.paints import linear
from tools.artwork.draw.palette import BLACK, WHITE, alpha
from tools.artwork.draw.shapes import Circle, Poly, local_poly
from tools.artwork.draw.surface import Surface, fill, line, soft


def loupe(sf: Surface, cx: float, cy: float, size: float) -> None:
    """A watchmaker's loupe lying on its side (pointing right), drawn horizontally."""
    body_l = size * 0.95
    r_big, r_small = size * 0.5, size * 0.3
    x0, x1 = cx - body_l / 2, cx + body_l / 2
    body = Poly([(x0, cy - r_small), (x1, cy - r_big), (x1, cy + r_big), (x0, cy + r_small)])
    fill(
        sf,
        body,
        linear(
            [(0, (20, 20, 22)), (0.25, (84, 86, 92)), (0.45, (40, 41, 45)), (1, (8, 8, 10))],
            (0, cy - r_big),
            (0, cy + r_big),
        ),
        True,
    )
    for i in range(1, 9):
        x = x0 + body_l * 0.05 * i
        rr = r_small + (r_big - r_small) * (x - x0) / body_l
        line(
            sf,
            [(x, cy - rr + size * 0.01), (x, cy + rr - size * 0.01)],
            alpha(BLACK, 160),
            size * 0.012,
        )
        line(
            sf,
            [(x + size * 0.012, cy - rr + size * 0.02), (x + size * 0.012, cy - rr * 0.3)],
            alpha(WHITE, 40),
            size * 0.008,
        )
    fill(sf, Circle(x0, cy, size * 0.06, r_small), (16, 16, 18), True)
    fill(sf, Circle(x0 - size * 0.005, cy, size * 0.04, r_small * 0.85), (58, 60, 66))
    rim = Circle(x1, cy, size * 0.11, r_big * 1.02)
    fill(sf, rim, (24, 24, 27), True)
    lens = Circle(x1 + size * 0.01, cy, size * 0.08, r_big * 0.9)
    fill(
        sf,
        lens,
        linear(
            [(0, (180, 200, 214)), (0.4, (90, 110, 128)), (1, (30, 40, 52))],
            (0, cy - r_big),
            (0, cy + r_big),
        ),
    )
    fill(
        sf,
        Circle(x1 + size * 0.005, cy - r_big * 0.4, size * 0.025, r_big * 0.25),
        alpha(WHITE, 150),
    )


def tweezers(sf: Surface, x0: float, y0: float, x1: float, y1: float, w: float) -> None:
    """Watchmaker's tweezers from the joined end (x0, y0) to the tips (x1, y1)."""
    length = math.hypot(x1 - x0, y1 - y0)
    ang = math.degrees(math.atan2(x1 - x0, -(y1 - y0)))
    tf = frame(x0, y0, ang)
    for side in (-1, 1):
        outer = [(side * w * 0.9, 0), (side * w * 1.7, length * 0.55), (side * w * 0.35, length)]
        inner = [(side * w * 0.1, length), (side * w * 1.05, length * 0.55), (side * w * 0.15, 0)]
        pts = bezier(*outer, 20) + bezier(*inner, 20)
        poly = local_poly(tf, pts)
        soft(sf, poly, BLACK, w * 0.5, 0.5, (w * 0.3, w * 0.6))
        fill(
            sf,
            poly,
            linear(
                [STEEL.lo, STEEL.hi, STEEL.mid],
                tf(-side * w * 2, length / 2),
                tf(side * w * 2, length / 2),
            ),
        )
    fill(
        sf,
        local_poly(
            tf,
            [(-w * 0.95, -w * 0.2), (w * 0.95, -w * 0.2), (w * 0.9, w * 1.5), (-w * 0.9, w * 1.5)],
        ),
        STEEL.mid,
    )
