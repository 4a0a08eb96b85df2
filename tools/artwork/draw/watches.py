"""Whole watches: round, tonneau and Tank, each from its case, dial, hands and strap."""

from __future__ import annotations

import math
from dataclasses import replace

from tools.artwork.draw.bracelets import strap
from tools.artwork.draw.cases import (
    bezel,
    case_body,
    crown,
    crown_guard,
    crystal,
    lugs,
    octagon_case,
    pushers,
)
from tools.artwork.draw.dials import dial_face
from tools.artwork.draw.geometry import bar, frame, polar, superellipse
from tools.artwork.draw.hands import hand_angles
from tools.artwork.draw.metals import GOLD_M, TITANIUM
from tools.artwork.draw.movement import balance, gear, jewel
from tools.artwork.draw.paints import linear, radial
from tools.artwork.draw.palette import BLACK, BLUED, INK, WHITE, alpha, darker, lighter
from tools.artwork.draw.shapes import Circle, Poly, RRect, local_poly
from tools.artwork.draw.surface import Surface, clip, fill, line, outline, soft
from tools.artwork.draw.text import roman_polys
from tools.artwork.draw.watch import Watch


def round_watch(
    sf: Surface, w: Watch, cx: float, cy: float, r: float, reach: tuple[float, float]
) -> None:
    """A round watch seen from above; reach = strap length (up, down) from the centre."""
    m = w.metal
    integrated = w.strap == "integrated"
    sw = r * (1.4 if integrated else w.lug_ratio)
    strap(sf, w, cx, cy - (0.6 if integrated else 0.9) * r, cy - reach[0], sw, r)
    strap(sf, w, cx, cy + (0.6 if integrated else 0.9) * r, cy + reach[1], sw, r)
    if integrated:
        for sy in (-1, 1):
            pts = [
                (cx - 0.84 * r, cy + sy * 0.4 * r),
                (cx - 0.72 * r, cy + sy * 1.02 * r),
                (cx + 0.72 * r, cy + sy * 1.02 * r),
                (cx + 0.84 * r, cy + sy * 0.4 * r),
            ]
            fill(sf, Poly(pts), m.across((cx - 0.8 * r, 0), (cx + 0.8 * r, 0)), True)
            for sx in (-1, 1):
                line(
                    sf,
                    [
                        (cx + sx * 0.84 * r, cy + sy * 0.4 * r),
                        (cx + sx * 0.72 * r, cy + sy * 1.02 * r),
                    ],
                    alpha(m.hi, 200),
                    0.02 * r,
                )
            line(sf, [pts[1], pts[2]], alpha(m.edge, 200), 0.015 * r)
    else:
        soft(sf, Circle(cx, cy, r), BLACK, 0.05 * r, 0.6, (0.01 * r, 0.03 * r))
        lugs(sf, m, cx, cy, r, sw)
    if w.chrono:
        pushers(sf, m, cx, cy, r)
    if w.crown_guard:
        crown_guard(sf, m, cx, cy, r)
    crown(
        sf,
        w,
        cx,
        cy,
        r,
        big=w.crown_guard or w.chrono or w.indices == "pilot",
        x_edge=cx + (1.06 if w.crown_guard else 0.96) * r,
    )
    if w.bezel == "octagon":
        octagon_case(sf, w, cx, cy, r)
        rc = 0.7 * r
    else:
        case_body(sf, m, cx, cy, r)
        rc = bezel(sf, w, cx, cy, r)
    rd = rc * (0.96 if w.bezel in ("diver", "tachymeter") else 0.985)
    fill(sf, Circle(cx, cy, rc), darker(w.dial, 0.5))
    dial_face(sf, w, cx, cy, rd)
    crystal(sf, cx, cy, rc, w.dome)


def tonneau_watch(
    sf: Surface,
    w: Watch,
    cx: float,
    cy: float,
    r: float,
    reach: tuple[float, float],
    accent=(226, 44, 52),
) -> None:
    """A barrel-shaped, skeletonised sports watch on a rubber strap."""
    a, b = 0.86 * r, 1.08 * r
    m = w.metal
    sw = 1.3 * a
    strap(sf, replace(w, strap="rubber"), cx, cy - 0.8 * b, cy - reach[0], sw, r)
    strap(sf, replace(w, strap="rubber"), cx, cy + 0.8 * b, cy + reach[1], sw, r)
    crown(sf, w, cx, cy, r, big=True, x_edge=cx + 0.97 * a)
    for yy in (-0.42, 0.42):
        fill(
            sf,
            RRect(
                cx + 0.88 * a,
                cy + yy * b - 0.06 * r,
                cx + 1.12 * a,
                cy + yy * b + 0.06 * r,
                0.02 * r,
            ),
            m.across((0, cy + yy * b - 0.06 * r), (0, cy + yy * b + 0.06 * r)),
            True,
        )
    outer = Poly(superellipse(cx, cy, a, b, 3.4))
    soft(sf, outer, BLACK, 0.05 * r, 0.5, (0.01 * r, 0.03 * r))
    fill(sf, outer, m.polished(cx, cy, 315, 2), True)
    plate = Poly(superellipse(cx, cy, 0.93 * a, 0.94 * b, 3.4))
    fill(sf, plate, linear([m.hi, m.mid, m.lo], (cx - a, cy - b), (cx + a, cy + b)))
    opening = Poly(superellipse(cx, cy, 0.76 * a, 0.8 * b, 3.2))
    for k in range(8):
        t = 2 * math.pi * (k + 0.5) / 8
        c, s = math.cos(t), math.sin(t)
        x = cx + 0.85 * a * math.copysign(abs(c) ** (2 / 3.4), c)
        y = cy + 0.87 * b * math.copysign(abs(s) ** (2 / 3.4), s)
        fill(sf, Circle(x, y, 0.05 * r), alpha(BLACK, 100))
        fill(sf, Circle(x, y, 0.04 * r), TITANIUM.polished(x, y))
        line(sf, [polar(x, y, 0.03 * r, 45), polar(x, y, 0.03 * r, 225)], TITANIUM.edge, 0.012 * r)
    fill(sf, opening, (22, 23, 27))
    with clip(sf, opening) as sub:
        fill(
            sub,
            Circle(cx, cy, 1.5 * r),
            radial([(40, 42, 48), (18, 19, 22)], cx - 0.2 * r, cy - 0.3 * r, 1.1 * r),
        )
        gear(sub, cx - 0.18 * r, cy - 0.28 * r, 0.32 * r, 40, GOLD_M, 8)
        gear(sub, cx + 0.26 * r, cy - 0.02 * r, 0.22 * r, 30, GOLD_M, 20)
        gear(sub, cx - 0.05 * r, cy + 0.22 * r, 0.16 * r, 24, (200, 204, 210), 5)
        balance(sub, cx + 0.05 * r, cy + 0.55 * r, 0.2 * r, GOLD_M)
        # skeleton bridges
        bridge_c = TITANIUM
        for p, q in (
            ((cx - 0.7 * a, cy - 0.15 * b), (cx + 0.7 * a, cy + 0.15 * b)),
            ((cx - 0.7 * a, cy + 0.35 * b), (cx + 0.1 * a, cy + 0.05 * b)),
            ((cx + 0.1 * a, cy + 0.05 * b), (cx + 0.7 * a, cy - 0.55 * b)),
            ((cx - 0.4 * a, cy - 0.75 * b), (cx - 0.1 * a, cy + 0.0 * b)),
        ):
            poly = Poly(bar(p, q, 0.1 * r))
            soft(sub, poly, BLACK, 0.03 * r, 0.7, (0.01 * r, 0.03 * r))
            fill(sub, poly, bridge_c.across(bar(p, q, 0.1 * r)[0], bar(p, q, 0.1 * r)[3]))
            line(sub, [p, q], alpha(WHITE, 50), 0.012 * r)
            for pt in (p, q):
                jewel(sub, pt[0], pt[1], 0.035 * r)
    # accent flange with markers
    flange_o = superellipse(cx, cy, 0.76 * a, 0.8 * b, 3.2)
    flange_i = superellipse(cx, cy, 0.68 * a, 0.72 * b, 3.2)
    for i in range(len(flange_o)):
        j = (i + 1) % len(flange_o)
        fill(sf, Poly([flange_o[i], flange_o[j], flange_i[j], flange_i[i]]), accent)
    for h in range(12):
        ang = h * 30
        t = math.radians(90 - ang)
        c, s = math.cos(t), -math.sin(t)
        x = cx + 0.72 * a * math.copysign(abs(c) ** (2 / 3.2), c)
        y = cy + 0.76 * b * math.copysign(abs(s) ** (2 / 3.2), s)
        tf = frame(x, y, ang)
        ln = 0.09 * r if h % 3 == 0 else 0.05 * r
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.018 * r, -ln),
                    (0.018 * r, -ln),
                    (0.018 * r, 0.03 * r),
                    (-0.018 * r, 0.03 * r),
                ],
            ),
            WHITE,
        )
    ha, ma, _ = hand_angles(w)
    for ang, ln, wd in ((ha, 0.45 * r, 0.07 * r), (ma, 0.7 * r, 0.055 * r)):
        tf = frame(cx, cy, ang)
        outer_h = local_poly(
            tf,
            [
                (-wd / 2, -0.05 * r),
                (wd / 2, -0.05 * r),
                (wd / 2, ln * 0.85),
                (0, ln),
                (-wd / 2, ln * 0.85),
            ],
        )
        soft(sf, outer_h, BLACK, 0.02 * r, 0.6, (0.02 * r, 0.04 * r))
        fill(sf, outer_h, (236, 238, 240))
        fill(
            sf,
            local_poly(
                tf, [(-wd / 4, 0.1 * r), (wd / 4, 0.1 * r), (wd / 4, ln * 0.8), (-wd / 4, ln * 0.8)]
            ),
            (28, 29, 33),
        )
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-wd / 4, ln * 0.62),
                    (wd / 4, ln * 0.62),
                    (wd / 4, ln * 0.8),
                    (-wd / 4, ln * 0.8),
                ],
            ),
            accent,
        )
    fill(sf, Circle(cx, cy, 0.05 * r), accent)
    fill(sf, Circle(cx, cy, 0.02 * r), (30, 30, 30))
    with clip(sf, opening) as sub:
        soft(sub, Circle(cx - 0.3 * a, cy - 0.55 * b, 0.6 * a, 0.35 * b), WHITE, 0.2 * r, 0.1)
    line(sf, superellipse(cx, cy, 0.76 * a, 0.8 * b, 3.2, 60)[36:50], alpha(WHITE, 110), 0.012 * r)


def tank_watch(
    sf: Surface, w: Watch, cx: float, cy: float, r: float, reach: tuple[float, float]
) -> None:
    """A rectangular dress watch with side rails, Roman numerals and a railway track."""
    m = w.metal
    a, b = 0.7 * r, 0.95 * r
    rail = 0.17 * r
    sw = 2 * (a - rail) + 0.02 * r
    strap(sf, w, cx, cy - b + 0.05 * r, cy - reach[0], sw, r)
    strap(sf, w, cx, cy + b - 0.05 * r, cy + reach[1], sw, r)
    # crown with cabochon
    x_edge = cx + a
    fill(
        sf,
        RRect(x_edge - 0.02 * r, cy - 0.04 * r, x_edge + 0.07 * r, cy + 0.04 * r),
        m.across((0, cy - 0.04 * r), (0, cy + 0.04 * r)),
        True,
    )
    oct_pts = [
        (
            x_edge + 0.06 * r + 0.06 * r * math.cos(math.radians(t)) * 0.9,
            cy + 0.085 * r * math.sin(math.radians(t)),
        )
        for t in range(0, 360, 45)
    ]
    fill(
        sf,
        Poly([(x, y) for x, y in oct_pts]),
        m.across((0, cy - 0.09 * r), (0, cy + 0.09 * r)),
        True,
    )
    fill(sf, Circle(x_edge + 0.125 * r, cy, 0.025 * r, 0.062 * r), (24, 44, 120), True)
    fill(
        sf,
        Circle(x_edge + 0.13 * r, cy - 0.02 * r, 0.008 * r, 0.02 * r),
        alpha((150, 180, 255), 200),
    )
    case = RRect(cx - a, cy - b, cx + a, cy + b, 0.06 * r)
    soft(sf, case, BLACK, 0.04 * r, 0.5, (0.01 * r, 0.02 * r))
    fill(sf, case, linear([m.hi, m.mid, m.lo], (cx - a, cy - b), (cx + a, cy + b)), True)
    for sx in (-1, 1):
        x0, x1 = sorted((cx + sx * a, cx + sx * (a - rail)))
        railshape = RRect(x0, cy - b - 0.2 * r, x1, cy + b + 0.2 * r, 0.06 * r)
        soft(sf, railshape, BLACK, 0.03 * r, 0.45, (0.01 * r, 0.02 * r))
        fill(sf, railshape, m.across((cx + sx * a, 0), (cx + sx * (a - rail), 0)), True)
        line(
            sf,
            [
                (cx + sx * (a - rail * 0.35), cy - b - 0.16 * r),
                (cx + sx * (a - rail * 0.35), cy + b + 0.16 * r),
            ],
            alpha(m.hi, 200),
            0.02 * r,
        )
    da, db = a - rail - 0.03 * r, b - 0.08 * r
    fill(
        sf,
        RRect(
            cx - da - 0.02 * r, cy - db - 0.02 * r, cx + da + 0.02 * r, cy + db + 0.02 * r, 0.02 * r
        ),
        m.lo,
    )
    fill(
        sf,
        RRect(cx - da, cy - db, cx + da, cy + db, 0.015 * r),
        radial(
            [lighter(w.dial, 0.5), w.dial, darker(w.dial, 0.05)],
            cx - 0.2 * r,
            cy - 0.35 * r,
            1.4 * r,
        ),
    )
    ink = w.track or INK
    # numerals around the rectangle, oriented towards the centre
    na, nb = da - 0.02 * r, db - 0.02 * r
    for h in range(12):
        ang = h * 30
        dx, dy = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
        num = ["XII", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI"][h]
        height = (0.19 if h in (0, 6) else 0.15 if h in (3, 9) else 0.16) * r
        corner = min(na / max(abs(dx), 1e-9), nb / max(abs(dy), 1e-9))
        tf = frame(cx, cy, ang)
        dist = corner - height * 0.55 - (0.015 * r if h % 3 else 0)
        for p in roman_polys(num, height):
            fill(sf, local_poly(tf, [(u * 0.9, v + dist) for u, v in p]), ink)
    # railway track
    ta, tb = da * 0.52, db * 0.62
    for k, (xa, ya) in enumerate(((ta, tb), (ta - 0.05 * r, tb - 0.05 * r))):
        outline(
            sf, RRect(cx - xa, cy - ya, cx + xa, cy + ya).points(), ink, (0.007 if k else 0.009) * r
        )
    for i in range(60):
        ang = i * 6
        dx, dy = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
        t0 = min((ta - 0.05 * r) / max(abs(dx), 1e-9), (tb - 0.05 * r) / max(abs(dy), 1e-9))
        t1 = min(ta / max(abs(dx), 1e-9), tb / max(abs(dy), 1e-9))
        line(sf, [(cx + dx * t0, cy + dy * t0), (cx + dx * t1, cy + dy * t1)], ink, 0.008 * r)
    ha, ma, _ = hand_angles(w)
    for ang, ln in ((ha, 0.5 * r), (ma, 0.78 * r)):
        tf = frame(cx, cy, ang)
        shape = local_poly(
            tf,
            [
                (-0.03 * r, -0.06 * r),
                (0.03 * r, -0.06 * r),
                (0.012 * r, 0.2 * r),
                (0.045 * r, ln * 0.72),
                (0, ln),
                (-0.045 * r, ln * 0.72),
                (-0.012 * r, 0.2 * r),
            ],
        )
        soft(sf, shape, BLACK, 0.015 * r, 0.35, (0.015 * r, 0.03 * r))
        fill(sf, shape, BLUED)
        fill(
            sf,
            local_poly(
                tf, [(0, -0.05 * r), (0, ln), (-0.045 * r, ln * 0.72), (-0.012 * r, 0.2 * r)]
            ),
            alpha((120, 150, 230), 90),
        )
    fill(sf, Circle(cx, cy, 0.035 * r), BLUED)
    with clip(sf, RRect(cx - da, cy - db, cx + da, cy + db)) as sub:
        soft(
            sub,
            Poly(
                [
                    (cx - da, cy - db * 0.2),
                    (cx - da * 0.2, cy - db),
                    (cx + da * 0.25, cy - db),
                    (cx - da, cy + db * 0.25),
                ]
            ),
            WHITE,
            0.05 * r,
            0.22,
        )
