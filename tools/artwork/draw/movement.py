"""Movement parts: gears, jewels, screws, the balance wheel and Geneva stripes."""

from __future__ import annotations

import math

from tools.artwork.draw.geometry import bar, polar, rotate_points
from tools.artwork.draw.metals import BLUE_STEEL, GOLD_M, STEEL, Metal
from tools.artwork.draw.palette import BLACK, WHITE, Color, alpha, darker, mix
from tools.artwork.draw.shapes import Circle, Poly, Ring, Shape, band
from tools.artwork.draw.surface import Surface, clip, fill, line, outline, soft


def gear(
    sf: Surface,
    cx: float,
    cy: float,
    r: float,
    teeth: int,
    m: Metal | Color,
    angle: float = 0,
    spokes: int = 5,
) -> None:
    base = m.mid if isinstance(m, Metal) else m
    depth = max(r * 0.08, 0.6)
    pts = []
    for i in range(teeth):
        a0 = angle + 360 * i / teeth
        p = 360 / teeth
        pts += [
            polar(cx, cy, r - depth, a0),
            polar(cx, cy, r, a0 + 0.22 * p),
            polar(cx, cy, r, a0 + 0.52 * p),
            polar(cx, cy, r - depth, a0 + 0.74 * p),
        ]
    soft(sf, Poly(pts), BLACK, max(0.5, 0.05 * r), 0.6, (0.03 * r, 0.06 * r))
    fill(sf, Poly(pts), base)
    if isinstance(m, Metal):
        fill(sf, Circle(cx, cy, r - depth), m.polished(cx, cy, 315, 2))
    if spokes:
        for i in range(spokes):
            a0 = angle + 360 * i / spokes + 10
            a1 = a0 + 360 / spokes - 20
            fill(sf, band(cx, cy, r * 0.76, r * 0.3, a0, a1), (26, 27, 31))
    fill(sf, Circle(cx, cy, r * 0.2), darker(base, 0.2))
    fill(sf, Circle(cx, cy, r * 0.1), (170, 20, 40))


def jewel(sf: Surface, x: float, y: float, r: float) -> None:
    fill(sf, Circle(x, y, r), GOLD_M.polished(x, y))
    fill(sf, Circle(x, y, r * 0.62), (150, 16, 36))
    fill(sf, Circle(x, y, r * 0.45), (206, 40, 64))
    fill(sf, Circle(x - r * 0.18, y - r * 0.18, r * 0.15), alpha(WHITE, 200))


def screw(
    sf: Surface, x: float, y: float, r: float, angle: float = 30, blued: bool = False
) -> None:
    m = BLUE_STEEL if blued else STEEL
    fill(sf, Circle(x, y, r), m.polished(x, y))
    line(sf, [polar(x, y, r * 0.85, angle), polar(x, y, r * 0.85, angle + 180)], m.edge, r * 0.3)


def balance(sf: Surface, cx: float, cy: float, r: float, m: Metal) -> None:
    soft(sf, Circle(cx, cy, r), BLACK, 0.06 * r, 0.6, (0.04 * r, 0.08 * r))
    fill(sf, Ring(cx, cy, r, r * 0.84), m.polished(cx, cy, 315, 2))
    for a in (30, 150, 270):
        fill(sf, Poly(bar((cx, cy), polar(cx, cy, r * 0.86, a), r * 0.08)), m.mid)
    for a in range(0, 360, 45):
        p = polar(cx, cy, r * 0.92, a + 15)
        fill(sf, Circle(p[0], p[1], r * 0.05), m.hi)
    pts = []
    turns = 7
    for i in range(turns * 36 + 1):
        t = i / 36
        rr = r * (0.12 + 0.56 * t / turns)
        pts.append(polar(cx, cy, rr, t * 360))
    line(sf, pts, alpha((176, 196, 220), 220), max(0.25, r * 0.012))
    fill(sf, Circle(cx, cy, r * 0.1), m.lo)
    jewel(sf, cx, cy, r * 0.07)


def cotes(sf: Surface, shape: Shape, base: Metal, stripe: float, angle: float = -35) -> None:
    """A bridge with Geneva stripes and a polished bevel."""
    soft(sf, shape, BLACK, stripe * 0.4, 0.6, (stripe * 0.15, stripe * 0.3))
    fill(sf, shape, base.mid)
    x0, y0, x1, y1 = shape.bbox()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    span = math.hypot(x1 - x0, y1 - y0)
    with clip(sf, shape) as sub:
        k = -span / 2
        shades = [
            mix(base.lo, base.mid, 0.5),
            base.mid,
            mix(base.mid, base.hi, 0.5),
            base.hi,
            mix(base.mid, base.hi, 0.6),
            base.mid,
            mix(base.mid, base.lo, 0.3),
            mix(base.mid, base.lo, 0.7),
        ]
        n = len(shades)
        while k < span / 2:
            for i, c in enumerate(shades):
                a, b = k + stripe * i / n, k + stripe * (i + 1) / n + 0.05
                pts = [(a, -span), (b, -span), (b, span), (a, span)]
                fill(sub, Poly(rotate_points([(cx + u, cy + v) for u, v in pts], angle, cx, cy)), c)
            k += stripe
    if isinstance(shape, Poly):
        outline(sf, shape.pts, alpha(WHITE, 170), stripe * 0.1)
        outline(
            sf,
            [(px + stripe * 0.06, py + stripe * 0.06) for px, py in shape.pts],
            alpha(BLACK, 50),
            stripe * 0.05,
        )
