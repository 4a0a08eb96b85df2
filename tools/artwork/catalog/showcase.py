"""Whole watches on a backdrop: the hero, the preview image, the brands' and the purchases'."""

from __future__ import annotations

from dataclasses import replace

from tools.artwork.catalog.recipes import (
    BLUE_DIVER,
    CHRONO,
    DATEJUST,
    DIVER,
    DRESS_GOLD,
    GREEN_DIVER,
    JOURNE,
    OCTAGON,
    PILOT,
    RM,
    TANK,
    VC_BLUE,
    watch,
)
from tools.artwork.draw.backgrounds import background
from tools.artwork.draw.palette import GOLD, NAVY, alpha, darker, lighter
from tools.artwork.draw.shapes import Poly, RRect
from tools.artwork.draw.surface import Canvas, arc, fill, outline
from tools.artwork.draw.watch import Watch


def hero_watch(cv: Canvas) -> None:
    cv.background = NAVY
    background(
        cv,
        (36, 46, 68),
        (10, 13, 20),
        700,
        390,
        0.7,
        [(700, 400, 600, (200, 156, 60), 150), (700, 400, 420, (240, 196, 96), 190)],
        vignette=130,
    )
    for rr, a in ((292, 90), (330, 50), (372, 28)):
        arc(cv, 700, 400, rr, 0, 360, alpha(GOLD, a), 1.2)
    watch(cv, DIVER, 700, 400, 215, rotate=-14, shadow=(4, 6, 10))


def og_default(cv: Canvas) -> None:
    background(
        cv,
        (34, 43, 62),
        (10, 13, 20),
        600,
        315,
        0.7,
        [(600, 315, 480, (200, 156, 60), 140), (600, 315, 330, (240, 196, 96), 170)],
        vignette=100,
    )
    for inset, wd, a in ((24, 3, 255), (34, 1.2, 190)):
        outline(cv, RRect(inset, inset, cv.w - inset, cv.h - inset).points(), alpha(GOLD, a), wd)
    for x, y in ((24, 24), (cv.w - 24, 24), (24, cv.h - 24), (cv.w - 24, cv.h - 24)):
        fill(cv, Poly([(x, y - 9), (x + 9, y), (x, y + 9), (x - 9, y)]), GOLD)
    watch(cv, DIVER, 600, 315, 170, rotate=-12, shadow=(4, 6, 10))


def brand_rolex(cv: Canvas) -> None:
    background(
        cv,
        (30, 74, 57),
        (5, 20, 15),
        560,
        360,
        0.75,
        [(600, 400, 430, (226, 204, 130), 70)],
        vignette=100,
    )
    watch(cv, GREEN_DIVER, 600, 400, 230, rotate=10)


def brand_patek(cv: Canvas) -> None:
    background(cv, (252, 247, 235), (216, 200, 170), 560, 330, 0.8)
    watch(cv, DRESS_GOLD, 600, 400, 215, rotate=-8, shadow_strength=0.8)


def brand_ap(cv: Canvas) -> None:
    background(
        cv,
        (62, 66, 74),
        (15, 16, 19),
        520,
        340,
        0.75,
        [(600, 400, 420, (110, 140, 200), 50)],
        vignette=90,
    )
    watch(cv, OCTAGON, 600, 400, 225, rotate=-6)


def brand_rm(cv: Canvas) -> None:
    background(cv, (246, 245, 242), (198, 196, 192), 560, 340, 0.8)
    watch(cv, RM, 600, 400, 230, rotate=8, kind="tonneau", shadow_strength=0.8)


def brand_vc(cv: Canvas) -> None:
    background(
        cv, (38, 48, 72), (10, 13, 20), 560, 360, 0.75, [(600, 400, 420, GOLD, 80)], vignette=100
    )
    watch(cv, VC_BLUE, 600, 400, 215, rotate=-10)


def brand_journe(cv: Canvas) -> None:
    background(
        cv,
        (74, 90, 106),
        (20, 26, 34),
        560,
        340,
        0.8,
        [(600, 400, 400, (240, 200, 170), 45)],
        vignette=90,
    )
    watch(cv, JOURNE, 600, 400, 215, rotate=6)


def brand_cartier(cv: Canvas) -> None:
    background(cv, (252, 244, 234), (220, 198, 180), 560, 330, 0.8)
    watch(cv, TANK, 600, 400, 220, rotate=-9, kind="tank", shadow_strength=0.75)


# --- purchases: flat lays on soft backgrounds ----------------------------------------------


def flatlay(w: Watch, bg, rotate: float, kind: str = "round"):
    """The painter of a purchase's picture: the watch `w` lying tilted by `rotate` on `bg`."""

    def paint(cv: Canvas) -> None:
        background(cv, lighter(bg, 0.35), darker(bg, 0.1), 340, 300, 0.85)
        watch(cv, w, 400, 400, 235, rotate=rotate, kind=kind, shadow_strength=0.7)

    return paint


PURCHASES = (
    replace(BLUE_DIVER, date=True),
    DATEJUST,
    CHRONO,
    replace(OCTAGON, dial=(74, 82, 92), time=(1, 50, 12)),
    replace(DRESS_GOLD, dial=(250, 250, 246), strap_color=(96, 56, 30), time=(8, 20, 40)),
    PILOT,
)
PURCHASE_BACKGROUNDS = (
    (226, 212, 186),
    (192, 206, 220),
    (198, 210, 192),
    (232, 206, 198),
    (200, 206, 216),
    (222, 216, 204),
)
PURCHASE_TILTS = (-8, 6, -5, 7, -6, 5)
