"""Gradients: linear, radial and angular sheens, resampled from look-up templates."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image

from tools.artwork.draw.geometry import Point, S
from tools.artwork.draw.palette import Color, mix


def _norm_stops(stops) -> tuple:
    if stops and isinstance(stops[0][0], (int, float)) and isinstance(stops[0][1], tuple):
        return tuple((float(t), tuple(c)) for t, c in stops)
    n = len(stops) - 1
    return tuple((i / n, tuple(c)) for i, c in enumerate(stops))


@lru_cache(maxsize=512)
def _lut(stops: tuple) -> tuple[list[int], ...]:
    bands: tuple[list[int], ...] = ([], [], [], [])
    for i in range(256):
        t = i / 255
        for j in range(len(stops) - 1):
            (t0, c0), (t1, c1) = stops[j], stops[j + 1]
            if t <= t1 or j == len(stops) - 2:
                f = 0.0 if t1 == t0 else min(1.0, max(0.0, (t - t0) / (t1 - t0)))
                c = mix(c0 + (255,) * (4 - len(c0)), c1 + (255,) * (4 - len(c1)), f)
                break
        for k in range(4):
            bands[k].append(c[k])
    return bands


def ramp(stops, n: int) -> list[Color]:
    """n colours sampled evenly from gradient stops (for cheap banded fills)."""
    lut = _lut(_norm_stops(stops))
    return [tuple(lut[k][round(255 * (i + 0.5) / n)] for k in range(3)) for i in range(n)]


_LIN_UNIT, _LIN_OFF, _LIN_H = 256, 8 * 256, 18 * 256  # linear template: t from -8 to 10


_TPL = 256  # radial and sheen templates are _TPL pixels square


@cache
def _template(kind: str) -> Image.Image:
    """Look-up images that gradients are resampled from (so no per-pixel Python at draw time)."""
    if kind == "linear":
        column = bytes(
            max(0, min(255, round((y + 0.5 - _LIN_OFF) / _LIN_UNIT * 255))) for y in range(_LIN_H)
        )
        return Image.frombytes("L", (1, _LIN_H), column).resize(
            (4, _LIN_H), Image.Resampling.NEAREST
        )
    data = bytearray()
    lobes = int(kind[-1]) if kind.startswith("sheen") else 0
    for j in range(_TPL):
        for i in range(_TPL):
            if lobes:  # covers [-1, 1]^2: the value depends on the clock angle only
                u, v = (i + 0.5) / _TPL * 2 - 1, (j + 0.5) / _TPL * 2 - 1
                t = 0.5 - 0.5 * math.cos(lobes * math.atan2(u, -v))
            else:  # radial, covers [-2, 2]^2
                u, v = (i + 0.5) / _TPL * 4 - 2, (j + 0.5) / _TPL * 4 - 2
                t = min(1.0, math.hypot(u, v))
            data.append(round(t * 255))
    return Image.frombytes("L", (_TPL, _TPL), bytes(data))


@dataclass(frozen=True)
class Gradient:
    stops: tuple

    def template(self) -> str:
        raise NotImplementedError

    def to_template(self, corners: Sequence[Point]) -> Callable[[float, float], Point]:
        """Map a user point to template coordinates (corners: the region, in user units)."""
        raise NotImplementedError

    def tmap(self, size: tuple[int, int], to_user: Callable[[float, float], Point]) -> Image.Image:
        """t over a pixel region of ``size``, at final resolution (a smooth field needs no more),
        resampled from a template with one affine transform."""
        w, h = size
        w1, h1 = math.ceil(w / S), math.ceil(h / S)
        corners = [to_user(x * S, y * S) for x, y in ((0, 0), (w1, 0), (0, h1), (w1, h1))]
        g = self.to_template(corners)
        o, ex, ey = g(*to_user(0, 0)), g(*to_user(S, 0)), g(*to_user(0, S))
        data = (ex[0] - o[0], ey[0] - o[0], o[0], ex[1] - o[1], ey[1] - o[1], o[1])
        return _template(self.template()).transform(
            (w1, h1), Image.Transform.AFFINE, data, Image.Resampling.BILINEAR, fillcolor=255
        )

    def render(self, size, to_user):
        """The gradient's colours (and alpha, if any) over a pixel region of ``size``."""
        tmap = self.tmap(size, to_user)
        stops = _norm_stops(self.stops)
        lut = _lut(stops)
        rgb = _upsample(Image.merge("RGB", [tmap.point(lut[k]) for k in range(3)]), size)
        has_alpha = any(len(c) > 3 and c[3] < 255 for _, c in stops)
        return rgb, (_upsample(tmap.point(lut[3]), size) if has_alpha else None)


def _upsample(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Blow a final-resolution image up by S (nearest: it is smooth already) and crop to size."""
    big = im.resize((im.width * S, im.height * S), Image.Resampling.NEAREST)
    return big if big.size == tuple(size) else big.crop((0, 0, *size))


@dataclass(frozen=True)
class Linear(Gradient):
    p0: Point = (0, 0)
    p1: Point = (0, 1)

    def template(self):
        return "linear"

    def to_template(self, corners):
        (x0, y0), (x1, y1) = self.p0, self.p1
        dx, dy = x1 - x0, y1 - y0
        n2 = dx * dx + dy * dy or 1.0
        return lambda x, y: (2.0, _LIN_OFF + ((x - x0) * dx + (y - y0) * dy) / n2 * _LIN_UNIT)


@dataclass(frozen=True)
class Radial(Gradient):
    cx: float = 0
    cy: float = 0
    rx: float = 1
    ry: float | None = None

    def template(self):
        return "radial"

    def to_template(self, corners):
        ry = self.rx if self.ry is None else self.ry
        k = _TPL / 4
        return lambda x, y: (((x - self.cx) / self.rx + 2) * k, ((y - self.cy) / ry + 2) * k)


@dataclass(frozen=True)
class Sheen(Gradient):
    """Angular light: t=0 facing the light (clock angle ``light``), 1 facing away."""

    cx: float = 0
    cy: float = 0
    light: float = 315
    lobes: int = 1

    def template(self):
        return f"sheen{self.lobes}"

    def to_template(self, corners):
        reach = max(math.hypot(x - self.cx, y - self.cy) for x, y in corners) * 1.02 or 1.0
        a = math.radians(-self.light)
        c, s = math.cos(a) / reach, math.sin(a) / reach
        k = _TPL / 2

        def g(x: float, y: float) -> Point:
            dx, dy = x - self.cx, y - self.cy
            return (dx * c - dy * s + 1) * k, (dx * s + dy * c + 1) * k

        return g


def linear(stops, p0: Point, p1: Point) -> Linear:
    return Linear(stops=tuple(stops), p0=p0, p1=p1)


def radial(stops, cx: float, cy: float, rx: float, ry: float | None = None) -> Radial:
    return Radial(stops=tuple(stops), cx=cx, cy=cy, rx=rx, ry=ry)


def sheen(stops, cx: float, cy: float, light: float = 315, lobes: int = 1) -> Sheen:
    return Sheen(stops=tuple(stops), cx=cx, cy=cy, light=light, lobes=lobes)
