"""The United States as the articles draw it: its outline, our cities, a projection, pins."""

from __future__ import annotations

import math

from tools.artwork.draw.paints import radial
from tools.artwork.draw.palette import BLACK, GOLD, darker, lighter
from tools.artwork.draw.shapes import Circle, Poly
from tools.artwork.draw.surface import Canvas, fill, soft

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


def us_projection(x0: float, y0: float, width: float):
    """The map's projection (equirectangular, true to scale at 38°N), `width` pixels wide from the
    picture's (x0, y0): a function from longitude and latitude to the picture's pixels."""
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
