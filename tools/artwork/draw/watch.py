"""The Watch recipe: the metal, bezel, dial, hands and strap a drawn watch is made of."""

from __future__ import annotations

from dataclasses import dataclass

from tools.artwork.draw.metals import STEEL, WHITE_GOLD, Metal
from tools.artwork.draw.palette import LUME, Color


@dataclass(frozen=True)
class Watch:
    metal: Metal = STEEL
    accent: Metal | None = None  # two-tone: bezel, crown and centre links
    bezel: str = "diver"  # diver, fluted, smooth, thin, tachymeter, octagon
    bezel_color: Color = (18, 19, 22)
    bezel_marks: Color = (226, 228, 230)
    dial: Color = (18, 19, 22)
    texture: str = "sunburst"  # plain, sunburst, grid, rings
    indices: str = "diver"  # diver, baton, pilot, roman, journe
    index_metal: Metal = WHITE_GOLD
    lume: Color = LUME
    track: Color | None = (232, 232, 232)  # minute track colour
    hands: str = "sword"  # sword, baton, dauphine, pilot, leaf
    hand_metal: Metal = WHITE_GOLD
    hand_fill: Color | None = LUME
    seconds: Color | None = (236, 236, 236)
    date: bool = False
    cyclops: bool = False
    chrono: bool = False
    subdial: Color = (236, 236, 232)
    crown_guard: bool = False
    strap: str = "oyster"  # oyster, jubilee, integrated, leather, rubber
    strap_color: Color = (60, 36, 24)
    stitch: Color | None = None
    croc: bool = False
    lug_ratio: float = 1.0
    time: tuple[float, float, float] = (10, 9, 36)
    dome: float = 1.0  # crystal highlight strength
