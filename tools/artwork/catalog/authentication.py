"""The authentication page's picture: a watch open face down, a loupe and tweezers beside it."""

from __future__ import annotations

import math

from tools.artwork.catalog.recipes import DIVER_NODATE
from tools.artwork.draw.backgrounds import background
from tools.artwork.draw.bracelets import strap
from tools.artwork.draw.cases import case_body, crown, lugs
from tools.artwork.draw.geometry import bezier, polar
from tools.artwork.draw.metals import GOLD_M, STEEL, Metal
from tools.artwork.draw.movement import balance, cotes, gear, jewel, screw
from tools.artwork.draw.paints import radial
from tools.artwork.draw.palette import BLACK, WHITE, alpha, darker, lighter
from tools.artwork.draw.props import loupe, tweezers
from tools.artwork.draw.shapes import Circle, Poly, Ring, band
from tools.artwork.draw.surface import Canvas, clip, fill, line, soft, stamp

RHODIUM = Metal(hi=(236, 238, 240), mid=(196, 200, 206), lo=(128, 132, 140), edge=(70, 74, 80))


def _blob(pts, n: int = 6) -> Poly:
    """A closed shape through ``pts`` with corners rounded by quadratic curves."""
    out = []
    k = len(pts)
    for i in range(k):
        p0, p1, p2 = pts[i - 1], pts[i], pts[(i + 1) % k]
        a = ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2)
        b = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
        out += bezier(a, p1, b, n)
    return Poly(out)


def movement(sf, x: float, y: float, r: float) -> None:
    """A hand-wound movement: perlage plate, gold train, striped bridges, balance, jewels."""

    def at(u: float, v: float) -> tuple[float, float]:
        return x + u * r, y + v * r

    fill(
        sf,
        Circle(x, y, r),
        radial([(214, 217, 222), (176, 180, 187)], x - r * 0.3, y - r * 0.3, r * 1.5),
    )
    for j in range(-11, 12):  # perlage
        for i in range(-11, 12):
            px, py = x + i * r * 0.09 + (j % 2) * r * 0.045, y + j * r * 0.078
            if math.hypot(px - x, py - y) < r * 0.95:
                fill(sf, Circle(px, py, r * 0.052), alpha(BLACK, 10))
                fill(sf, Circle(px - r * 0.012, py - r * 0.012, r * 0.03), alpha(WHITE, 22))
    gear(sf, *at(0.02, 0.06), 0.3 * r, 64, GOLD_M, 3, 4)
    gear(sf, *at(0.42, -0.16), 0.21 * r, 50, GOLD_M, 8, 4)
    gear(sf, *at(0.5, 0.3), 0.17 * r, 40, GOLD_M, 2, 4)
    gear(sf, *at(0.12, 0.55), 0.12 * r, 18, STEEL, 0, 5)
    with clip(sf, Circle(x, y, r * 0.985)) as sub:
        barrel = _blob(
            [
                at(-1.2, -1.2),
                at(0.12, -1.2),
                at(0.14, -0.42),
                at(-0.08, -0.1),
                at(-0.62, 0.08),
                at(-1.2, 0.1),
            ]
        )
        cotes(sub, barrel, RHODIUM, r * 0.085)
        train = _blob(
            [
                at(0.32, -1.2),
                at(1.2, -1.2),
                at(1.2, 0.02),
                at(0.72, 0.06),
                at(0.5, -0.02),
                at(0.3, -0.38),
            ]
        )
        cotes(sub, train, RHODIUM, r * 0.085)
    gear(sf, *at(-0.32, -0.4), 0.3 * r, 80, STEEL, 5, 0)
    cxr, cyr = at(-0.32, -0.4)
    for k in range(36):
        line(
            sf,
            [polar(cxr, cyr, 0.07 * r, k * 10), polar(cxr, cyr, 0.25 * r, k * 10)],
            alpha(WHITE if k % 2 else BLACK, 40),
            r * 0.008,
        )
    screw(sf, cxr, cyr, 0.075 * r, 35, True)
    gear(sf, *at(0.0, -0.72), 0.14 * r, 40, STEEL, 12, 0)
    screw(sf, *at(0.0, -0.72), 0.045 * r, 80, True)
    balance(sf, *at(-0.42, 0.42), 0.27 * r, GOLD_M)
    with clip(sf, Circle(x, y, r * 0.985)) as sub:
        cock = _blob([at(-0.5, 0.34), at(-0.34, 0.34), at(-0.2, 1.2), at(-0.85, 1.2)], 8)
        cotes(sub, cock, RHODIUM, r * 0.06, angle=20)
    fill(sf, Circle(*at(-0.42, 0.42), 0.085 * r), RHODIUM.polished(*at(-0.42, 0.42)))
    jewel(sf, *at(-0.42, 0.42), 0.05 * r)
    for u, v in (
        (0.42, -0.16),
        (0.02, 0.06),
        (0.5, 0.3),
        (0.12, 0.55),
        (0.75, -0.45),
        (-0.05, -0.3),
    ):
        jewel(sf, *at(u, v), 0.042 * r)
    for u, v, a in (
        (0.55, -0.62, 20),
        (0.9, -0.1, 60),
        (-0.75, -0.05, 140),
        (-0.45, 0.8, 80),
        (-0.55, -0.8, 10),
    ):
        screw(sf, *at(u, v), 0.045 * r, a, True)


def auth_inspection(cv: Canvas) -> None:
    mat = (30, 46, 44)
    background(cv, lighter(mat, 0.12), darker(mat, 0.45), 520, 360, 0.8, vignette=70)
    for i in range(0, 1200, 40):
        line(cv, [(i, 0), (i, 800)], alpha(WHITE, 10), 1)
    for j in range(0, 800, 40):
        line(cv, [(0, j), (1200, j)], alpha(WHITE, 10), 1)
    # the watch, face down with its back open
    cx, cy, r = 470, 400, 250
    stamp(
        cv,
        lambda sf: _open_caseback(sf, cx, cy, r),
        (cx - 1.45 * r, -30, cx + 1.45 * r, 830),
        shadows=[(0.02 * r, 0.04 * r, 0.03 * r, 0.55), (0.06 * r, 0.14 * r, 0.16 * r, 0.45)],
        shadow_color=(4, 8, 8),
    )
    # the case back, lying next to it, inside facing up
    bx, by, br = 1010, 170, 150
    stamp(
        cv,
        lambda sf: _case_back(sf, bx, by, br),
        (bx - br, by - br, bx + br, by + br),
        shadows=[(3, 6, 5, 0.55), (8, 18, 26, 0.4)],
        shadow_color=(4, 8, 8),
    )
    # loupe and tweezers
    lx, ly, size = 1000, 520, 230
    stamp(
        cv,
        lambda sf: loupe(sf, lx, ly, size),
        (lx - size * 0.7, ly - size * 0.6, lx + size * 0.7, ly + size * 0.6),
        -28,
        (lx, ly),
        [(4, 8, 6, 0.6), (12, 24, 30, 0.45)],
        (4, 8, 8),
    )
    tweezers(cv, 740, 770, 1150, 700, 13)


def _open_caseback(sf, cx: float, cy: float, r: float) -> None:
    w = DIVER_NODATE
    strap(sf, w, cx, cy - 0.9 * r, -30, r, r)
    strap(sf, w, cx, cy + 0.9 * r, 830, r, r)
    soft(sf, Circle(cx, cy, r), BLACK, 0.05 * r, 0.6, (0.01 * r, 0.03 * r))
    lugs(sf, STEEL, cx, cy, r, r)
    crown(sf, w, cx, cy, r, True, side=-1)
    case_body(sf, STEEL, cx, cy, r)
    fill(sf, Ring(cx, cy, 0.95 * r, 0.86 * r), STEEL.ring(cx, cy))
    for k in range(6):  # case-back thread notches
        a = 30 + k * 60
        fill(sf, band(cx, cy, 0.95 * r, 0.88 * r, a - 4, a + 4), (70, 74, 82))
    fill(sf, Circle(cx, cy, 0.86 * r), (40, 42, 46))
    movement(sf, cx, cy, 0.84 * r)


def _case_back(sf, bx: float, by: float, br: float) -> None:
    fill(sf, Circle(bx, by, br), STEEL.ring(bx, by), True)
    for k in range(6):
        a = k * 60
        fill(sf, band(bx, by, br, br * 0.9, a - 5, a + 5), STEEL.lo)
    fill(
        sf,
        Circle(bx, by, br * 0.82),
        radial([STEEL.hi, STEEL.mid, STEEL.lo], bx - br * 0.3, by - br * 0.3, br * 1.3),
    )
    rr = br * 0.8
    while rr > br * 0.1:
        fill(sf, Ring(bx, by, rr, rr - br * 0.008), alpha(BLACK, 22))
        rr -= br * 0.045
    fill(sf, Ring(bx, by, br * 0.83, br * 0.78), (40, 42, 48))
