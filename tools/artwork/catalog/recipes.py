"""The watches the pictures show, and `watch()`, which places one in a scene with its shadow."""

from __future__ import annotations

import math
from dataclasses import replace

from tools.artwork.draw.metals import BLUE_STEEL, CARBON, GOLD_M, ROSE, STEEL, WHITE_GOLD
from tools.artwork.draw.palette import darker
from tools.artwork.draw.surface import Canvas, stamp
from tools.artwork.draw.watch import Watch
from tools.artwork.draw.watches import round_watch, tank_watch, tonneau_watch

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
