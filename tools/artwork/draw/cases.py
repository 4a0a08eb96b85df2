"""Cases: lugs, crowns and guards, pushers, case bodies, bezels, the octagon case, the crystal."""

from __future__ import annotations

import math

from tools.artwork.draw.geometry import arc_points, bezier, frame, polar
from tools.artwork.draw.metals import WHITE_GOLD, Metal
from tools.artwork.draw.paints import linear, sheen
from tools.artwork.draw.palette import BLACK, WHITE, alpha, darker, lighter, mix
from tools.artwork.draw.shapes import Circle, Poly, Ring, RRect, band, local_poly
from tools.artwork.draw.surface import Surface, arc, clip, fill, line, soft
from tools.artwork.draw.text import text
from tools.artwork.draw.watch import Watch


def lugs(
    sf: Surface, m: Metal, cx: float, cy: float, r: float, strap_w: float, length: float = 1.2
) -> None:
    """Four lugs: brushed tops with a polished chamfer along the outer edge."""
    inner = strap_w / 2 + 0.008 * r
    tip = inner + 0.14 * r
    for sy in (-1, 1):
        for sx in (-1, 1):
            start = (cx + sx * 0.87 * r, cy + sy * 0.48 * r)
            end = (cx + sx * tip, cy + sy * (length - 0.05) * r)
            outer = bezier(start, (cx + sx * (tip + 0.05 * r), cy + sy * 0.92 * r), end, 16)
            cap = bezier(
                end,
                (cx + sx * tip, cy + sy * length * r),
                (cx + sx * (tip - 0.06 * r), cy + sy * length * r),
                6,
            )
            pts = (
                [(cx + sx * inner, cy + sy * 0.48 * r)]
                + outer
                + cap[1:]
                + [(cx + sx * inner, cy + sy * length * r)]
            )
            top = linear(
                [(0, mix(m.mid, m.lo, 0.5)), (0.5, m.mid), (1, mix(m.mid, m.lo, 0.3))],
                (cx + sx * tip, 0),
                (cx + sx * inner, 0),
            )
            fill(sf, Poly(pts), top, True)
            chamfer = (
                outer
                + [
                    (x - sx * 0.05 * r * (0.5 + 0.5 * i / len(outer)), y)
                    for i, (x, y) in enumerate(outer)
                ][::-1]
            )
            fill(
                sf,
                Poly(chamfer),
                linear(
                    [(0, m.hi), (0.5, m.hi), (1, m.mid)],
                    (0, cy + sy * 0.5 * r),
                    (0, cy + sy * length * r),
                ),
            )
            line(sf, outer, alpha(m.edge, 120), 0.01 * r)
            line(
                sf,
                [(cx + sx * inner, cy + sy * 0.5 * r), (cx + sx * inner, cy + sy * length * r)],
                alpha(m.edge, 170),
                0.01 * r,
            )
            line(sf, cap + [(cx + sx * inner, cy + sy * length * r)], alpha(m.edge, 140), 0.012 * r)


def crown(
    sf: Surface,
    w: Watch,
    cx: float,
    cy: float,
    r: float,
    big: bool = True,
    x_edge: float | None = None,
    side: int = 1,
) -> None:
    """The winding crown, on the right (side=1) or, for a watch seen from the back, the left."""
    m = w.accent or w.metal
    x_edge = cx + side * 0.96 * r if x_edge is None else x_edge
    h = (0.3 if big else 0.2) * r
    length = (0.17 if big else 0.12) * r

    def box(a: float, b: float, y0: float, y1: float, rad: float = 0.0) -> RRect:
        xa, xb = sorted((x_edge + side * a, x_edge + side * b))
        return RRect(xa, y0, xb, y1, rad)

    fill(
        sf,
        box(-0.04 * r, 0.05 * r, cy - 0.055 * r, cy + 0.055 * r),
        m.across((0, cy - 0.055 * r), (0, cy + 0.055 * r)),
        True,
    )
    a0, a1 = 0.03 * r, 0.03 * r + length
    fill(
        sf,
        box(a0, a1, cy - h / 2, cy + h / 2, 0.035 * r),
        m.across((0, cy - h / 2), (0, cy + h / 2)),
        True,
    )
    n = 9 if big else 7
    for i in range(1, n):
        y = cy - h / 2 + h * i / n
        line(
            sf,
            [(x_edge + side * (a0 + 0.02 * r), y), (x_edge + side * (a1 - 0.015 * r), y)],
            alpha(m.edge, 150),
            0.012 * r,
        )
    fill(
        sf,
        box(a1 - 0.025 * r, a1 - 0.005 * r, cy - h / 2 + 0.02 * r, cy + h / 2 - 0.02 * r, 0.01 * r),
        alpha(m.hi, 120),
    )


def crown_guard(sf: Surface, m: Metal, cx, cy, r) -> None:
    pts = arc_points(cx, cy, 0.97 * r, 118, 62)
    pts += bezier(
        polar(cx, cy, 0.97 * r, 62),
        (cx + 1.08 * r, cy - 0.42 * r),
        (cx + 1.09 * r, cy - 0.17 * r),
        8,
    )
    pts += [(cx + 1.09 * r, cy + 0.17 * r)]
    pts += bezier(
        (cx + 1.09 * r, cy + 0.17 * r),
        (cx + 1.08 * r, cy + 0.42 * r),
        polar(cx, cy, 0.97 * r, 118),
        8,
    )
    fill(sf, Poly(pts), m.across((cx + 1.1 * r, cy - 0.5 * r), (cx + 0.9 * r, cy + 0.5 * r)), True)


def pushers(sf: Surface, m: Metal, cx, cy, r) -> None:
    for ang in (58, 122):
        tf = frame(cx, cy, ang)
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.07 * r, 0.9 * r),
                    (0.07 * r, 0.9 * r),
                    (0.07 * r, 1.06 * r),
                    (-0.07 * r, 1.06 * r),
                ],
            ),
            m.mid,
            True,
        )
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.1 * r, 1.04 * r),
                    (0.1 * r, 1.04 * r),
                    (0.1 * r, 1.14 * r),
                    (-0.1 * r, 1.14 * r),
                ],
            ),
            m.across(tf(-0.1 * r, 1.1 * r), tf(0.1 * r, 1.1 * r)),
            True,
        )
        line(sf, [tf(-0.08 * r, 1.13 * r), tf(0.08 * r, 1.13 * r)], alpha(m.hi, 180), 0.015 * r)


def case_body(sf: Surface, m: Metal, cx, cy, r) -> None:
    fill(sf, Circle(cx, cy, r), m.ring(cx, cy), True)
    fill(sf, Ring(cx, cy, r, r - 0.012 * r), alpha(m.edge, 170))
    arc(sf, cx, cy, r - 0.03 * r, 250, 340, alpha(WHITE, 130), 0.018 * r)


def bezel(sf: Surface, w: Watch, cx: float, cy: float, r: float) -> float:
    """Draw the bezel; return the radius of the crystal opening inside it."""
    m = w.accent or w.metal
    kind = w.bezel
    if kind == "diver":
        fill(sf, Circle(cx, cy, 0.965 * r), m.ring(cx, cy))
        for i in range(120):
            a = i * 3
            tf = frame(cx, cy, a)
            fill(
                sf,
                local_poly(
                    tf,
                    [
                        (-0.011 * r, 0.9 * r),
                        (0.011 * r, 0.9 * r),
                        (0.008 * r, 0.962 * r),
                        (-0.008 * r, 0.962 * r),
                    ],
                ),
                alpha(m.edge, 110),
            )
        ro, ri = 0.905 * r, 0.735 * r
        c = w.bezel_color
        fill(
            sf,
            Ring(cx, cy, ro, ri),
            sheen([(0, lighter(c, 0.22)), (0.5, c), (1, darker(c, 0.35))], cx, cy, 315, 1),
        )
        fill(sf, Ring(cx, cy, ro, ro - 0.01 * r), alpha(BLACK, 120))
        mk = w.bezel_marks
        for i in range(60):
            if i == 0:
                continue
            tf = frame(cx, cy, i * 6)
            if i % 10 == 0:
                text(
                    sf,
                    *tf(0, 0.82 * r),
                    str(i),
                    0.1 * r,
                    mk,
                    angle=i * 6 if i <= 30 else i * 6,
                    weight=0.004 * r,
                )
            elif i % 5 == 0:
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (-0.026 * r, 0.765 * r),
                            (0.026 * r, 0.765 * r),
                            (0.026 * r, 0.875 * r),
                            (-0.026 * r, 0.875 * r),
                        ],
                    ),
                    mk,
                )
            elif i < 15:
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (-0.008 * r, 0.8 * r),
                            (0.008 * r, 0.8 * r),
                            (0.008 * r, 0.87 * r),
                            (-0.008 * r, 0.87 * r),
                        ],
                    ),
                    mk,
                )
        tf = frame(cx, cy, 0)
        fill(
            sf, local_poly(tf, [(-0.075 * r, 0.89 * r), (0.075 * r, 0.89 * r), (0, 0.765 * r)]), mk
        )
        fill(sf, Circle(*tf(0, 0.845 * r), 0.028 * r), darker(mk, 0.25))
        fill(sf, Circle(*tf(0, 0.845 * r), 0.022 * r), w.lume)
        inner = 0.735 * r
    elif kind == "tachymeter":
        fill(sf, Circle(cx, cy, 0.96 * r), m.ring(cx, cy))
        c = w.bezel_color
        ro, ri = 0.93 * r, 0.77 * r
        fill(
            sf,
            Ring(cx, cy, ro, ri),
            sheen([(0, lighter(c, 0.18)), (0.5, c), (1, darker(c, 0.3))], cx, cy, 315, 1),
        )
        mk = w.bezel_marks
        for speed in range(60, 520, 10):
            secs = 3600 / speed
            if secs > 60:
                continue
            a = secs * 6
            tf = frame(cx, cy, a)
            big = speed in (60, 70, 80, 90, 100, 120, 150, 200, 300, 500)
            fill(
                sf,
                local_poly(
                    tf,
                    [
                        (-0.006 * r, 0.88 * r),
                        (0.006 * r, 0.88 * r),
                        (0.006 * r, (0.925 if big else 0.91) * r),
                        (-0.006 * r, (0.925 if big else 0.91) * r),
                    ],
                ),
                mk,
            )
            if big:
                text(sf, *tf(0, 0.82 * r), str(speed), 0.065 * r, mk, angle=a, weight=0.002 * r)
        fill(sf, Circle(*polar(cx, cy, 0.85 * r, 0), 0.022 * r), mk)
        inner = 0.77 * r
    elif kind == "fluted":
        ro, ri = 0.97 * r, 0.78 * r
        fill(sf, Ring(cx, cy, ro, ri), m.ring(cx, cy))
        n = 64
        for i in range(n):
            a0 = i * 360 / n
            a1 = a0 + 360 / n
            lit = 0.5 + 0.5 * math.cos(math.radians(a0 - 315))
            fill(
                sf,
                band(cx, cy, ro - 0.01 * r, ri + 0.01 * r, a0, a0 + 360 / n * 0.45),
                alpha(WHITE, 40 + 130 * lit),
            )
            fill(
                sf,
                band(cx, cy, ro - 0.01 * r, ri + 0.01 * r, a0 + 360 / n * 0.55, a1),
                alpha(darker(m.lo, 0.4), 60 + 120 * (1 - lit)),
            )
        fill(sf, Ring(cx, cy, ri + 0.012 * r, ri), alpha(m.edge, 160))
        inner = ri
    elif kind == "smooth":
        fill(sf, Ring(cx, cy, 0.965 * r, 0.84 * r), m.polished(cx, cy, 315, 2))
        arc(sf, cx, cy, 0.93 * r, 260, 340, alpha(WHITE, 150), 0.02 * r)
        fill(sf, Ring(cx, cy, 0.85 * r, 0.84 * r), alpha(m.edge, 150))
        inner = 0.84 * r
    else:  # thin
        fill(sf, Ring(cx, cy, 0.97 * r, 0.9 * r), m.polished(cx, cy, 315, 2))
        fill(sf, Ring(cx, cy, 0.91 * r, 0.9 * r), alpha(m.edge, 170))
        inner = 0.9 * r
    return inner


def crystal(sf: Surface, cx: float, cy: float, rc: float, strength: float = 1.0) -> None:
    """Reflections on the glass: a soft upper-left glow and highlights along the rim."""
    with clip(sf, Circle(cx, cy, rc)) as sub:
        soft(
            sub,
            Poly(
                [
                    (cx - 1.3 * rc, cy + 0.05 * rc),
                    (cx + 0.1 * rc, cy - 1.3 * rc),
                    (cx + 0.45 * rc, cy - 1.05 * rc),
                    (cx - 1.0 * rc, cy + 0.35 * rc),
                ]
            ),
            WHITE,
            0.12 * rc,
            0.09 * strength,
        )
    arc(sf, cx, cy, rc * 0.975, 275, 345, alpha(WHITE, 130 * strength), 0.012 * rc)
    arc(sf, cx, cy, rc * 0.975, 255, 275, alpha(WHITE, 60 * strength), 0.01 * rc)
    arc(sf, cx, cy, rc * 0.975, 95, 175, alpha(WHITE, 45 * strength), 0.008 * rc)
    fill(sf, Ring(cx, cy, rc, rc - 0.012 * rc), alpha(BLACK, 110))


def octagon_case(sf: Surface, w: Watch, cx: float, cy: float, r: float) -> None:
    m = w.metal
    fill(sf, Circle(cx, cy, 0.99 * r), m.polished(cx, cy, 315, 2), True)
    fill(sf, Ring(cx, cy, 0.99 * r, 0.975 * r), alpha(m.edge, 150))
    oct_pts = [polar(cx, cy, 0.97 * r, 22.5 + 45 * i) for i in range(8)]
    soft(sf, Poly(oct_pts), BLACK, 0.015 * r, 0.6)
    soft(sf, Poly(oct_pts), BLACK, 0.04 * r, 0.5, (0.01 * r, 0.03 * r))
    fill(sf, Poly(oct_pts), linear([m.hi, m.mid, m.lo], (cx - r, cy - r), (cx + r, cy + r)))
    inner = [polar(cx, cy, 0.87 * r, 22.5 + 45 * i) for i in range(8)]
    fill(sf, Poly(inner), m.polished(cx, cy, 300, 2))
    for i in range(8):
        a, b = oct_pts[i], oct_pts[(i + 1) % 8]
        c, d = inner[(i + 1) % 8], inner[i]
        mid_a = 22.5 + 45 * i + 22.5
        lit = 0.5 + 0.5 * math.cos(math.radians(mid_a - 315))
        fill(
            sf,
            Poly([a, b, c, d]),
            alpha(WHITE if lit > 0.5 else BLACK, 40 + 80 * abs(lit - 0.5) * 2),
        )
    for i in range(8):
        x, y = polar(cx, cy, 0.885 * r, 22.5 + 45 * i)
        hexa = [polar(x, y, 0.045 * r, 30 + 60 * k) for k in range(6)]
        fill(sf, Circle(x, y, 0.055 * r), alpha(BLACK, 90))
        fill(sf, Poly(hexa), WHITE_GOLD.polished(x, y))
        line(
            sf,
            [polar(x, y, 0.03 * r, 20 + 45 * i), polar(x, y, 0.03 * r, 200 + 45 * i)],
            alpha(m.edge, 220),
            0.012 * r,
        )
    fill(sf, Circle(cx, cy, 0.72 * r), darker(m.lo, 0.4))
    fill(sf, Ring(cx, cy, 0.72 * r, 0.7 * r), m.mid)
