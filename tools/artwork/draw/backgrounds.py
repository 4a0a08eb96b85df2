"""Backdrops: a whole canvas's radial gradient, glows and vignette."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image

from tools.artwork.draw.palette import mix
from tools.artwork.draw.surface import Canvas


def _smooth(e0: float, e1: float, x: float) -> float:
    t = min(1.0, max(0.0, (x - e0) / (e1 - e0)))
    return t * t * (3 - 2 * t)


def background(
    cv: Canvas,
    center_color,
    edge_color,
    cx: float | None = None,
    cy: float | None = None,
    spread: float = 0.75,
    glows: Sequence[tuple] = (),
    vignette: float = 0.0,
) -> None:
    """Paint the whole canvas: a radial gradient, soft glows (x, y, r, color, strength 0-255)
    and a vignette, computed together at low resolution and scaled up smoothly."""
    cx = cv.w / 2 if cx is None else cx
    cy = cv.h / 2 if cy is None else cy
    gw = 48
    gh = max(2, round(gw * cv.h / cv.w))
    reach = math.hypot(cv.w, cv.h) * spread
    c0 = [float(v) for v in center_color[:3]]
    c2 = [float(v) for v in edge_color[:3]]
    c1 = [a + (b - a) * 0.6 for a, b in zip(c0, c2, strict=True)]
    data = bytearray()
    for j in range(gh):
        y = (j + 0.5) * cv.h / gh
        for i in range(gw):
            x = (i + 0.5) * cv.w / gw
            t = min(1.0, math.hypot(x - cx, y - cy) / reach)
            if t < 0.5:
                u = _smooth(0, 1, t / 0.5)
                col = [a + (b - a) * u for a, b in zip(c0, c1, strict=True)]
            else:
                u = _smooth(0, 1, (t - 0.5) / 0.5)
                col = [a + (b - a) * u for a, b in zip(c1, c2, strict=True)]
            for gx, gy, gr, gc, strength in glows:
                g = math.hypot(x - gx, y - gy) / gr
                if g < 1:
                    a = strength / 255 * (1 - _smooth(0.0, 1.0, g)) ** 1.2
                    col = [c + (v - c) * a for c, v in zip(col, gc, strict=False)]
            if vignette:
                v = math.hypot(
                    (x - cv.w / 2) / (cv.w / 2), (y - cv.h / 2) / (cv.h / 2)
                ) / math.sqrt(2)
                k = 1 - vignette / 255 * _smooth(0.45, 1.0, v)
                col = [c * k for c in col]
            data += bytes(max(0, min(255, round(c))) for c in col)
    small = Image.frombytes("RGB", (gw, gh), bytes(data))
    # smooth at final size; the supersampled copy only needs nearest-neighbour blocks of it
    cv.base = small.resize((round(cv.w), round(cv.h)), Image.Resampling.BICUBIC)
    cv._im = cv._draw = None
    cv.background = mix(center_color, edge_color, 0.5)
