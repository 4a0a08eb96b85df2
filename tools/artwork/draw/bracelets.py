"""Bracelets and straps: Oyster, Jubilee and integrated links, leather (or croc), rubber."""

from __future__ import annotations

from tools.artwork.draw.metals import Metal
from tools.artwork.draw.paints import linear, ramp
from tools.artwork.draw.palette import BLACK, WHITE, alpha, darker, lighter, mix
from tools.artwork.draw.shapes import Poly, RRect
from tools.artwork.draw.surface import Surface, dashed, fill, line
from tools.artwork.draw.watch import Watch


def _strap_half(w0: float, w1: float, d: float, taper: float) -> float:
    return (w0 + (w1 - w0) * min(1.0, d / taper)) / 2


def strap(sf: Surface, w: Watch, cx: float, y0: float, y1: float, width: float, r: float) -> None:
    """A strap or bracelet from y0 (at the case) to y1 (far end), drawn under the case."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    kind = w.strap
    metal = w.metal
    taper_to = 0.8 if kind in ("oyster", "jubilee", "leather", "rubber") else 0.72
    w1 = width * taper_to
    taper = 2.6 * r
    if kind == "integrated":
        taper = 1.6 * r

    def half(y: float) -> float:
        return _strap_half(width, w1, abs(y - y0), taper)

    # the width changes linearly up to ``taper`` and then stays: three rows of points suffice
    ys = [y0, y0 + sgn * taper, y1] if taper < length else [y0, y1]
    halves = [half(y) for y in ys]

    def column(f0: float, f1: float) -> Poly:
        left = [(cx + hw * f0, y) for y, hw in zip(ys, halves, strict=True)]
        right = [(cx + hw * f1, y) for y, hw in zip(reversed(ys), reversed(halves), strict=True)]
        return Poly(left + right)

    silhouette = column(-1, 1)
    if kind in ("leather", "rubber"):
        base = w.strap_color
        fill(
            sf,
            silhouette,
            linear(
                [
                    (0, darker(base, 0.45)),
                    (0.1, base),
                    (0.45, lighter(base, 0.1)),
                    (0.9, darker(base, 0.15)),
                    (1, darker(base, 0.5)),
                ],
                (cx - width / 2, 0),
                (cx + width / 2, 0),
            ),
            True,
        )
        if kind == "leather" and w.croc:
            _croc(sf, w, cx, y0, y1, half, r)
        if kind == "rubber":
            step = 0.22 * r
            y = y0 + sgn * 0.35 * r
            while abs(y - y0) < length:
                hw = half(y) * 0.62
                line(
                    sf, [(cx - hw, y), (cx + hw, y)], darker(base, 0.35), 0.05 * r, round_caps=True
                )
                line(
                    sf,
                    [(cx - hw, y + 0.03 * r), (cx + hw, y + 0.03 * r)],
                    alpha(lighter(base, 0.3), 90),
                    0.015 * r,
                )
                y += sgn * step
        if w.stitch:
            for f in (-0.86, 0.86):
                pts = [(cx + half(y) * f, y) for y in ys]
                dashed(sf, pts, w.stitch, 0.018 * r, 0.07 * r, 0.045 * r)
        # painted edge
        for f in (-1, 1):
            pts = [(cx + (half(y) - 0.012 * r) * f, y) for y in ys]
            line(sf, pts, alpha(darker(base, 0.6), 200), 0.02 * r)
        return

    # metal bracelets: dark gaps underneath, then columns of links
    fill(sf, silhouette, darker(metal.lo, 0.55), True)
    centre = w.accent or metal
    if kind == "oyster":
        cols = [(-1, -0.34, metal, 0.0), (-0.32, 0.32, centre, 0.5), (0.34, 1, metal, 0.0)]
        pitch = 0.42 * width
    elif kind == "jubilee":
        cols = [(-1, -0.48, metal, 0.0), (0.48, 1, metal, 0.0)]
        pitch = 0.36 * width
    else:  # integrated
        cols = [(-1, -0.2, metal, 0.0), (0.2, 1, metal, 0.0)]
        pitch = 0.36 * width
    gap = 0.02 * r
    for f0, f1, m, offset in cols:
        if offset:  # polished centre links: dark reflections, crisp highlights
            stops = [
                (0, m.lo),
                (0.22, m.hi),
                (0.4, m.mid),
                (0.62, mix(m.mid, m.lo, 0.5)),
                (0.8, m.hi),
                (1, m.lo),
            ]
        else:  # brushed outer links
            stops = [
                (0, m.lo),
                (0.18, mix(m.mid, m.lo, 0.3)),
                (0.42, m.mid),
                (0.55, mix(m.mid, m.hi, 0.6)),
                (0.7, m.mid),
                (1, m.lo),
            ]
        a, b = f0 + 0.012, f1 - 0.012
        for i, c in enumerate(ramp(stops, 20)):
            fill(sf, column(a + (b - a) * i / 20, a + (b - a) * (i + 1.2) / 20), c)
        # link joints across the column
        k = 0
        while True:
            d = (k + offset + 0.55) * pitch
            if d > length:
                break
            y = y0 + sgn * d
            hw = half(y)
            xa, xb = cx + hw * (f0 + 0.012), cx + hw * (f1 - 0.012)
            band_h = pitch * 0.22
            fill(
                sf,
                Poly([(xa, y), (xb, y), (xb, y - sgn * band_h), (xa, y - sgn * band_h)]),
                alpha(BLACK, 26),
            )
            fill(
                sf,
                Poly([(xa, y), (xb, y), (xb, y + sgn * band_h), (xa, y + sgn * band_h)]),
                alpha(WHITE, 30),
            )
            line(
                sf,
                [(xa, y - sgn * gap * 1.2), (xb, y - sgn * gap * 1.2)],
                alpha(BLACK, 70),
                gap * 1.2,
            )
            line(sf, [(xa, y), (xb, y)], darker(m.lo, 0.55), gap)
            line(
                sf,
                [(xa, y + sgn * gap * 1.1), (xb, y + sgn * gap * 1.1)],
                alpha(WHITE, 140),
                gap * 0.8,
            )
            k += 1
    if kind == "jubilee":
        _jubilee_centre(sf, centre, cx, y0, y1, half, pitch, r)
    if kind == "integrated":
        _integrated_centre(sf, centre, cx, y0, y1, half, pitch, r)


def _pill(sf: Surface, m: Metal, x0, y0, x1, y1) -> None:
    """A small polished link: rounded, lit from the upper left."""
    w, h = x1 - x0, y1 - y0
    rr = min(w, h) / 2
    fill(sf, RRect(x0, y0, x1, y1, rr), m.lo)
    fill(sf, RRect(x0 + w * 0.05, y0 + h * 0.05, x1 - w * 0.08, y1 - h * 0.16, rr * 0.9), m.mid)
    fill(
        sf,
        RRect(x0 + w * 0.16, y0 + h * 0.16, x0 + w * 0.62, y0 + h * 0.42, rr * 0.4),
        alpha(m.hi, 170),
    )


def _jubilee_centre(sf, m: Metal, cx, y0, y1, half, pitch, r) -> None:
    """Three columns of small staggered links between the outer links."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    small = pitch * 0.42
    ys = [y0, y1]
    fill(
        sf,
        Poly(
            [(cx - half(y) * 0.47, y) for y in ys]
            + [(cx + half(y) * 0.47, y) for y in reversed(ys)]
        ),
        darker(m.lo, 0.25),
    )
    k = -1
    while k * small < length:
        for j in range(3):
            yy = y0 + sgn * (k * small + small * (0.5 if j == 1 else 0.0) + small * 0.5)
            hw = half(yy) * 0.47
            cw = hw * 2 / 3
            xa = cx - hw + j * cw + cw * 0.03
            ya, yb = sorted((yy - small * 0.46, yy + small * 0.46))
            if small * 0.3 < sgn * (yy - y0) < length - small * 0.46:
                _pill(sf, m, xa, ya, xa + cw * 0.94, yb)
        k += 1


def _integrated_centre(sf, m: Metal, cx, y0, y1, half, pitch, r) -> None:
    """Brushed centre links with small polished links at each joint."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    ys = [y0 + sgn * length * i / 30 for i in range(31)]
    column = Poly(
        [(cx - half(y) * 0.19, y) for y in ys] + [(cx + half(y) * 0.19, y) for y in reversed(ys)]
    )
    fill(sf, column, m.across((cx - half(y0) * 0.19, 0), (cx + half(y0) * 0.19, 0)))
    k = 0
    while (k + 0.55) * pitch < length:
        y = y0 + sgn * (k + 0.55) * pitch
        hw = half(y) * 0.19
        ya, yb = sorted((y - pitch * 0.2, y + pitch * 0.2))
        fill(sf, RRect(cx - hw, ya - 0.01 * r, cx + hw, yb + 0.01 * r, 0.02 * r), darker(m.lo, 0.5))
        fill(
            sf,
            RRect(cx - hw * 0.9, ya, cx + hw * 0.9, yb, 0.02 * r),
            linear([(0, m.hi), (0.5, m.mid), (1, m.lo)], (cx - hw, ya), (cx + hw, yb)),
        )
        k += 1


def _croc(sf, w: Watch, cx, y0, y1, half, r) -> None:
    """Alligator-style scales: staggered rows of soft tiles."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    shade = alpha(darker(w.strap_color, 0.5), 110)
    hi = alpha(lighter(w.strap_color, 0.18), 70)
    row = 0
    dist = 0.05 * r
    while dist < length:
        y = y0 + sgn * dist
        hw = half(y) * 0.86
        tall = (0.15, 0.12, 0.17, 0.11)[row % 4] * r
        if row % 2:
            cells = [(-1.0, -0.62), (-0.62, -0.2), (-0.2, 0.22), (0.22, 0.64), (0.64, 1.0)]
        else:
            cells = [
                (-1.0, -0.72),
                (-0.72, -0.36),
                (-0.36, 0.02),
                (0.02, 0.4),
                (0.4, 0.74),
                (0.74, 1.0),
            ]
        for a, b in cells:
            xa, xb = cx + hw * a, cx + hw * b
            ya, yb = sorted((y, y + sgn * tall))
            g = 0.014 * r
            fill(sf, RRect(xa + g, ya + g, xb - g, yb - g, 0.035 * r), shade)
            fill(sf, RRect(xa + 2.2 * g, ya + 2.2 * g, xb - 2.2 * g, yb - 2.6 * g, 0.03 * r), hi)
        dist += tall
        row += 1
