"""The blog articles' pictures, one painter each."""

from __future__ import annotations

import math
from dataclasses import replace

from tools.artwork.catalog.editorial import arrow, box_and_cushion, card, magnifier, sheet
from tools.artwork.catalog.maps import CITIES, US_OUTLINE, pin, us_projection
from tools.artwork.catalog.recipes import (
    BLUE_DIVER,
    CHRONO,
    DATEJUST,
    DIVER,
    DRESS_GOLD,
    GREEN_DIVER,
    OCTAGON,
    PILOT,
    VC_BLUE,
    VINTAGE_CHRONO,
    watch,
)
from tools.artwork.draw.backgrounds import background
from tools.artwork.draw.geometry import bezier
from tools.artwork.draw.metals import GOLD_M
from tools.artwork.draw.paints import linear
from tools.artwork.draw.palette import BLACK, CREAM, GOLD, NAVY, WHITE, alpha, darker, lighter, mix
from tools.artwork.draw.props import tweezers
from tools.artwork.draw.shapes import Circle, Poly, RRect
from tools.artwork.draw.surface import Canvas, clip, dashed, fill, line, outline, soft


def art_where_to_sell(cv: Canvas) -> None:
    background(
        cv, (34, 44, 64), (10, 13, 20), 420, 300, 0.75, [(900, 330, 300, GOLD, 120)], vignette=90
    )
    proj = us_projection(70, 120, 640)
    pts = [proj(*p) for p in US_OUTLINE]
    fill(cv, Poly(pts), alpha((120, 140, 180), 26))
    with clip(cv, Poly(pts)) as sub:
        for k in range(1, 14):  # faint latitude lines inside the map
            line(sub, [(0, 100 + k * 28), (800, 100 + k * 28)], alpha((170, 186, 214), 26), 1)
    outline(cv, pts, alpha((170, 186, 214), 150), 1.6)
    hub = proj(*CITIES["chicago"])
    for key, (lon, lat) in CITIES.items():
        p = proj(lon, lat)
        if key != "chicago":
            mid = ((p[0] + hub[0]) / 2, (p[1] + hub[1]) / 2 - abs(p[0] - hub[0]) * 0.22 - 20)
            dashed(cv, bezier(p, mid, hub, 30), alpha(GOLD, 190), 1.8, 7, 6)
    for key, (lon, lat) in CITIES.items():
        p = proj(lon, lat)
        pin(cv, p[0], p[1], 16 if key == "chicago" else 12)
    watch(cv, GREEN_DIVER, 950, 315, 165, rotate=12)


def art_complete_guide_rolex(cv: Canvas) -> None:
    background(cv, (70, 56, 46), (26, 20, 16), 450, 300, 0.8, vignette=80)
    for i in range(34):  # wood grain
        y = i * 19 + 6 * math.sin(i * 1.7)
        line(
            cv,
            [(x, y + 5 * math.sin(x / 90 + i)) for x in range(0, 1230, 30)],
            alpha(BLACK, 22 if i % 2 else 12),
            2.5,
        )
    cush = box_and_cushion(cv, 420, 315, 400, 560)
    cx = (cush[0] + cush[2]) / 2
    cy = (cush[1] + cush[3]) / 2
    reach = (cy - cush[1] - 6, cush[3] - cy - 6)
    watch(cv, DATEJUST, cx, cy, 86, reach=reach)
    for y_edge, sgn in ((cush[1], 1), (cush[3], -1)):
        y0, y1 = sorted((y_edge, y_edge + sgn * 40))
        fill(
            cv,
            RRect(cush[0] + 4, y0, cush[2] - 4, y1),
            linear([alpha(BLACK, 110), alpha(BLACK, 0)], (0, y_edge), (0, y_edge + sgn * 40)),
        )
    sheet(cv, 880, 330, 300, 400, 8, lines=9)
    card(cv, 800, 470, 250, 158, -12, (24, 74, 56))


def art_market_usa(cv: Canvas) -> None:
    background(
        cv, (30, 40, 60), (9, 12, 19), 600, 260, 0.8, [(780, 240, 380, GOLD, 70)], vignette=100
    )
    x0, x1, y0, y1 = 70, 1130, 90, 560
    for i in range(6):
        y = y0 + i * (y1 - y0) / 5
        line(cv, [(x0, y), (x1, y)], alpha((160, 176, 206), 34), 1.2)
    for i in range(11):
        x = x0 + i * (x1 - x0) / 10
        line(cv, [(x, y0), (x, y1)], alpha((160, 176, 206), 18), 1)
    vals = (0.12, 0.18, 0.15, 0.26, 0.3, 0.27, 0.4, 0.46, 0.43, 0.58, 0.66, 0.63, 0.78, 0.9)
    pts = [(x0 + i * (x1 - x0) / (len(vals) - 1), y1 - v * (y1 - y0)) for i, v in enumerate(vals)]
    fill(
        cv,
        Poly([*pts, (x1, y1), (x0, y1)]),
        linear([alpha(GOLD, 120), alpha(GOLD, 10)], (0, y0), (0, y1)),
    )
    line(cv, pts, lighter(GOLD, 0.2), 4)
    for p in pts:
        fill(cv, Circle(p[0], p[1], 7), NAVY)
        fill(cv, Circle(p[0], p[1], 4.5), lighter(GOLD, 0.3))
    watch(
        cv, replace(DIVER, bezel_color=(22, 44, 100), dial=(20, 38, 90)), 600, 330, 165, rotate=-10
    )


def art_speedmaster(cv: Canvas) -> None:
    background(cv, (60, 62, 68), (16, 17, 20), 520, 300, 0.8, vignette=110)
    w = replace(
        VINTAGE_CHRONO,
        strap="leather",
        strap_color=(70, 44, 28),
        stitch=(190, 160, 120),
        lug_ratio=0.95,
    )
    watch(cv, w, 460, 315, 190, rotate=-10)
    magnifier(cv, 560, 262, 100, 1.75)
    tweezers(cv, 930, 590, 1150, 330, 12)


def art_patek_vs_ap(cv: Canvas) -> None:
    background(cv, (248, 240, 222), (214, 198, 168), 300, 300, 0.8)
    right = Canvas(600, 630)
    background(right, (40, 50, 74), (10, 13, 20), 300, 300, 0.9, vignette=60)
    cv.base.paste(right.base, (600, 0))
    watch(
        cv,
        replace(DRESS_GOLD, dial=(246, 238, 218)),
        300,
        315,
        150,
        rotate=-8,
        shadow=darker((230, 218, 194), 0.6),
        shadow_strength=0.8,
    )
    watch(cv, replace(OCTAGON, date=False), 900, 315, 150, rotate=8, shadow=(4, 6, 10))
    fill(cv, RRect(598.5, 0, 601.5, 630), GOLD)
    fill(cv, Poly([(600, 290), (625, 315), (600, 340), (575, 315)]), GOLD_M.polished(600, 315))
    fill(cv, Poly([(600, 300), (615, 315), (600, 330), (585, 315)]), NAVY)


def art_trends(cv: Canvas) -> None:
    background(
        cv, (36, 46, 66), (10, 13, 20), 700, 250, 0.85, [(900, 160, 360, GOLD, 70)], vignette=90
    )
    row = (
        replace(BLUE_DIVER, time=(10, 10, 0)),
        replace(VC_BLUE, time=(1, 50, 0), strap_color=(74, 44, 28), croc=False),
        replace(CHRONO, time=(10, 8, 0)),
        replace(DRESS_GOLD, time=(2, 45, 0), croc=False),
        replace(PILOT, time=(10, 12, 0)),
    )
    for i, w in enumerate(row):
        watch(cv, w, 150 + i * 225, 420 - i * 45, 82, rotate=(-4, 3, -2, 4, -3)[i])
    arrow(cv, bezier((90, 560), (620, 520), (1080, 120), 30), 13)


def art_grading(cv: Canvas) -> None:
    background(cv, lighter(CREAM, 0.4), darker(CREAM, 0.12), 360, 300, 0.8)
    watch(
        cv, replace(DIVER, date=False, cyclops=False), 330, 315, 175, rotate=-8, shadow_strength=0.7
    )
    levels = (1.0, 0.86, 0.68, 0.5, 0.3)
    x0, x1 = 640, 1110
    for i, v in enumerate(levels):
        y = 150 + i * 82
        fill(cv, Circle(x0 - 34, y, 17), NAVY)
        for k in range(5 - i):
            fill(cv, Circle(x0 - 34 + (k - (4 - i) / 2) * 6.5, y, 2.4), GOLD)
        fill(cv, RRect(x0, y - 13, x1, y + 13, 13), mix(NAVY, CREAM, 0.82))
        fill(cv, RRect(x0, y - 13, x1, y - 5, 8), alpha(BLACK, 14))
        bar = RRect(x0, y - 13, x0 + (x1 - x0) * v, y + 13, 13)
        soft(cv, bar, darker(GOLD, 0.3), 4, 0.5, (0, 3))
        fill(cv, bar, linear([darker(GOLD, 0.1), GOLD, lighter(GOLD, 0.25)], (x0, 0), (x1, 0)))
        fill(cv, RRect(x0 + 8, y - 9, x0 + (x1 - x0) * v - 8, y - 4, 3), alpha(WHITE, 80))
        for t in range(1, 10):
            xx = x0 + (x1 - x0) * t / 10
            line(cv, [(xx, y + 18), (xx, y + 24 if t % 5 else y + 28)], alpha(NAVY, 90), 1.4)
    outline(
        cv,
        RRect(x0 - 60, 150 + 82 - 34, x1 + 18, 150 + 82 + 34, 34).points(),
        alpha(GOLD, 230),
        2.2,
    )


def art_best_places_patek(cv: Canvas) -> None:
    background(
        cv, (42, 52, 74), (10, 13, 20), 500, 300, 0.8, [(620, 300, 420, GOLD, 60)], vignette=100
    )
    sheet(cv, 520, 320, 420, 540, -6, seal=True, lines=8)
    watch(
        cv,
        replace(DRESS_GOLD, dial=(246, 240, 226), strap_color=(40, 26, 20)),
        820,
        330,
        150,
        rotate=14,
    )
