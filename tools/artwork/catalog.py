"""The site's illustrations: one entry per image, each with a function that paints it."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from tools.artwork.draw.backgrounds import background
from tools.artwork.draw.bracelets import strap
from tools.artwork.draw.cases import case_body, crown, lugs
from tools.artwork.draw.geometry import S, bar, bezier, frame, polar
from tools.artwork.draw.metals import BLUE_STEEL, CARBON, GOLD_M, ROSE, STEEL, WHITE_GOLD, Metal
from tools.artwork.draw.movement import balance, cotes, gear, jewel, screw
from tools.artwork.draw.paints import linear, radial
from tools.artwork.draw.palette import BLACK, CREAM, GOLD, NAVY, WHITE, alpha, darker, lighter, mix
from tools.artwork.draw.props import loupe, tweezers
from tools.artwork.draw.shapes import Circle, Poly, Ring, RRect, band, local_poly
from tools.artwork.draw.surface import Canvas, arc, clip, dashed, fill, line, outline, soft, stamp
from tools.artwork.draw.watch import Watch
from tools.artwork.draw.watches import round_watch, tank_watch, tonneau_watch


@dataclass(frozen=True)
class Art:
    """One picture: its name (its master's file name stem), natural size and painter."""

    name: str
    width: int
    height: int
    paint: Callable[[Canvas], None]

    def render(self) -> Image.Image:
        cv = Canvas(self.width, self.height)
        self.paint(cv)
        return cv.finish()


# --- watch recipes -------------------------------------------------------------------------

DIVER = Watch(crown_guard=True, date=True, cyclops=True)
DIVER_NODATE = Watch(crown_guard=True)
GREEN_DIVER = Watch(
    accent=GOLD_M,
    bezel_color=(16, 78, 52),
    bezel_marks=(232, 214, 160),
    dial=(14, 58, 40),
    index_metal=GOLD_M,
    hand_metal=GOLD_M,
    crown_guard=True,
    date=True,
    cyclops=True,
)
BLUE_DIVER = Watch(bezel_color=(22, 48, 110), dial=(20, 44, 104), crown_guard=True)
DATEJUST = Watch(
    accent=GOLD_M,
    bezel="fluted",
    dial=(214, 190, 140),
    texture="sunburst",
    indices="baton",
    index_metal=GOLD_M,
    hands="baton",
    hand_metal=GOLD_M,
    hand_fill=None,
    seconds=(200, 170, 100),
    track=(90, 70, 40),
    date=True,
    cyclops=True,
    strap="jubilee",
)
CHRONO = Watch(
    bezel="tachymeter",
    bezel_color=(16, 17, 20),
    dial=(246, 245, 240),
    texture="plain",
    indices="baton",
    index_metal=STEEL,
    track=(30, 30, 34),
    hands="baton",
    hand_metal=STEEL,
    hand_fill=(34, 35, 40),
    seconds=(200, 40, 40),
    chrono=True,
    subdial=(24, 25, 28),
)
VINTAGE_CHRONO = Watch(
    bezel="tachymeter",
    bezel_color=(14, 14, 16),
    bezel_marks=(236, 234, 226),
    dial=(20, 20, 22),
    texture="plain",
    indices="baton",
    index_metal=STEEL,
    lume=(226, 212, 170),
    track=(226, 222, 210),
    hands="baton",
    hand_metal=STEEL,
    hand_fill=(226, 212, 170),
    seconds=(230, 230, 226),
    chrono=True,
    subdial=(28, 28, 31),
    time=(10, 8, 30),
)
OCTAGON = Watch(
    bezel="octagon",
    dial=(28, 52, 104),
    texture="grid",
    indices="baton",
    index_metal=WHITE_GOLD,
    hands="baton",
    hand_fill=(236, 236, 226),
    seconds=(236, 236, 236),
    track=(210, 216, 230),
    date=True,
    strap="integrated",
)
DRESS_GOLD = Watch(
    metal=GOLD_M,
    bezel="thin",
    dial=(246, 238, 218),
    texture="plain",
    indices="baton",
    index_metal=GOLD_M,
    hands="dauphine",
    hand_metal=GOLD_M,
    hand_fill=None,
    seconds=None,
    track=(140, 110, 60),
    strap="leather",
    strap_color=(64, 36, 22),
    stitch=None,
    croc=True,
    lug_ratio=0.86,
)
VC_BLUE = replace(
    DRESS_GOLD,
    dial=(30, 56, 120),
    texture="sunburst",
    track=(220, 196, 140),
    strap_color=(22, 30, 56),
)
PILOT = Watch(
    bezel="thin",
    dial=(20, 21, 24),
    texture="plain",
    indices="pilot",
    hands="pilot",
    hand_metal=STEEL,
    seconds=(236, 236, 236),
    track=(232, 232, 232),
    strap="leather",
    strap_color=(98, 62, 36),
    stitch=(226, 210, 180),
    lug_ratio=0.9,
)
TANK = Watch(
    metal=GOLD_M,
    dial=(250, 246, 236),
    track=(26, 26, 30),
    strap="leather",
    strap_color=(24, 22, 24),
    croc=True,
    time=(10, 9, 0),
)
JOURNE = Watch(
    metal=ROSE,
    bezel="thin",
    dial=(236, 232, 224),
    texture="rings",
    indices="journe",
    hands="leaf",
    hand_metal=BLUE_STEEL,
    hand_fill=None,
    seconds=None,
    track=None,
    strap="leather",
    strap_color=(52, 32, 24),
    croc=True,
    lug_ratio=0.82,
)
RM = Watch(metal=CARBON, strap="rubber", strap_color=(206, 34, 44), time=(10, 8, 0))

STD_SHADOWS = ((0.02, 0.04, 0.03, 0.55), (0.08, 0.16, 0.18, 0.45))


def _exit(cv: Canvas, x: float, y: float, dx: float, dy: float) -> float:
    """Distance from (x, y) along (dx, dy) to the canvas edge."""
    ts = []
    if dx > 1e-9:
        ts.append((cv.w - x) / dx)
    if dx < -1e-9:
        ts.append(-x / dx)
    if dy > 1e-9:
        ts.append((cv.h - y) / dy)
    if dy < -1e-9:
        ts.append(-y / dy)
    return max(0.0, min(ts))


def watch(
    cv: Canvas,
    w: Watch,
    cx: float,
    cy: float,
    r: float,
    reach: tuple[float, float] | float = 2000,
    rotate: float = 0.0,
    kind: str = "round",
    shadow=None,
    shadow_strength: float = 1.0,
) -> None:
    if not isinstance(reach, tuple):
        reach = (reach, reach)
    a = math.radians(rotate)
    reach = (
        min(reach[0], _exit(cv, cx, cy, math.sin(a), -math.cos(a)) + r * abs(math.sin(a)) + 4),
        min(reach[1], _exit(cv, cx, cy, -math.sin(a), math.cos(a)) + r * abs(math.sin(a)) + 4),
    )
    reach = (max(reach[0], 1.5 * r), max(reach[1], 1.5 * r))
    draw_watch = {"round": round_watch, "tonneau": tonneau_watch, "tank": tank_watch}[kind]
    shadows = [(dx * r, dy * r, b * r, o * shadow_strength) for dx, dy, b, o in STD_SHADOWS]
    stamp(
        cv,
        lambda sf: draw_watch(sf, w, cx, cy, r, reach),
        (cx - 1.45 * r, cy - reach[0] - 2, cx + 1.45 * r, cy + reach[1] + 2),
        rotate,
        (cx, cy),
        shadows,
        shadow or darker(cv.background, 0.7),
    )


# --- scenes --------------------------------------------------------------------------------


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


def _flatlay(w: Watch, bg, rotate: float, kind: str = "round"):
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


# --- editorial props -----------------------------------------------------------------------

US_OUTLINE = (
    (-124.7, 48.4),
    (-123.0, 49.0),
    (-95.2, 49.0),
    (-95.2, 49.4),
    (-94.6, 48.7),
    (-89.6, 48.0),
    (-84.8, 46.5),
    (-83.6, 46.1),
    (-82.4, 43.0),
    (-83.1, 42.0),
    (-79.0, 42.8),
    (-79.2, 43.4),
    (-76.4, 44.2),
    (-74.9, 45.0),
    (-71.5, 45.0),
    (-70.0, 46.7),
    (-69.2, 47.4),
    (-67.8, 47.1),
    (-67.8, 45.6),
    (-67.0, 44.8),
    (-70.2, 43.6),
    (-70.6, 42.6),
    (-70.0, 41.8),
    (-71.5, 41.3),
    (-74.0, 40.6),
    (-74.0, 39.5),
    (-75.0, 38.8),
    (-75.9, 37.2),
    (-76.0, 36.9),
    (-75.5, 35.2),
    (-77.0, 34.6),
    (-79.0, 33.5),
    (-80.8, 32.0),
    (-81.4, 30.4),
    (-80.1, 26.9),
    (-80.4, 25.2),
    (-81.1, 25.1),
    (-81.8, 26.7),
    (-82.7, 28.0),
    (-82.8, 29.2),
    (-84.0, 30.0),
    (-85.4, 29.7),
    (-87.5, 30.3),
    (-89.0, 30.3),
    (-89.6, 29.2),
    (-90.4, 29.1),
    (-92.0, 29.6),
    (-93.8, 29.7),
    (-94.8, 29.3),
    (-96.4, 28.3),
    (-97.2, 27.0),
    (-97.2, 25.9),
    (-99.1, 26.4),
    (-99.5, 27.5),
    (-101.4, 29.8),
    (-102.7, 29.7),
    (-103.3, 29.0),
    (-104.5, 29.6),
    (-106.5, 31.8),
    (-108.2, 31.8),
    (-108.2, 31.3),
    (-111.1, 31.3),
    (-114.8, 32.5),
    (-114.7, 32.7),
    (-117.1, 32.5),
    (-118.5, 34.0),
    (-120.6, 34.6),
    (-121.9, 36.6),
    (-122.5, 37.8),
    (-123.7, 39.0),
    (-124.2, 40.4),
    (-124.2, 42.0),
    (-124.5, 43.0),
    (-124.0, 46.2),
)
CITIES = {
    "new-york": (-74.0, 40.7),
    "los-angeles": (-118.2, 34.1),
    "chicago": (-87.6, 41.9),
    "miami": (-80.2, 25.8),
    "dallas": (-96.8, 32.8),
    "seattle": (-122.3, 47.6),
    "denver": (-105.0, 39.7),
}


def _us_projection(x0: float, y0: float, width: float):
    lons = [p[0] for p in US_OUTLINE]
    lats = [p[1] for p in US_OUTLINE]
    k = math.cos(math.radians(38))
    scale = width / ((max(lons) - min(lons)) * k)

    def proj(lon: float, lat: float) -> tuple[float, float]:
        return x0 + (lon - min(lons)) * k * scale, y0 + (max(lats) - lat) * scale

    return proj


def pin(cv: Canvas, x: float, y: float, size: float, color=GOLD) -> None:
    soft(cv, Circle(x, y + size * 0.1, size * 0.5, size * 0.18), BLACK, size * 0.15, 0.5)
    head = Circle(x, y - size * 1.25, size * 0.55)
    fill(
        cv,
        Poly([(x - size * 0.5, y - size * 1.05), (x + size * 0.5, y - size * 1.05), (x, y)]),
        darker(color, 0.1),
    )
    fill(
        cv,
        head,
        radial(
            [lighter(color, 0.45), color, darker(color, 0.25)],
            x - size * 0.2,
            y - size * 1.45,
            size * 0.8,
        ),
    )
    fill(cv, Circle(x, y - size * 1.25, size * 0.2), darker(color, 0.55))


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


# --- articles ------------------------------------------------------------------------------


def art_where_to_sell(cv: Canvas) -> None:
    background(
        cv, (34, 44, 64), (10, 13, 20), 420, 300, 0.75, [(900, 330, 300, GOLD, 120)], vignette=90
    )
    proj = _us_projection(70, 120, 640)
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


# --- authentication -----------------------------------------------------------------------

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


CATALOG: tuple[Art, ...] = (
    Art("hero-watch", 1200, 800, hero_watch),
    Art("brand-rolex", 1200, 800, brand_rolex),
    Art("brand-patek-philippe", 1200, 800, brand_patek),
    Art("brand-audemars-piguet", 1200, 800, brand_ap),
    Art("brand-richard-mille", 1200, 800, brand_rm),
    Art("brand-vacheron-constantin", 1200, 800, brand_vc),
    Art("brand-fp-journe", 1200, 800, brand_journe),
    Art("brand-cartier", 1200, 800, brand_cartier),
    Art("auth-inspection", 1200, 800, auth_inspection),
    *(
        Art(f"purchase-{i + 1}", 800, 800, _flatlay(w, bg, tilt))
        for i, (w, bg, tilt) in enumerate(
            zip(PURCHASES, PURCHASE_BACKGROUNDS, PURCHASE_TILTS, strict=True)
        )
    ),
    Art("article-where-to-sell-rolex-usa-2025-guide", 1200, 630, art_where_to_sell),
    Art("article-complete-guide-selling-rolex-usa", 1200, 630, art_complete_guide_rolex),
    Art("article-luxury-watch-market-usa", 1200, 630, art_market_usa),
    Art("article-authenticate-vintage-omega-speedmaster", 1200, 630, art_speedmaster),
    Art("article-patek-philippe-vs-audemars-piguet-investment", 1200, 630, art_patek_vs_ap),
    Art("article-watch-market-trends-usa-2025", 1200, 630, art_trends),
    Art("article-complete-guide-watch-condition-grading", 1200, 630, art_grading),
    Art(
        "article-best-places-sell-patek-philippe-usa-2025",
        1200,
        630,
        art_best_places_patek,
    ),
    Art("og-default", 1200, 630, og_default),
)
