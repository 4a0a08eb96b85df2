"""The articles' props: documents, a magnifier, a presentation box, cards, a sheet, an arrow."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from tools.artwork.draw.geometry import S, bar, frame, polar
from tools.artwork.draw.metals import GOLD_M, STEEL
from tools.artwork.draw.paints import linear, radial
from tools.artwork.draw.palette import BLACK, GOLD, WHITE, alpha, darker, lighter
from tools.artwork.draw.shapes import Circle, Poly, Ring, RRect, local_poly
from tools.artwork.draw.surface import Canvas, arc, clip, fill, line, outline, soft, stamp


def paper(
    layer,
    box,
    color=(250, 246, 234),
    lines: int = 6,
    ink=(150, 140, 120),
    border=GOLD,
    seal: bool = False,
) -> None:
    """A document: a sheet with a double border, lines standing in for text, optionally a seal."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    fill(
        layer,
        RRect(x0, y0, x1, y1, w * 0.01),
        linear([lighter(color, 0.4), color, darker(color, 0.04)], (x0, y0), (x1, y1)),
        True,
    )
    m = w * 0.05
    outline(layer, RRect(x0 + m, y0 + m, x1 - m, y1 - m).points(), alpha(border, 220), w * 0.008)
    outline(
        layer,
        RRect(x0 + m * 1.3, y0 + m * 1.3, x1 - m * 1.3, y1 - m * 1.3).points(),
        alpha(border, 150),
        w * 0.003,
    )
    # a wavy guilloche band along the top
    for sgn in (1, -1):
        pts = [
            (
                x0 + m * 2 + i * (w - m * 4) / 80,
                y0 + m * 2.6 + sgn * math.sin(i / 80 * math.pi * 12) * h * 0.012,
            )
            for i in range(81)
        ]
        line(layer, pts, alpha(border, 170), w * 0.004)
    fill(
        layer,
        RRect(x0 + w * 0.3, y0 + m * 3.6, x1 - w * 0.3, y0 + m * 3.6 + h * 0.03, h * 0.015),
        alpha(ink, 230),
    )
    for i in range(lines):
        y = y0 + m * 5 + i * h * 0.075
        right = x1 - m * 2 - (w * 0.18 if i % 3 == 2 else 0)
        fill(layer, RRect(x0 + m * 2, y, right, y + h * 0.016, h * 0.008), alpha(ink, 150))
    sig_y = y1 - m * 2.6
    sig = [
        (
            x0 + m * 2 + i * w * 0.3 / 40,
            sig_y - math.sin(i / 40 * math.pi * 3) * h * 0.02 - i / 40 * h * 0.01,
        )
        for i in range(41)
    ]
    line(layer, sig, (40, 52, 96, 220), w * 0.005)
    line(
        layer,
        [(x0 + m * 2, sig_y + h * 0.03), (x0 + m * 2 + w * 0.34, sig_y + h * 0.03)],
        alpha(ink, 160),
        w * 0.003,
    )
    if seal:
        sx, sy, sr = x1 - m * 2 - w * 0.1, y1 - m * 2 - w * 0.1, w * 0.1
        for tail in (-1, 1):
            fill(
                layer,
                Poly(
                    [
                        (sx + tail * sr * 0.2, sy),
                        (sx + tail * sr * 0.75, sy + sr * 1.6),
                        (sx + tail * sr * 0.5, sy + sr * 1.4),
                        (sx + tail * sr * 0.3, sy + sr * 1.7),
                        (sx - tail * sr * 0.15, sy),
                    ]
                ),
                (150, 30, 40),
            )
        teeth = [polar(sx, sy, sr * (1.0 if i % 2 else 0.88), i * 7.5) for i in range(48)]
        fill(layer, Poly(teeth), GOLD_M.polished(sx, sy))
        fill(
            layer,
            Circle(sx, sy, sr * 0.72),
            radial([GOLD_M.hi, GOLD_M.mid, GOLD_M.lo], sx - sr * 0.3, sy - sr * 0.3, sr * 1.2),
        )
        fill(layer, Ring(sx, sy, sr * 0.62, sr * 0.58), alpha(GOLD_M.edge, 160))
        fill(
            layer,
            Poly([polar(sx, sy, sr * (0.4 if i % 2 else 0.18), i * 36) for i in range(10)]),
            alpha(GOLD_M.lo, 200),
        )


def magnifier(
    cv: Canvas, x: float, y: float, r: float, zoom: float = 1.7, handle_angle: float = 135
) -> None:
    """A magnifying glass lying on the picture: the lens enlarges what is under it."""
    px, py = x * S, y * S
    src = r * S / zoom
    crop = cv.im.crop((round(px - src), round(py - src), round(px + src), round(py + src)))
    size = round(2 * r * S)
    mag = crop.resize((size, size), Image.Resampling.BICUBIC)
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).ellipse([0, 0, size - 1, size - 1], fill=255)
    tf = frame(x, y, handle_angle)
    handle = local_poly(
        tf,
        [
            (-0.1 * r, 1.12 * r),
            (0.1 * r, 1.12 * r),
            (0.13 * r, 2.6 * r),
            (0, 2.68 * r),
            (-0.13 * r, 2.6 * r),
        ],
    )
    ferrule = local_poly(
        tf, [(-0.13 * r, 1.08 * r), (0.13 * r, 1.08 * r), (0.14 * r, 1.4 * r), (-0.14 * r, 1.4 * r)]
    )
    for shape in (Ring(x, y, r * 1.12, r * 0.96), handle):
        soft(cv, shape, BLACK, r * 0.07, 0.65, (r * 0.08, r * 0.14))
    cv.im.paste(mag, (round(px - r * S), round(py - r * S)), mask)
    fill(
        cv,
        Circle(x, y, r),
        radial(
            [
                (0, alpha(WHITE, 0)),
                (0.7, alpha((200, 220, 255), 8)),
                (1, alpha((160, 190, 230), 50)),
            ],
            x,
            y,
            r,
        ),
    )
    with clip(cv, Circle(x, y, r)) as sub:
        soft(
            sub,
            Poly(
                [
                    polar(x, y, r * 1.1, 250),
                    polar(x, y, r * 1.1, 330),
                    polar(x, y, r * 0.5, 320),
                    polar(x, y, r * 0.55, 260),
                ]
            ),
            WHITE,
            r * 0.12,
            0.22,
        )
    fill(
        cv,
        handle,
        linear(
            [(34, 26, 22), (82, 60, 46), (30, 22, 18)], tf(-0.13 * r, 2 * r), tf(0.13 * r, 2 * r)
        ),
    )
    line(cv, [tf(-0.03 * r, 1.45 * r), tf(-0.04 * r, 2.5 * r)], alpha(WHITE, 50), r * 0.03)
    fill(cv, ferrule, STEEL.across(tf(-0.14 * r, 1.2 * r), tf(0.14 * r, 1.2 * r)))
    fill(cv, Ring(x, y, r * 1.1, r * 0.99), STEEL.ring(x, y))
    fill(cv, Ring(x, y, r * 1.1, r * 1.085), alpha(STEEL.edge, 200))
    fill(cv, Ring(x, y, r * 1.0, r * 0.985), alpha(BLACK, 150))
    arc(cv, x, y, r * 0.93, 285, 335, alpha(WHITE, 140), r * 0.025)


def box_and_cushion(
    cv: Canvas, x: float, y: float, w: float, h: float
) -> tuple[float, float, float, float]:
    """An open presentation box seen from above; returns the cushion's box."""
    green = (22, 70, 52)
    lid_h = h * 0.36
    base = RRect(x - w / 2, y - h / 2 + lid_h, x + w / 2, y + h / 2, w * 0.03)
    lid = RRect(x - w / 2, y - h / 2, x + w / 2, y - h / 2 + lid_h + w * 0.02, w * 0.03)
    for shape in (lid, base):
        soft(cv, shape, BLACK, w * 0.04, 0.55, (w * 0.015, w * 0.03))
    fill(
        cv,
        lid,
        linear(
            [lighter(green, 0.12), green, darker(green, 0.3)],
            (0, y - h / 2),
            (0, y - h / 2 + lid_h),
        ),
    )
    inset = w * 0.04
    lid_in = RRect(
        x - w / 2 + inset,
        y - h / 2 + inset,
        x + w / 2 - inset,
        y - h / 2 + lid_h - inset * 0.3,
        w * 0.02,
    )
    fill(
        cv,
        lid_in,
        linear(
            [(240, 232, 214), (226, 214, 190), (206, 192, 166)],
            (0, y - h / 2),
            (0, y - h / 2 + lid_h),
        ),
    )
    fill(
        cv,
        RRect(
            x - w * 0.12, y - h / 2 + lid_h * 0.42, x + w * 0.12, y - h / 2 + lid_h * 0.5, w * 0.01
        ),
        alpha(GOLD, 160),
    )
    fill(
        cv,
        base,
        linear([lighter(green, 0.05), darker(green, 0.2)], (0, y - h / 2 + lid_h), (0, y + h / 2)),
    )
    fill(
        cv,
        RRect(x - w / 2, y - h / 2 + lid_h - w * 0.004, x + w / 2, y - h / 2 + lid_h + w * 0.008),
        alpha(GOLD, 200),
    )
    well = RRect(
        x - w / 2 + inset, y - h / 2 + lid_h + inset, x + w / 2 - inset, y + h / 2 - inset, w * 0.02
    )
    fill(cv, well, linear([(30, 34, 32), (58, 62, 58)], (0, well.y0), (0, well.y1)))
    cush = (
        x - w * 0.33,
        well.y0 + (well.y1 - well.y0) * 0.08,
        x + w * 0.33,
        well.y1 - (well.y1 - well.y0) * 0.08,
    )
    soft(cv, RRect(*cush, w * 0.08), BLACK, w * 0.03, 0.7, (0, w * 0.015))
    fill(
        cv,
        RRect(*cush, w * 0.08),
        linear(
            [
                (0, (150, 140, 124)),
                (0.25, (226, 216, 196)),
                (0.7, (214, 202, 180)),
                (1, (140, 128, 110)),
            ],
            (cush[0], 0),
            (cush[2], 0),
        ),
    )
    return cush


def card(
    cv: Canvas, x: float, y: float, w: float, h: float, angle: float, color, accent=GOLD
) -> None:
    stamp(
        cv,
        lambda sf: _card(sf, x, y, w, h, color, accent),
        (x - w / 2, y - h / 2, x + w / 2, y + h / 2),
        angle,
        (x, y),
        [(w * 0.01, w * 0.02, w * 0.02, 0.5), (w * 0.03, w * 0.06, w * 0.08, 0.35)],
    )


def _card(lay, x: float, y: float, w: float, h: float, color, accent) -> None:
    fill(
        lay,
        RRect(x - w / 2, y - h / 2, x + w / 2, y + h / 2, w * 0.06),
        linear(
            [lighter(color, 0.15), color, darker(color, 0.15)],
            (x - w / 2, y - h / 2),
            (x + w / 2, y + h / 2),
        ),
        True,
    )
    fill(
        lay,
        RRect(x - w * 0.38, y - h * 0.28, x - w * 0.1, y + h * 0.02, w * 0.03),
        GOLD_M.polished(x - w * 0.24, y - h * 0.13),
    )
    for i, ln in enumerate((0.7, 0.55, 0.62)):
        yy = y + h * (0.12 + i * 0.12)
        fill(
            lay,
            RRect(x - w * 0.38, yy, x - w * 0.38 + w * ln * 0.9, yy + h * 0.05, h * 0.025),
            alpha(accent, 170),
        )
    fill(lay, Circle(x + w * 0.27, y - h * 0.16, h * 0.16), alpha(accent, 200))
    fill(lay, Circle(x + w * 0.27, y - h * 0.16, h * 0.1), color)


def sheet(
    cv: Canvas,
    x: float,
    y: float,
    w: float,
    h: float,
    angle: float,
    seal: bool = False,
    lines: int = 7,
) -> None:
    box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    stamp(
        cv,
        lambda sf: paper(sf, box, lines=lines, seal=seal),
        box,
        angle,
        (x, y),
        [(w * 0.005, w * 0.01, w * 0.01, 0.45), (w * 0.02, w * 0.04, w * 0.06, 0.35)],
    )


def arrow(cv: Canvas, pts: list[tuple[float, float]], width: float, color=GOLD) -> None:
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    head = width * 3.2
    tip = (x1 + math.cos(ang) * head * 0.6, y1 + math.sin(ang) * head * 0.6)
    left = (x1 + math.cos(ang + 2.3) * head * 0.75, y1 + math.sin(ang + 2.3) * head * 0.75)
    right = (x1 + math.cos(ang - 2.3) * head * 0.75, y1 + math.sin(ang - 2.3) * head * 0.75)
    body = [*pts[:-1], (x1 - math.cos(ang) * width * 0.3, y1 - math.sin(ang) * width * 0.3)]
    soft(cv, Poly([tip, left, right]), BLACK, width * 0.6, 0.55, (width * 0.3, width * 0.5))
    for a, b in zip(body, body[1:], strict=False):
        soft(cv, Poly(bar(a, b, width)), BLACK, width * 0.6, 0.3, (width * 0.3, width * 0.5))
    line(cv, body, darker(color, 0.25), width * 1.25, round_caps=True)
    line(cv, body, color, width, round_caps=True)
    line(
        cv, [(x, y - width * 0.22) for x, y in body], alpha(lighter(color, 0.5), 150), width * 0.25
    )
    fill(
        cv,
        Poly([tip, left, right]),
        linear([lighter(color, 0.35), color, darker(color, 0.2)], left, right),
    )
