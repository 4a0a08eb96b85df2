"""Metals (steel, golds, titanium, carbon, blued steel) as polished, ring and brushed paints."""

from __future__ import annotations

from dataclasses import dataclass

from tools.artwork.draw.geometry import Point
from tools.artwork.draw.paints import Linear, Sheen, linear, sheen
from tools.artwork.draw.palette import Color, darker, mix


@dataclass(frozen=True)
class Metal:
    hi: Color
    mid: Color
    lo: Color
    edge: Color

    def polished(self, cx, cy, light=315, lobes=1) -> Sheen:
        return sheen(
            [(0, self.hi), (0.4, self.mid), (0.8, self.lo), (1, darker(self.lo, 0.15))],
            cx,
            cy,
            light,
            lobes,
        )

    def ring(self, cx, cy) -> Sheen:
        return sheen([(0, self.hi), (0.5, self.mid), (1, self.lo)], cx, cy, 315, 2)

    def across(self, p0: Point, p1: Point) -> Linear:
        """Brushed, rounded surface: dark edge, highlight, mid, dark edge from p0 to p1."""
        return linear(
            [
                (0, self.lo),
                (0.22, self.hi),
                (0.55, self.mid),
                (0.88, mix(self.mid, self.lo, 0.6)),
                (1, self.lo),
            ],
            p0,
            p1,
        )


STEEL = Metal(hi=(244, 246, 250), mid=(172, 178, 188), lo=(92, 98, 110), edge=(40, 44, 52))


WHITE_GOLD = Metal(hi=(252, 252, 252), mid=(206, 209, 214), lo=(128, 133, 141), edge=(70, 74, 80))


GOLD_M = Metal(hi=(255, 236, 170), mid=(221, 178, 88), lo=(152, 108, 38), edge=(88, 60, 18))


ROSE = Metal(hi=(252, 220, 200), mid=(218, 156, 126), lo=(150, 92, 70), edge=(88, 50, 38))


TITANIUM = Metal(hi=(212, 215, 219), mid=(146, 150, 157), lo=(84, 88, 95), edge=(34, 36, 40))


CARBON = Metal(hi=(104, 106, 112), mid=(52, 54, 58), lo=(24, 25, 28), edge=(8, 8, 10))


BLUE_STEEL = Metal(hi=(120, 150, 230), mid=(40, 66, 150), lo=(20, 32, 80), edge=(10, 16, 40))
