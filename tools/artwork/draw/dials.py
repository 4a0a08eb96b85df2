"""Dials: base and texture, minute track, indices, date window, subdials, the Journe dial."""

from __future__ import annotations

from dataclasses import replace

from tools.artwork.draw.geometry import frame, polar
from tools.artwork.draw.hands import hands
from tools.artwork.draw.paints import linear, radial, sheen
from tools.artwork.draw.palette import BLACK, INK, WHITE, alpha, darker, lighter, mix
from tools.artwork.draw.shapes import Circle, Poly, Ring, RRect, local_poly, shifted
from tools.artwork.draw.surface import Surface, arc, clip, fill, soft
from tools.artwork.draw.text import roman_polys, text
from tools.artwork.draw.watch import Watch


def dial_base(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    c = w.dial
    if w.texture == "sunburst":
        fill(
            sf,
            Circle(cx, cy, rd),
            sheen([(0, lighter(c, 0.2)), (0.5, c), (1, darker(c, 0.3))], cx, cy, 315, 2),
        )
        for i in range(180):
            a = i * 2
            tf = frame(cx, cy, a)
            shade = alpha(WHITE, 9) if i % 2 else alpha(BLACK, 12)
            fill(sf, local_poly(tf, [(0, 0.05 * rd), (-0.01 * rd, rd), (0.01 * rd, rd)]), shade)
    elif w.texture == "grid":
        fill(
            sf,
            Circle(cx, cy, rd),
            sheen([(0, lighter(c, 0.18)), (0.5, c), (1, darker(c, 0.25))], cx, cy, 315, 1),
        )
        cell = rd * 0.09
        with clip(sf, Circle(cx, cy, rd)) as sub:
            n = int(rd / cell) + 2
            for j in range(-n, n + 1):
                for i in range(-n, n + 1):
                    x0, y0 = cx + i * cell, cy + j * cell
                    g = 0.11 * cell
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + g, y0 + g),
                                (x0 + cell - g, y0 + g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(WHITE, 38),
                    )
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + g, y0 + g),
                                (x0 + g, y0 + cell - g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(WHITE, 18),
                    )
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + cell - g, y0 + g),
                                (x0 + cell - g, y0 + cell - g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(BLACK, 40),
                    )
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + g, y0 + cell - g),
                                (x0 + cell - g, y0 + cell - g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(BLACK, 60),
                    )
    elif w.texture == "rings":
        fill(
            sf,
            Circle(cx, cy, rd),
            radial([lighter(c, 0.1), c, darker(c, 0.08)], cx - 0.2 * rd, cy - 0.3 * rd, rd * 1.5),
        )
        k = 0
        rr = rd * 0.98
        while rr > rd * 0.05:
            fill(sf, Ring(cx, cy, rr, rr - rd * 0.006), alpha(BLACK if k % 2 else WHITE, 16))
            rr -= rd * 0.03
            k += 1
    else:
        fill(
            sf,
            Circle(cx, cy, rd),
            radial(
                [lighter(c, 0.12), c, darker(c, 0.12)], cx - 0.25 * rd, cy - 0.35 * rd, rd * 1.6
            ),
        )


def minute_track(sf: Surface, color, cx, cy, rd, inner=0.93, five_wide=True) -> None:
    for i in range(60):
        tf = frame(cx, cy, i * 6)
        wide = five_wide and i % 5 == 0
        hw = (0.011 if wide else 0.005) * rd
        fill(
            sf,
            local_poly(
                tf, [(-hw, inner * rd), (hw, inner * rd), (hw, 0.985 * rd), (-hw, 0.985 * rd)]
            ),
            color,
        )


def indices(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    kind = w.indices
    m = w.index_metal
    if kind == "diver":
        for h in range(12):
            a = h * 30
            tf = frame(cx, cy, a)
            if h == 3 and w.date:
                continue
            if h == 0:
                outer = local_poly(
                    tf, [(-0.12 * rd, 0.92 * rd), (0.12 * rd, 0.92 * rd), (0, 0.68 * rd)]
                )
                inner = local_poly(
                    tf, [(-0.09 * rd, 0.9 * rd), (0.09 * rd, 0.9 * rd), (0, 0.72 * rd)]
                )
            elif h in (3, 6, 9):
                outer = local_poly(
                    tf,
                    [
                        (-0.055 * rd, 0.66 * rd),
                        (0.055 * rd, 0.66 * rd),
                        (0.055 * rd, 0.92 * rd),
                        (-0.055 * rd, 0.92 * rd),
                    ],
                )
                inner = local_poly(
                    tf,
                    [
                        (-0.035 * rd, 0.68 * rd),
                        (0.035 * rd, 0.68 * rd),
                        (0.035 * rd, 0.9 * rd),
                        (-0.035 * rd, 0.9 * rd),
                    ],
                )
            else:
                p = tf(0, 0.82 * rd)
                outer = Circle(p[0], p[1], 0.085 * rd)
                inner = Circle(p[0], p[1], 0.066 * rd)
            fill(sf, shifted(outer, 0.006 * rd, 0.014 * rd), alpha(BLACK, 80))
            fill(sf, outer, mix(m.mid, m.hi, 0.5))
            fill(sf, inner, w.lume)
    elif kind in ("baton", "applied"):
        for h in range(12):
            if h == 3 and w.date:
                continue
            if w.chrono and h in (3, 6, 9):
                continue
            a = h * 30
            tf = frame(cx, cy, a)
            offsets = (-0.035, 0.035) if h == 0 else (0.0,)
            r_in = 0.7 if h % 3 == 0 else 0.74
            for off in offsets:
                hw = 0.024 * rd
                u = off * rd
                pts = [
                    (u - hw, r_in * rd),
                    (u + hw, r_in * rd),
                    (u + hw, 0.9 * rd),
                    (u - hw, 0.9 * rd),
                ]
                poly = local_poly(tf, pts)
                fill(sf, shifted(poly, 0.005 * rd, 0.012 * rd), alpha(BLACK, 70))
                fill(sf, poly, m.lo)
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (u - hw, r_in * rd),
                            (u, r_in * rd + hw),
                            (u, 0.9 * rd - hw),
                            (u - hw, 0.9 * rd),
                        ],
                    ),
                    m.hi,
                )
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (u, r_in * rd + hw),
                            (u + hw * 0.2, r_in * rd + hw),
                            (u + hw * 0.2, 0.9 * rd - hw),
                            (u, 0.9 * rd - hw),
                        ],
                    ),
                    m.mid,
                )
                if w.hand_fill and w.strap != "leather":
                    fill(
                        sf,
                        local_poly(
                            tf,
                            [
                                (u - hw * 0.35, (r_in + 0.03) * rd),
                                (u + hw * 0.35, (r_in + 0.03) * rd),
                                (u + hw * 0.35, 0.87 * rd),
                                (u - hw * 0.35, 0.87 * rd),
                            ],
                        ),
                        w.lume,
                    )
    elif kind == "pilot":
        for h in range(12):
            a = h * 30
            tf = frame(cx, cy, a)
            if h == 0:
                fill(
                    sf,
                    local_poly(tf, [(-0.1 * rd, 0.9 * rd), (0.1 * rd, 0.9 * rd), (0, 0.7 * rd)]),
                    w.lume,
                )
                for u in (-0.16, 0.16):
                    fill(sf, Circle(*tf(u * rd, 0.86 * rd), 0.028 * rd), w.lume)
                continue
            if h == 3 and w.date:
                continue
            x, y = tf(0, 0.74 * rd)
            text(sf, x, y, str(h), 0.2 * rd, w.lume, weight=0.008 * rd)
    elif kind == "roman":
        for h in range(12):
            tf = frame(cx, cy, h * 30)
            num = ["XII", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI"][
                h
            ].replace("IX", "VIIII")
            for p in roman_polys(num, 0.16 * rd):
                fill(sf, local_poly(tf, [(u, v + 0.76 * rd) for u, v in p]), w.track or INK)


def date_window(sf: Surface, w: Watch, cx: float, cy: float, rd: float, day: str = "18") -> None:
    x = cx + 0.74 * rd
    hw, hh = 0.12 * rd, 0.095 * rd
    fill(
        sf,
        RRect(
            x - hw - 0.02 * rd,
            cy - hh - 0.02 * rd,
            x + hw + 0.02 * rd,
            cy + hh + 0.02 * rd,
            0.015 * rd,
        ),
        w.index_metal.polished(x, cy),
    )
    fill(sf, RRect(x - hw, cy - hh, x + hw, cy + hh, 0.01 * rd), (246, 245, 240))
    fill(sf, RRect(x - hw, cy - hh, x + hw, cy - hh + 0.03 * rd), alpha(BLACK, 40))
    text(sf, x, cy, day, 0.13 * rd, INK, weight=0.003 * rd)
    if w.cyclops:
        cw, ch = 0.2 * rd, 0.15 * rd
        rim = RRect(x - cw, cy - ch, x + cw, cy + ch, 0.05 * rd)
        lens = RRect(
            x - cw + 0.012 * rd,
            cy - ch + 0.012 * rd,
            x + cw - 0.012 * rd,
            cy + ch - 0.012 * rd,
            0.04 * rd,
        )
        soft(sf, rim, BLACK, 0.02 * rd, 0.35, (0.01 * rd, 0.02 * rd))
        fill(sf, rim, (214, 218, 222))
        fill(sf, lens, (250, 250, 246))
        text(sf, x, cy, day, 0.2 * rd, INK, weight=0.005 * rd)
        fill(
            sf,
            lens,
            linear(
                [
                    (0, alpha(WHITE, 150)),
                    (0.35, alpha(WHITE, 0)),
                    (0.8, alpha(BLACK, 0)),
                    (1, alpha(BLACK, 60)),
                ],
                (x, cy - ch),
                (x, cy + ch),
            ),
        )


def subdials(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    for ang, val in ((90, 0.3), (180, 0.55), (270, 0.8)):
        x, y = polar(cx, cy, 0.46 * rd, ang)
        sr = 0.25 * rd
        c = w.subdial
        fill(
            sf,
            Circle(x, y, sr + 0.02 * rd),
            darker(w.dial, 0.3) if sum(c) > 380 else lighter(w.dial, 0.2),
        )
        fill(
            sf,
            Circle(x, y, sr),
            radial([lighter(c, 0.08), c, darker(c, 0.1)], x - sr * 0.3, y - sr * 0.3, sr * 1.6),
        )
        rr = sr * 0.95
        while rr > sr * 0.15:
            fill(sf, Ring(x, y, rr, rr - sr * 0.012), alpha(BLACK, 14))
            rr -= sr * 0.06
        ink = INK if sum(c) > 380 else (236, 236, 236)
        for i in range(30):
            tf = frame(x, y, i * 12)
            long = i % 5 == 0
            hw = (0.025 if long else 0.012) * sr
            fill(
                sf,
                local_poly(
                    tf,
                    [
                        (-hw, (0.72 if long else 0.8) * sr),
                        (hw, (0.72 if long else 0.8) * sr),
                        (hw, 0.95 * sr),
                        (-hw, 0.95 * sr),
                    ],
                ),
                ink,
            )
        tf = frame(x, y, val * 360)
        hand = local_poly(
            tf,
            [
                (-0.04 * sr, -0.15 * sr),
                (0.04 * sr, -0.15 * sr),
                (0.015 * sr, 0.85 * sr),
                (-0.015 * sr, 0.85 * sr),
            ],
        )
        soft(sf, hand, BLACK, 0.02 * sr, 0.4, (0.02 * sr, 0.04 * sr))
        fill(sf, hand, ink if sum(c) > 380 else (240, 240, 240))
        fill(sf, Circle(x, y, 0.07 * sr), w.hand_metal.mid)


def dial_face(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    dial_base(sf, w, cx, cy, rd)
    if w.indices == "journe":
        journe_dial(sf, w, cx, cy, rd)
        return
    if w.track:
        minute_track(sf, w.track, cx, cy, rd, 0.94 if w.indices != "roman" else 0.95)
    if w.chrono:
        subdials(sf, w, cx, cy, rd)
    if w.date:
        date_window(sf, w, cx, cy, rd)
    indices(sf, w, cx, cy, rd)
    hands(sf, w, cx, cy, rd)


def journe_dial(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    """Off-centre hours and minutes, small seconds and a power-reserve arc."""
    ink = (40, 42, 48)
    c = w.dial
    # power reserve
    px, py = polar(cx, cy, 0.4 * rd, 298)
    pr = 0.3 * rd
    for i in range(11):
        tf = frame(px, py, 248 + 10 * i)
        ln = 0.07 if i % 5 == 0 else 0.04
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.006 * rd, pr - ln * rd),
                    (0.006 * rd, pr - ln * rd),
                    (0.006 * rd, pr),
                    (-0.006 * rd, pr),
                ],
            ),
            ink,
        )
    arc(sf, px, py, pr + 0.012 * rd, 248, 348, ink, 0.006 * rd)
    arc(sf, px, py, pr + 0.035 * rd, 248, 268, (190, 40, 40), 0.014 * rd)
    # small seconds
    sx, sy = polar(cx, cy, 0.5 * rd, 222)
    sr = 0.3 * rd
    fill(sf, Circle(sx, sy, sr + 0.015 * rd), darker(c, 0.12))
    fill(
        sf,
        Circle(sx, sy, sr),
        radial([lighter(c, 0.12), c], sx - sr * 0.3, sy - sr * 0.3, sr * 1.5),
    )
    rr = sr * 0.9
    while rr > sr * 0.1:
        fill(sf, Ring(sx, sy, rr, rr - sr * 0.02), alpha(BLACK, 16))
        rr -= sr * 0.08
    for i in range(60):
        tf = frame(sx, sy, i * 6)
        ln = 0.16 if i % 10 == 0 else 0.08
        hw = 0.014 if i % 10 == 0 else 0.008
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-hw * sr, (0.96 - ln) * sr),
                    (hw * sr, (0.96 - ln) * sr),
                    (hw * sr, 0.96 * sr),
                    (-hw * sr, 0.96 * sr),
                ],
            ),
            ink,
        )
    # hours and minutes
    hx, hy = polar(cx, cy, 0.28 * rd, 62)
    hr = 0.62 * rd
    soft(sf, Circle(hx, hy, hr), BLACK, 0.02 * rd, 0.25, (0.01 * rd, 0.02 * rd))
    fill(sf, Circle(hx, hy, hr + 0.015 * rd), darker(c, 0.15))
    fill(
        sf,
        Circle(hx, hy, hr),
        radial([lighter(c, 0.2), c, darker(c, 0.04)], hx - hr * 0.3, hy - hr * 0.4, hr * 1.6),
    )
    for i in range(60):
        tf = frame(hx, hy, i * 6)
        hw = 0.006 * rd
        fill(
            sf,
            local_poly(tf, [(-hw, 0.9 * hr), (hw, 0.9 * hr), (hw, 0.97 * hr), (-hw, 0.97 * hr)]),
            ink,
        )
    for h in range(1, 13):
        x, y = polar(hx, hy, 0.74 * hr, h * 30)
        text(sf, x, y, str(h), 0.14 * hr, ink, weight=0.002 * rd)
    hands(sf, replace(w, seconds=None), hx, hy, hr * 0.9)
    tf = frame(sx, sy, w.time[2] * 6)
    hand = local_poly(
        tf,
        [
            (-0.025 * sr, -0.2 * sr),
            (0.025 * sr, -0.2 * sr),
            (0.01 * sr, 0.9 * sr),
            (-0.01 * sr, 0.9 * sr),
        ],
    )
    soft(sf, hand, BLACK, 0.02 * sr, 0.4, (0.02 * sr, 0.04 * sr))
    fill(sf, hand, w.hand_metal.mid)
    fill(sf, Circle(sx, sy, 0.06 * sr), w.hand_metal.mid)
    tf = frame(px, py, 322)
    hand = local_poly(
        tf,
        [
            (-0.014 * rd, -0.04 * rd),
            (0.014 * rd, -0.04 * rd),
            (0.004 * rd, pr * 0.95),
            (-0.004 * rd, pr * 0.95),
        ],
    )
    soft(sf, hand, BLACK, 0.01 * rd, 0.4, (0.01 * rd, 0.02 * rd))
    fill(sf, hand, w.hand_metal.mid)
    fill(sf, Circle(px, py, 0.028 * rd), w.hand_metal.mid)
