"""Fillable shapes (circle, ring, polygon, rounded rectangle) and the pen that rasterises them."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from PIL import ImageDraw

from tools.artwork.draw.geometry import Point, Transform, arc_points


class Pen:
    """Maps canvas-unit points onto a target image: tf(x, y) -> pixels, k pixels per unit."""

    def __init__(self, tf: Transform, k: float, angle: float = 0.0):
        self.tf, self.k, self.angle = tf, k, angle


class Shape:
    """Something that can be rasterised: bbox() in canvas units, render() onto an ImageDraw."""

    def bbox(self) -> tuple[float, float, float, float]:
        raise NotImplementedError

    def render(self, d: ImageDraw.ImageDraw, pen: Pen, fill) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Circle(Shape):
    cx: float
    cy: float
    r: float
    ry: float | None = None

    def bbox(self):
        ry = self.r if self.ry is None else self.ry
        return (self.cx - self.r, self.cy - ry, self.cx + self.r, self.cy + ry)

    def render(self, d, pen, fill):
        ry = self.r if self.ry is None else self.ry
        if ry != self.r and pen.angle % 180:
            pts = [
                (
                    self.cx + self.r * math.cos(t / 36 * math.pi),
                    self.cy + ry * math.sin(t / 36 * math.pi),
                )
                for t in range(72)
            ]
            Poly(pts).render(d, pen, fill)
            return
        if pen.angle % 180:
            ry, rx = self.r, ry
        else:
            rx = self.r
        x, y = pen.tf(self.cx, self.cy)
        d.ellipse([x - rx * pen.k, y - ry * pen.k, x + rx * pen.k, y + ry * pen.k], fill=fill)


@dataclass(frozen=True)
class Ring(Shape):
    cx: float
    cy: float
    ro: float
    ri: float

    def bbox(self):
        return (self.cx - self.ro, self.cy - self.ro, self.cx + self.ro, self.cy + self.ro)

    def render(self, d, pen, fill):
        x, y = pen.tf(self.cx, self.cy)
        ro = self.ro * pen.k
        d.ellipse(
            [x - ro, y - ro, x + ro, y + ro],
            outline=fill,
            width=max(1, round((self.ro - self.ri) * pen.k)),
        )


@dataclass(frozen=True)
class Poly(Shape):
    pts: tuple[Point, ...]

    def __init__(self, pts):
        object.__setattr__(self, "pts", tuple(pts))

    def bbox(self):
        xs = [p[0] for p in self.pts]
        ys = [p[1] for p in self.pts]
        return (min(xs), min(ys), max(xs), max(ys))

    def render(self, d, pen, fill):
        d.polygon([pen.tf(x, y) for x, y in self.pts], fill=fill)


@dataclass(frozen=True)
class RRect(Shape):
    x0: float
    y0: float
    x1: float
    y1: float
    r: float = 0.0

    def bbox(self):
        return (self.x0, self.y0, self.x1, self.y1)

    def points(self) -> list[Point]:
        r = min(self.r, (self.x1 - self.x0) / 2, (self.y1 - self.y0) / 2)
        if r <= 0:
            return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]
        pts: list[Point] = []
        for (cx, cy), a0 in (
            ((self.x1 - r, self.y0 + r), 0),
            ((self.x1 - r, self.y1 - r), 90),
            ((self.x0 + r, self.y1 - r), 180),
            ((self.x0 + r, self.y0 + r), 270),
        ):
            pts += arc_points(cx, cy, r, a0, a0 + 90, 8)
        return pts

    def render(self, d, pen, fill):
        if pen.angle % 360:
            Poly(self.points()).render(d, pen, fill)
            return
        (ax, ay), (bx, by) = pen.tf(self.x0, self.y0), pen.tf(self.x1, self.y1)
        d.rounded_rectangle(
            [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)], radius=self.r * pen.k, fill=fill
        )


def shifted(shape: Shape, dx: float, dy: float) -> Shape:
    """The same shape moved by (dx, dy): a cheap hard drop shadow for small parts."""
    if isinstance(shape, Poly):
        return Poly([(x + dx, y + dy) for x, y in shape.pts])
    if isinstance(shape, (Circle, Ring)):
        return replace(shape, cx=shape.cx + dx, cy=shape.cy + dy)
    if isinstance(shape, RRect):
        return replace(
            shape, x0=shape.x0 + dx, y0=shape.y0 + dy, x1=shape.x1 + dx, y1=shape.y1 + dy
        )
    raise TypeError(shape)


def band(cx: float, cy: float, ro: float, ri: float, a0: float, a1: float) -> Poly:
    """An annular sector between clock angles a0 and a1."""
    return Poly(arc_points(cx, cy, ro, a0, a1) + arc_points(cx, cy, ri, a1, a0))


def local_poly(tf: Transform, pts: Iterable[Point]) -> Poly:
    return Poly([tf(u, v) for u, v in pts])
