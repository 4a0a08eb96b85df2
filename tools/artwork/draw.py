"""Drawing primitives for the site's original artwork.

Everything is drawn with Pillow's ImageDraw on a surface ``S`` times the final size and then
downscaled with LANCZOS, which gives smooth anti-aliased edges. Every function here takes
coordinates in *final* pixels; a ``Surface`` converts them to its supersampled pixels.

Nothing here is random, so the same code always draws the same pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

S = 4  # supersampling factor

Color = tuple[int, ...]
Point = tuple[float, float]
Transform = Callable[[float, float], Point]

# --- palette -------------------------------------------------------------------------------

NAVY = (18, 23, 34)
GOLD = (207, 162, 63)
CREAM = (248, 238, 211)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
INK = (12, 13, 16)
LUME = (238, 234, 214)
BLUED = (34, 58, 128)


def mix(a: Sequence[int], b: Sequence[int], t: float) -> Color:
    """Blend two colours; t=0 gives a, t=1 gives b (alpha kept from a when b has none)."""
    n = max(len(a), len(b))
    a4 = tuple(a) + (255,) * (n - len(a))
    b4 = tuple(b) + (255,) * (n - len(b))
    return tuple(round(x + (y - x) * t) for x, y in zip(a4, b4, strict=True))


def lighter(c: Sequence[int], t: float) -> Color:
    return mix(c[:3], WHITE, t) + tuple(c[3:])


def darker(c: Sequence[int], t: float) -> Color:
    return mix(c[:3], BLACK, t) + tuple(c[3:])


def alpha(c: Sequence[int], a: int) -> Color:
    return (c[0], c[1], c[2], max(0, min(255, round(a))))


# --- geometry ------------------------------------------------------------------------------


def polar(cx: float, cy: float, r: float, deg: float) -> Point:
    """A point at clock angle ``deg`` (0 = 12 o'clock, clockwise) and radius r."""
    a = math.radians(deg)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def frame(cx: float, cy: float, deg: float, sx: float = 1.0) -> Transform:
    """Local coordinates (u across, v outwards along the clock angle) to canvas points."""
    a = math.radians(deg)
    s, c = math.sin(a), math.cos(a)

    def tf(u: float, v: float) -> Point:
        return cx + v * s + u * c * sx, cy - v * c + u * s * sx

    return tf


def rotate_points(pts: Iterable[Point], deg: float, cx: float, cy: float) -> list[Point]:
    a = math.radians(deg)
    s, c = math.sin(a), math.cos(a)
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in pts]


def bezier(p0: Point, p1: Point, p2: Point, n: int = 16) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(
            (
                (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
                (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1],
            )
        )
    return out


def bar(p: Point, q: Point, w: float) -> list[Point]:
    """A straight stroke of width w from p to q, as a polygon."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / n * w / 2, dx / n * w / 2
    return [
        (p[0] + ox, p[1] + oy),
        (q[0] + ox, q[1] + oy),
        (q[0] - ox, q[1] - oy),
        (p[0] - ox, p[1] - oy),
    ]


def superellipse(
    cx: float, cy: float, a: float, b: float, n: float, steps: int = 120
) -> list[Point]:
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        c, s = math.cos(t), math.sin(t)
        pts.append(
            (
                cx + a * math.copysign(abs(c) ** (2 / n), c),
                cy + b * math.copysign(abs(s) ** (2 / n), s),
            )
        )
    return pts


def arc_points(
    cx: float, cy: float, r: float, a0: float, a1: float, n: int | None = None
) -> list[Point]:
    n = n or max(4, int(abs(a1 - a0) / 3))
    return [polar(cx, cy, r, a0 + (a1 - a0) * i / n) for i in range(n + 1)]


# --- shapes --------------------------------------------------------------------------------


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


# --- paints --------------------------------------------------------------------------------


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


# --- surfaces ------------------------------------------------------------------------------


class Surface:
    """An RGB image at S x resolution covering canvas units x..x+w, y..y+h.

    A surface may be rotated: then everything drawn on it is turned clockwise by ``angle``
    degrees about ``pivot`` (canvas units) on its way to the pixels.
    """

    paint = True

    def __init__(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        background=(0, 0, 0),
        masked=False,
        angle=0.0,
        pivot: Point = (0, 0),
    ):
        self.x, self.y, self.w, self.h = x, y, w, h
        self.im = Image.new("RGB", (max(1, round(w * S)), max(1, round(h * S))), background[:3])
        self.draw = ImageDraw.Draw(self.im, "RGBA")
        self.mask = Image.new("L", self.im.size, 0) if masked else None
        self.mask_draw = ImageDraw.Draw(self.mask) if masked else None
        self.set_rotation(angle, pivot)

    def set_rotation(self, angle: float, pivot: Point) -> None:
        self.angle, self.pivot = angle, pivot
        self._c, self._s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def dev(self, x: float, y: float) -> Point:
        """Canvas units after this surface's rotation."""
        if not self.angle:
            return x, y
        px, py = self.pivot
        dx, dy = x - px, y - py
        return px + dx * self._c - dy * self._s, py + dx * self._s + dy * self._c

    def user(self, x: float, y: float) -> Point:
        if not self.angle:
            return x, y
        px, py = self.pivot
        dx, dy = x - px, y - py
        return px + dx * self._c + dy * self._s, py - dx * self._s + dy * self._c

    def px(self, x: float, y: float) -> Point:
        x, y = self.dev(x, y)
        return (x - self.x) * S, (y - self.y) * S

    def pen(self, ox: float = 0, oy: float = 0) -> Pen:
        return Pen(lambda x, y: (lambda p: (p[0] - ox, p[1] - oy))(self.px(x, y)), S, self.angle)

    def dev_bbox(self, bbox) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = bbox
        pts = [self.dev(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        return (
            min(p[0] for p in pts),
            min(p[1] for p in pts),
            max(p[0] for p in pts),
            max(p[1] for p in pts),
        )

    def region(self, bbox, pad: float = 0.5):
        """The pixel box covering a canvas-unit bbox, clipped to the image (None if empty)."""
        x0, y0, x1, y1 = self.dev_bbox(bbox)
        px0 = max(0, math.floor((x0 - pad - self.x) * S))
        py0 = max(0, math.floor((y0 - pad - self.y) * S))
        px1 = min(round(self.w * S), math.ceil((x1 + pad - self.x) * S))
        py1 = min(round(self.h * S), math.ceil((y1 + pad - self.y) * S))
        if px1 <= px0 or py1 <= py0:
            return None
        return px0, py0, px1, py1


class Silhouette(Surface):
    """Records only the outline of what is drawn (filled with silhouette=True), for shadows."""

    paint = False

    def __init__(self, bbox, angle: float = 0.0, pivot: Point = (0, 0)):
        x0, y0, x1, y1 = (
            math.floor(bbox[0]),
            math.floor(bbox[1]),
            math.ceil(bbox[2]),
            math.ceil(bbox[3]),
        )
        self.x, self.y, self.w, self.h = x0, y0, x1 - x0, y1 - y0
        self.mask = Image.new("L", (max(1, self.w * S), max(1, self.h * S)), 0)
        self.mask_draw = ImageDraw.Draw(self.mask)
        self.im, self.draw = self.mask, None
        self.set_rotation(angle, pivot)


class Canvas(Surface):
    """The picture. Until something sharp is drawn it is only a final-size backdrop (``base``),
    so smooth things (gradients, shadows) are cheap; the supersampled image is made on demand."""

    def __init__(self, w: int, h: int, background=NAVY):
        self.x, self.y, self.w, self.h = 0, 0, w, h
        self.mask = self.mask_draw = None
        self.background = background
        self.base = Image.new("RGB", (w, h), background[:3])
        self._im: Image.Image | None = None
        self._draw: ImageDraw.ImageDraw | None = None
        self.set_rotation(0.0, (0, 0))

    @property
    def pending(self) -> bool:
        return self._im is None

    @property
    def im(self) -> Image.Image:
        if self._im is None:
            self._im = self.base.resize((self.w * S, self.h * S), Image.Resampling.NEAREST)
            self._draw = ImageDraw.Draw(self._im, "RGBA")
        return self._im

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        self.im  # noqa: B018 - materialise
        return self._draw

    def finish(self) -> Image.Image:
        if self._im is None:
            return self.base.copy()
        return self._im.resize((self.w, self.h), Image.Resampling.LANCZOS, reducing_gap=2.0)


def stamp(
    cv: Surface,
    painter: Callable[[Surface], None],
    bbox,
    angle: float = 0.0,
    pivot: Point | None = None,
    shadows: Sequence[tuple] = (),
    shadow_color=BLACK,
) -> None:
    """Draw an object with ``painter(surface)``, turned by ``angle`` about ``pivot``, over shadows.

    The painter runs twice: once on a Silhouette (its outline casts the shadows), then on the
    canvas itself. bbox (canvas units, before rotation) must contain the object.
    """
    if pivot is None:
        pivot = ((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2)
    if shadows:
        probe = Silhouette((0, 0, 1, 1), angle, pivot)
        sil = Silhouette(probe.dev_bbox(bbox), angle, pivot)
        painter(sil)
        cast_shadows(cv, sil, shadows, shadow_color)
    before = (cv.angle, cv.pivot)
    cv.set_rotation(angle, pivot)
    try:
        painter(cv)
    finally:
        cv.set_rotation(*before)


def fill(sf: Surface, shape: Shape, paint, silhouette: bool = False) -> None:
    """Fill a shape with a colour (RGB or RGBA, blended) or a Gradient."""
    if not sf.paint:
        pass
    elif isinstance(paint, Gradient):
        region = sf.region(shape.bbox())
        if region is not None:
            px0, py0, px1, py1 = region
            size = (px1 - px0, py1 - py0)
            mask = Image.new("L", size, 0)
            shape.render(ImageDraw.Draw(mask), sf.pen(px0, py0), 255)
            rgb, a = paint.render(
                size, lambda i, j: sf.user(sf.x + (px0 + i) / S, sf.y + (py0 + j) / S)
            )
            if a is not None:
                mask = ImageChops.multiply(mask, a)
            sf.im.paste(rgb, (px0, py0), mask)
    else:
        shape.render(sf.draw, sf.pen(), tuple(paint))
    if silhouette and sf.mask_draw is not None:
        shape.render(sf.mask_draw, sf.pen(), 255)


def line(sf: Surface, pts: Sequence[Point], color, width: float, round_caps: bool = False) -> None:
    if not sf.paint:
        return
    sf.draw.line(
        [sf.px(*p) for p in pts], fill=tuple(color), width=max(1, round(width * S)), joint="curve"
    )
    if round_caps:
        for p in (pts[0], pts[-1]):
            fill(sf, Circle(p[0], p[1], width / 2), color)


def outline(sf: Surface, pts: Sequence[Point], color, width: float) -> None:
    """A closed polyline."""
    line(sf, list(pts) + [pts[0], pts[1]], color, width)


def arc(sf: Surface, cx, cy, r, a0, a1, color, width) -> None:
    """A stroked arc of radius r (stroke centred on r) between clock angles a0 and a1."""
    if not sf.paint:
        return
    ro = (r + width / 2) * S
    x, y = sf.px(cx, cy)
    sf.draw.arc(
        [x - ro, y - ro, x + ro, y + ro],
        a0 - 90 + sf.angle,
        a1 - 90 + sf.angle,
        fill=tuple(color),
        width=max(1, round(width * S)),
    )


def dashed(sf: Surface, pts: Sequence[Point], color, width: float, dash: float, gap: float) -> None:
    """A dashed polyline."""
    on, left = True, dash
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg:
            step = min(left, seg - pos)
            if on:
                a, b = pos / seg, (pos + step) / seg
                line(
                    sf,
                    [
                        (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                        (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
                    ],
                    color,
                    width,
                )
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap


@contextmanager
def clip(sf: Surface, shape: Shape):
    """Draw inside ``shape`` only: yields a sub-surface whose pixels are pasted back masked."""
    region = sf.region(shape.bbox(), pad=1)
    if not sf.paint:
        yield sf
        return
    if region is None:
        yield Surface(0, 0, 1, 1)
        return
    px0, py0, px1, py1 = region
    sub = Surface.__new__(Surface)
    sub.x, sub.y = sf.x + px0 / S, sf.y + py0 / S
    sub.w, sub.h = (px1 - px0) / S, (py1 - py0) / S
    sub.im = sf.im.crop(region)
    sub.draw = ImageDraw.Draw(sub.im, "RGBA")
    sub.mask = sub.mask_draw = None
    sub.set_rotation(sf.angle, sf.pivot)
    yield sub
    mask = Image.new("L", sub.im.size, 0)
    shape.render(ImageDraw.Draw(mask), sub.pen(), 255)
    sf.im.paste(sub.im, (px0, py0), mask)


def _fade(m: Image.Image, opacity: float) -> Image.Image:
    return m if opacity >= 1 else m.point([round(v * opacity) for v in range(256)])


def soft(
    sf: Surface, shape: Shape, color, blur: float, opacity: float = 1.0, offset: Point = (0, 0)
) -> None:
    """A blurred copy of a shape (shadows, glows, soft highlights); offset is not rotated."""
    if not sf.paint:
        return
    if len(color) > 3:
        opacity *= color[3] / 255
    x0, y0, x1, y1 = sf.dev_bbox(shape.bbox())
    pad = blur * 2.6 + 1
    f = 1.0 if blur <= 6 else 6.0 / blur  # mask pixels per canvas unit
    ox, oy = x0 - pad, y0 - pad
    w = max(2, math.ceil((x1 - x0 + 2 * pad) * f))
    h = max(2, math.ceil((y1 - y0 + 2 * pad) * f))
    m = Image.new("L", (w, h), 0)
    pen = Pen(
        lambda x, y: (lambda p: ((p[0] - ox) * f, (p[1] - oy) * f))(sf.dev(x, y)), f, sf.angle
    )
    shape.render(ImageDraw.Draw(m), pen, 255)
    m = _fade(m.filter(ImageFilter.GaussianBlur(max(0.5, blur * f))), opacity)
    if f != 1:
        m = m.resize((round(w / f), round(h / f)), Image.Resampling.BILINEAR)
    big = m.resize((m.width * S, m.height * S), Image.Resampling.NEAREST)
    px, py = round((ox + offset[0] - sf.x) * S), round((oy + offset[1] - sf.y) * S)
    sf.im.paste(tuple(color[:3]), (px, py, px + big.width, py + big.height), big)


def cast_shadows(
    canvas: Surface, sil: Silhouette, shadows: Sequence[tuple], shadow_color=BLACK
) -> None:
    """Shadows (dx, dy, blur, opacity in canvas units) of a silhouette, blurred together at half
    the final resolution (they are soft anyway) and scaled up once."""
    mask = sil.mask
    k = 2 * S  # supersampled pixels per shadow pixel
    reach = max(abs(dx) + abs(dy) + 3 * blur for dx, dy, blur, _ in shadows)
    p = math.ceil(reach * S / k) + 2
    sw, sh = max(1, mask.width // k), max(1, mask.height // k)
    base = mask.resize((sw, sh), Image.Resampling.BOX)
    acc = None
    for dx, dy, blur, opacity in shadows:
        m = Image.new("L", (sw + 2 * p, sh + 2 * p), 0)
        m.paste(base, (p + round(dx * S / k), p + round(dy * S / k)))
        m = _fade(m.filter(ImageFilter.GaussianBlur(max(0.6, blur * S / k))), opacity)
        acc = m if acc is None else ImageChops.screen(acc, m)
    box = acc.getbbox()
    if box and isinstance(canvas, Canvas) and canvas.pending:
        # nothing sharp drawn yet: shadow the final-size backdrop directly
        acc = acc.crop(box)
        f = k // S
        big = acc.resize((acc.width * f, acc.height * f), Image.Resampling.BILINEAR)
        px = round(sil.x - canvas.x) + (box[0] - p) * f
        py = round(sil.y - canvas.y) + (box[1] - p) * f
        canvas.base.paste(tuple(shadow_color[:3]), (px, py, px + big.width, py + big.height), big)
    elif box:
        acc = acc.crop(box)
        f = k // S
        big = acc.resize((acc.width * f, acc.height * f), Image.Resampling.BILINEAR)
        big = big.resize((big.width * S, big.height * S), Image.Resampling.NEAREST)
        px = round((sil.x - canvas.x) * S) + (box[0] - p) * k
        py = round((sil.y - canvas.y) * S) + (box[1] - p) * k
        canvas.im.paste(tuple(shadow_color[:3]), (px, py, px + big.width, py + big.height), big)


# --- text ----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=px)


def text(
    sf: Surface,
    x: float,
    y: float,
    s: str,
    size: float,
    color,
    angle: float = 0.0,
    weight: float = 0.0,
) -> None:
    """Numerals in Pillow's default font, ink-centred on (x, y), rotated clockwise by angle."""
    if not sf.paint:
        return
    px = max(4, round(size * S))
    font = _font(px)
    sw = round(weight * S)
    left, top, right, bottom = font.getbbox(s, stroke_width=sw)
    m = Image.new("L", (right - left + 4 * sw + 8, bottom - top + 4 * sw + 8), 0)
    ImageDraw.Draw(m).text(
        (2 * sw + 4 - left, 2 * sw + 4 - top),
        s,
        font=font,
        fill=255,
        stroke_width=sw,
        stroke_fill=255,
    )
    m = m.crop(m.getbbox() or (0, 0, 1, 1))
    angle += sf.angle
    if angle % 360:
        m = m.rotate(-angle, Image.Resampling.BICUBIC, expand=True)
    if len(color) > 3 and color[3] < 255:
        m = _fade(m, color[3] / 255)
    cx, cy = sf.px(x, y)
    px0, py0 = round(cx - m.width / 2), round(cy - m.height / 2)
    sf.im.paste(tuple(color[:3]), (px0, py0, px0 + m.width, py0 + m.height), m)


_ROMAN_W = {"I": 0.3, "V": 0.62, "X": 0.62}


def roman_polys(numeral: str, height: float) -> list[list[Point]]:
    """Serif Roman numerals from strokes, centred on (0, 0) in local (u, v) coordinates."""
    gap = 0.03
    total = sum(_ROMAN_W[c] for c in numeral) + gap * (len(numeral) - 1)
    x = -total / 2
    polys: list[list[Point]] = []
    thick, thin, serif = 0.14, 0.055, 0.055
    for ch in numeral:
        w = _ROMAN_W[ch]
        if ch == "I":
            polys.append(bar((x + w / 2, -0.5), (x + w / 2, 0.5), thick))
            serifs = [(x, x + w, 0.5), (x, x + w, -0.5)]
        elif ch == "V":
            polys.append(bar((x + 0.08, 0.5), (x + w / 2, -0.5), thick))
            polys.append(bar((x + w - 0.08, 0.5), (x + w / 2, -0.5), thin))
            serifs = [(x - 0.02, x + 0.2, 0.5), (x + w - 0.18, x + w + 0.02, 0.5)]
        else:
            polys.append(bar((x + 0.07, 0.5), (x + w - 0.07, -0.5), thick))
            polys.append(bar((x + w - 0.07, 0.5), (x + 0.07, -0.5), thin))
            serifs = [
                (x - 0.03, x + 0.2, 0.5),
                (x + w - 0.2, x + w + 0.03, 0.5),
                (x - 0.03, x + 0.2, -0.5),
                (x + w - 0.2, x + w + 0.03, -0.5),
            ]
        for a, b, v in serifs:
            v0 = v - serif if v > 0 else v
            polys.append([(a, v0), (b, v0), (b, v0 + serif), (a, v0 + serif)])
        x += w + gap
    return [[(u * height, v * height) for u, v in p] for p in polys]


# --- backgrounds ---------------------------------------------------------------------------


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


# --- metals --------------------------------------------------------------------------------


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


# --- watch parts ---------------------------------------------------------------------------


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


def hand_angles(w: Watch) -> tuple[float, float, float]:
    h, m, s = w.time
    return ((h % 12) + m / 60) * 30, (m + s / 60) * 6, s * 6


def _strap_half(w0: float, w1: float, d: float, taper: float) -> float:
    return (w0 + (w1 - w0) * min(1.0, d / taper)) / 2


def strap(sf: Surface, w: Watch, cx: float, y0: float, y1: float, width: float, r: float) -> None:
    """A strap or bracelet from y0 (at the case) to y1 (far end), drawn under the case."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    kind = w.strap
    metal = w.metal
    taper_to = 0.8 if kind in ("oyster", "jubilee", "leather", "rubber") else 0.72
    w1 = width * taper_to
    taper = 2.6 * r
    if kind == "integrated":
        taper = 1.6 * r

    def half(y: float) -> float:
        return _strap_half(width, w1, abs(y - y0), taper)

    # the width changes linearly up to ``taper`` and then stays: three rows of points suffice
    ys = [y0, y0 + sgn * taper, y1] if taper < length else [y0, y1]
    halves = [half(y) for y in ys]

    def column(f0: float, f1: float) -> Poly:
        left = [(cx + hw * f0, y) for y, hw in zip(ys, halves, strict=True)]
        right = [(cx + hw * f1, y) for y, hw in zip(reversed(ys), reversed(halves), strict=True)]
        return Poly(left + right)

    silhouette = column(-1, 1)
    if kind in ("leather", "rubber"):
        base = w.strap_color
        fill(
            sf,
            silhouette,
            linear(
                [
                    (0, darker(base, 0.45)),
                    (0.1, base),
                    (0.45, lighter(base, 0.1)),
                    (0.9, darker(base, 0.15)),
                    (1, darker(base, 0.5)),
                ],
                (cx - width / 2, 0),
                (cx + width / 2, 0),
            ),
            True,
        )
        if kind == "leather" and w.croc:
            _croc(sf, w, cx, y0, y1, half, r)
        if kind == "rubber":
            step = 0.22 * r
            y = y0 + sgn * 0.35 * r
            while abs(y - y0) < length:
                hw = half(y) * 0.62
                line(
                    sf, [(cx - hw, y), (cx + hw, y)], darker(base, 0.35), 0.05 * r, round_caps=True
                )
                line(
                    sf,
                    [(cx - hw, y + 0.03 * r), (cx + hw, y + 0.03 * r)],
                    alpha(lighter(base, 0.3), 90),
                    0.015 * r,
                )
                y += sgn * step
        if w.stitch:
            for f in (-0.86, 0.86):
                pts = [(cx + half(y) * f, y) for y in ys]
                dashed(sf, pts, w.stitch, 0.018 * r, 0.07 * r, 0.045 * r)
        # painted edge
        for f in (-1, 1):
            pts = [(cx + (half(y) - 0.012 * r) * f, y) for y in ys]
            line(sf, pts, alpha(darker(base, 0.6), 200), 0.02 * r)
        return

    # metal bracelets: dark gaps underneath, then columns of links
    fill(sf, silhouette, darker(metal.lo, 0.55), True)
    centre = w.accent or metal
    if kind == "oyster":
        cols = [(-1, -0.34, metal, 0.0), (-0.32, 0.32, centre, 0.5), (0.34, 1, metal, 0.0)]
        pitch = 0.42 * width
    elif kind == "jubilee":
        cols = [(-1, -0.48, metal, 0.0), (0.48, 1, metal, 0.0)]
        pitch = 0.36 * width
    else:  # integrated
        cols = [(-1, -0.2, metal, 0.0), (0.2, 1, metal, 0.0)]
        pitch = 0.36 * width
    gap = 0.02 * r
    for f0, f1, m, offset in cols:
        if offset:  # polished centre links: dark reflections, crisp highlights
            stops = [
                (0, m.lo),
                (0.22, m.hi),
                (0.4, m.mid),
                (0.62, mix(m.mid, m.lo, 0.5)),
                (0.8, m.hi),
                (1, m.lo),
            ]
        else:  # brushed outer links
            stops = [
                (0, m.lo),
                (0.18, mix(m.mid, m.lo, 0.3)),
                (0.42, m.mid),
                (0.55, mix(m.mid, m.hi, 0.6)),
                (0.7, m.mid),
                (1, m.lo),
            ]
        a, b = f0 + 0.012, f1 - 0.012
        for i, c in enumerate(ramp(stops, 20)):
            fill(sf, column(a + (b - a) * i / 20, a + (b - a) * (i + 1.2) / 20), c)
        # link joints across the column
        k = 0
        while True:
            d = (k + offset + 0.55) * pitch
            if d > length:
                break
            y = y0 + sgn * d
            hw = half(y)
            xa, xb = cx + hw * (f0 + 0.012), cx + hw * (f1 - 0.012)
            band_h = pitch * 0.22
            fill(
                sf,
                Poly([(xa, y), (xb, y), (xb, y - sgn * band_h), (xa, y - sgn * band_h)]),
                alpha(BLACK, 26),
            )
            fill(
                sf,
                Poly([(xa, y), (xb, y), (xb, y + sgn * band_h), (xa, y + sgn * band_h)]),
                alpha(WHITE, 30),
            )
            line(
                sf,
                [(xa, y - sgn * gap * 1.2), (xb, y - sgn * gap * 1.2)],
                alpha(BLACK, 70),
                gap * 1.2,
            )
            line(sf, [(xa, y), (xb, y)], darker(m.lo, 0.55), gap)
            line(
                sf,
                [(xa, y + sgn * gap * 1.1), (xb, y + sgn * gap * 1.1)],
                alpha(WHITE, 140),
                gap * 0.8,
            )
            k += 1
    if kind == "jubilee":
        _jubilee_centre(sf, centre, cx, y0, y1, half, pitch, r)
    if kind == "integrated":
        _integrated_centre(sf, centre, cx, y0, y1, half, pitch, r)


def _pill(sf: Surface, m: Metal, x0, y0, x1, y1) -> None:
    """A small polished link: rounded, lit from the upper left."""
    w, h = x1 - x0, y1 - y0
    rr = min(w, h) / 2
    fill(sf, RRect(x0, y0, x1, y1, rr), m.lo)
    fill(sf, RRect(x0 + w * 0.05, y0 + h * 0.05, x1 - w * 0.08, y1 - h * 0.16, rr * 0.9), m.mid)
    fill(
        sf,
        RRect(x0 + w * 0.16, y0 + h * 0.16, x0 + w * 0.62, y0 + h * 0.42, rr * 0.4),
        alpha(m.hi, 170),
    )


def _jubilee_centre(sf, m: Metal, cx, y0, y1, half, pitch, r) -> None:
    """Three columns of small staggered links between the outer links."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    small = pitch * 0.42
    ys = [y0, y1]
    fill(
        sf,
        Poly(
            [(cx - half(y) * 0.47, y) for y in ys]
            + [(cx + half(y) * 0.47, y) for y in reversed(ys)]
        ),
        darker(m.lo, 0.25),
    )
    k = -1
    while k * small < length:
        for j in range(3):
            yy = y0 + sgn * (k * small + small * (0.5 if j == 1 else 0.0) + small * 0.5)
            hw = half(yy) * 0.47
            cw = hw * 2 / 3
            xa = cx - hw + j * cw + cw * 0.03
            ya, yb = sorted((yy - small * 0.46, yy + small * 0.46))
            if small * 0.3 < sgn * (yy - y0) < length - small * 0.46:
                _pill(sf, m, xa, ya, xa + cw * 0.94, yb)
        k += 1


def _integrated_centre(sf, m: Metal, cx, y0, y1, half, pitch, r) -> None:
    """Brushed centre links with small polished links at each joint."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    ys = [y0 + sgn * length * i / 30 for i in range(31)]
    column = Poly(
        [(cx - half(y) * 0.19, y) for y in ys] + [(cx + half(y) * 0.19, y) for y in reversed(ys)]
    )
    fill(sf, column, m.across((cx - half(y0) * 0.19, 0), (cx + half(y0) * 0.19, 0)))
    k = 0
    while (k + 0.55) * pitch < length:
        y = y0 + sgn * (k + 0.55) * pitch
        hw = half(y) * 0.19
        ya, yb = sorted((y - pitch * 0.2, y + pitch * 0.2))
        fill(sf, RRect(cx - hw, ya - 0.01 * r, cx + hw, yb + 0.01 * r, 0.02 * r), darker(m.lo, 0.5))
        fill(
            sf,
            RRect(cx - hw * 0.9, ya, cx + hw * 0.9, yb, 0.02 * r),
            linear([(0, m.hi), (0.5, m.mid), (1, m.lo)], (cx - hw, ya), (cx + hw, yb)),
        )
        k += 1


def _croc(sf, w: Watch, cx, y0, y1, half, r) -> None:
    """Alligator-style scales: staggered rows of soft tiles."""
    sgn = 1 if y1 > y0 else -1
    length = abs(y1 - y0)
    shade = alpha(darker(w.strap_color, 0.5), 110)
    hi = alpha(lighter(w.strap_color, 0.18), 70)
    row = 0
    dist = 0.05 * r
    while dist < length:
        y = y0 + sgn * dist
        hw = half(y) * 0.86
        tall = (0.15, 0.12, 0.17, 0.11)[row % 4] * r
        if row % 2:
            cells = [(-1.0, -0.62), (-0.62, -0.2), (-0.2, 0.22), (0.22, 0.64), (0.64, 1.0)]
        else:
            cells = [
                (-1.0, -0.72),
                (-0.72, -0.36),
                (-0.36, 0.02),
                (0.02, 0.4),
                (0.4, 0.74),
                (0.74, 1.0),
            ]
        for a, b in cells:
            xa, xb = cx + hw * a, cx + hw * b
            ya, yb = sorted((y, y + sgn * tall))
            g = 0.014 * r
            fill(sf, RRect(xa + g, ya + g, xb - g, yb - g, 0.035 * r), shade)
            fill(sf, RRect(xa + 2.2 * g, ya + 2.2 * g, xb - 2.2 * g, yb - 2.6 * g, 0.03 * r), hi)
        dist += tall
        row += 1


def lugs(
    sf: Surface, m: Metal, cx: float, cy: float, r: float, strap_w: float, length: float = 1.2
) -> None:
    """Four lugs: brushed tops with a polished chamfer along the outer edge."""
    inner = strap_w / 2 + 0.008 * r
    tip = inner + 0.14 * r
    for sy in (-1, 1):
        for sx in (-1, 1):
            start = (cx + sx * 0.87 * r, cy + sy * 0.48 * r)
            end = (cx + sx * tip, cy + sy * (length - 0.05) * r)
            outer = bezier(start, (cx + sx * (tip + 0.05 * r), cy + sy * 0.92 * r), end, 16)
            cap = bezier(
                end,
                (cx + sx * tip, cy + sy * length * r),
                (cx + sx * (tip - 0.06 * r), cy + sy * length * r),
                6,
            )
            pts = (
                [(cx + sx * inner, cy + sy * 0.48 * r)]
                + outer
                + cap[1:]
                + [(cx + sx * inner, cy + sy * length * r)]
            )
            top = linear(
                [(0, mix(m.mid, m.lo, 0.5)), (0.5, m.mid), (1, mix(m.mid, m.lo, 0.3))],
                (cx + sx * tip, 0),
                (cx + sx * inner, 0),
            )
            fill(sf, Poly(pts), top, True)
            chamfer = (
                outer
                + [
                    (x - sx * 0.05 * r * (0.5 + 0.5 * i / len(outer)), y)
                    for i, (x, y) in enumerate(outer)
                ][::-1]
            )
            fill(
                sf,
                Poly(chamfer),
                linear(
                    [(0, m.hi), (0.5, m.hi), (1, m.mid)],
                    (0, cy + sy * 0.5 * r),
                    (0, cy + sy * length * r),
                ),
            )
            line(sf, outer, alpha(m.edge, 120), 0.01 * r)
            line(
                sf,
                [(cx + sx * inner, cy + sy * 0.5 * r), (cx + sx * inner, cy + sy * length * r)],
                alpha(m.edge, 170),
                0.01 * r,
            )
            line(sf, cap + [(cx + sx * inner, cy + sy * length * r)], alpha(m.edge, 140), 0.012 * r)


def crown(
    sf: Surface,
    w: Watch,
    cx: float,
    cy: float,
    r: float,
    big: bool = True,
    x_edge: float | None = None,
    side: int = 1,
) -> None:
    """The winding crown, on the right (side=1) or, for a watch seen from the back, the left."""
    m = w.accent or w.metal
    x_edge = cx + side * 0.96 * r if x_edge is None else x_edge
    h = (0.3 if big else 0.2) * r
    length = (0.17 if big else 0.12) * r

    def box(a: float, b: float, y0: float, y1: float, rad: float = 0.0) -> RRect:
        xa, xb = sorted((x_edge + side * a, x_edge + side * b))
        return RRect(xa, y0, xb, y1, rad)

    fill(
        sf,
        box(-0.04 * r, 0.05 * r, cy - 0.055 * r, cy + 0.055 * r),
        m.across((0, cy - 0.055 * r), (0, cy + 0.055 * r)),
        True,
    )
    a0, a1 = 0.03 * r, 0.03 * r + length
    fill(
        sf,
        box(a0, a1, cy - h / 2, cy + h / 2, 0.035 * r),
        m.across((0, cy - h / 2), (0, cy + h / 2)),
        True,
    )
    n = 9 if big else 7
    for i in range(1, n):
        y = cy - h / 2 + h * i / n
        line(
            sf,
            [(x_edge + side * (a0 + 0.02 * r), y), (x_edge + side * (a1 - 0.015 * r), y)],
            alpha(m.edge, 150),
            0.012 * r,
        )
    fill(
        sf,
        box(a1 - 0.025 * r, a1 - 0.005 * r, cy - h / 2 + 0.02 * r, cy + h / 2 - 0.02 * r, 0.01 * r),
        alpha(m.hi, 120),
    )


def crown_guard(sf: Surface, m: Metal, cx, cy, r) -> None:
    pts = arc_points(cx, cy, 0.97 * r, 118, 62)
    pts += bezier(
        polar(cx, cy, 0.97 * r, 62),
        (cx + 1.08 * r, cy - 0.42 * r),
        (cx + 1.09 * r, cy - 0.17 * r),
        8,
    )
    pts += [(cx + 1.09 * r, cy + 0.17 * r)]
    pts += bezier(
        (cx + 1.09 * r, cy + 0.17 * r),
        (cx + 1.08 * r, cy + 0.42 * r),
        polar(cx, cy, 0.97 * r, 118),
        8,
    )
    fill(sf, Poly(pts), m.across((cx + 1.1 * r, cy - 0.5 * r), (cx + 0.9 * r, cy + 0.5 * r)), True)


def pushers(sf: Surface, m: Metal, cx, cy, r) -> None:
    for ang in (58, 122):
        tf = frame(cx, cy, ang)
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.07 * r, 0.9 * r),
                    (0.07 * r, 0.9 * r),
                    (0.07 * r, 1.06 * r),
                    (-0.07 * r, 1.06 * r),
                ],
            ),
            m.mid,
            True,
        )
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.1 * r, 1.04 * r),
                    (0.1 * r, 1.04 * r),
                    (0.1 * r, 1.14 * r),
                    (-0.1 * r, 1.14 * r),
                ],
            ),
            m.across(tf(-0.1 * r, 1.1 * r), tf(0.1 * r, 1.1 * r)),
            True,
        )
        line(sf, [tf(-0.08 * r, 1.13 * r), tf(0.08 * r, 1.13 * r)], alpha(m.hi, 180), 0.015 * r)


def case_body(sf: Surface, m: Metal, cx, cy, r) -> None:
    fill(sf, Circle(cx, cy, r), m.ring(cx, cy), True)
    fill(sf, Ring(cx, cy, r, r - 0.012 * r), alpha(m.edge, 170))
    arc(sf, cx, cy, r - 0.03 * r, 250, 340, alpha(WHITE, 130), 0.018 * r)


def bezel(sf: Surface, w: Watch, cx: float, cy: float, r: float) -> float:
    """Draw the bezel; return the radius of the crystal opening inside it."""
    m = w.accent or w.metal
    kind = w.bezel
    if kind == "diver":
        fill(sf, Circle(cx, cy, 0.965 * r), m.ring(cx, cy))
        for i in range(120):
            a = i * 3
            tf = frame(cx, cy, a)
            fill(
                sf,
                local_poly(
                    tf,
                    [
                        (-0.011 * r, 0.9 * r),
                        (0.011 * r, 0.9 * r),
                        (0.008 * r, 0.962 * r),
                        (-0.008 * r, 0.962 * r),
                    ],
                ),
                alpha(m.edge, 110),
            )
        ro, ri = 0.905 * r, 0.735 * r
        c = w.bezel_color
        fill(
            sf,
            Ring(cx, cy, ro, ri),
            sheen([(0, lighter(c, 0.22)), (0.5, c), (1, darker(c, 0.35))], cx, cy, 315, 1),
        )
        fill(sf, Ring(cx, cy, ro, ro - 0.01 * r), alpha(BLACK, 120))
        mk = w.bezel_marks
        for i in range(60):
            if i == 0:
                continue
            tf = frame(cx, cy, i * 6)
            if i % 10 == 0:
                text(
                    sf,
                    *tf(0, 0.82 * r),
                    str(i),
                    0.1 * r,
                    mk,
                    angle=i * 6 if i <= 30 else i * 6,
                    weight=0.004 * r,
                )
            elif i % 5 == 0:
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (-0.026 * r, 0.765 * r),
                            (0.026 * r, 0.765 * r),
                            (0.026 * r, 0.875 * r),
                            (-0.026 * r, 0.875 * r),
                        ],
                    ),
                    mk,
                )
            elif i < 15:
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (-0.008 * r, 0.8 * r),
                            (0.008 * r, 0.8 * r),
                            (0.008 * r, 0.87 * r),
                            (-0.008 * r, 0.87 * r),
                        ],
                    ),
                    mk,
                )
        tf = frame(cx, cy, 0)
        fill(
            sf, local_poly(tf, [(-0.075 * r, 0.89 * r), (0.075 * r, 0.89 * r), (0, 0.765 * r)]), mk
        )
        fill(sf, Circle(*tf(0, 0.845 * r), 0.028 * r), darker(mk, 0.25))
        fill(sf, Circle(*tf(0, 0.845 * r), 0.022 * r), w.lume)
        inner = 0.735 * r
    elif kind == "tachymeter":
        fill(sf, Circle(cx, cy, 0.96 * r), m.ring(cx, cy))
        c = w.bezel_color
        ro, ri = 0.93 * r, 0.77 * r
        fill(
            sf,
            Ring(cx, cy, ro, ri),
            sheen([(0, lighter(c, 0.18)), (0.5, c), (1, darker(c, 0.3))], cx, cy, 315, 1),
        )
        mk = w.bezel_marks
        for speed in range(60, 520, 10):
            secs = 3600 / speed
            if secs > 60:
                continue
            a = secs * 6
            tf = frame(cx, cy, a)
            big = speed in (60, 70, 80, 90, 100, 120, 150, 200, 300, 500)
            fill(
                sf,
                local_poly(
                    tf,
                    [
                        (-0.006 * r, 0.88 * r),
                        (0.006 * r, 0.88 * r),
                        (0.006 * r, (0.925 if big else 0.91) * r),
                        (-0.006 * r, (0.925 if big else 0.91) * r),
                    ],
                ),
                mk,
            )
            if big:
                text(sf, *tf(0, 0.82 * r), str(speed), 0.065 * r, mk, angle=a, weight=0.002 * r)
        fill(sf, Circle(*polar(cx, cy, 0.85 * r, 0), 0.022 * r), mk)
        inner = 0.77 * r
    elif kind == "fluted":
        ro, ri = 0.97 * r, 0.78 * r
        fill(sf, Ring(cx, cy, ro, ri), m.ring(cx, cy))
        n = 64
        for i in range(n):
            a0 = i * 360 / n
            a1 = a0 + 360 / n
            lit = 0.5 + 0.5 * math.cos(math.radians(a0 - 315))
            fill(
                sf,
                band(cx, cy, ro - 0.01 * r, ri + 0.01 * r, a0, a0 + 360 / n * 0.45),
                alpha(WHITE, 40 + 130 * lit),
            )
            fill(
                sf,
                band(cx, cy, ro - 0.01 * r, ri + 0.01 * r, a0 + 360 / n * 0.55, a1),
                alpha(darker(m.lo, 0.4), 60 + 120 * (1 - lit)),
            )
        fill(sf, Ring(cx, cy, ri + 0.012 * r, ri), alpha(m.edge, 160))
        inner = ri
    elif kind == "smooth":
        fill(sf, Ring(cx, cy, 0.965 * r, 0.84 * r), m.polished(cx, cy, 315, 2))
        arc(sf, cx, cy, 0.93 * r, 260, 340, alpha(WHITE, 150), 0.02 * r)
        fill(sf, Ring(cx, cy, 0.85 * r, 0.84 * r), alpha(m.edge, 150))
        inner = 0.84 * r
    else:  # thin
        fill(sf, Ring(cx, cy, 0.97 * r, 0.9 * r), m.polished(cx, cy, 315, 2))
        fill(sf, Ring(cx, cy, 0.91 * r, 0.9 * r), alpha(m.edge, 170))
        inner = 0.9 * r
    return inner


def dial_base(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    c = w.dial
    if w.texture == "sunburst":
        fill(
            sf,
            Circle(cx, cy, rd),
            sheen([(0, lighter(c, 0.2)), (0.5, c), (1, darker(c, 0.3))], cx, cy, 315, 2),
        )
        for i in range(180):
            a = i * 2
            tf = frame(cx, cy, a)
            shade = alpha(WHITE, 9) if i % 2 else alpha(BLACK, 12)
            fill(sf, local_poly(tf, [(0, 0.05 * rd), (-0.01 * rd, rd), (0.01 * rd, rd)]), shade)
    elif w.texture == "grid":
        fill(
            sf,
            Circle(cx, cy, rd),
            sheen([(0, lighter(c, 0.18)), (0.5, c), (1, darker(c, 0.25))], cx, cy, 315, 1),
        )
        cell = rd * 0.09
        with clip(sf, Circle(cx, cy, rd)) as sub:
            n = int(rd / cell) + 2
            for j in range(-n, n + 1):
                for i in range(-n, n + 1):
                    x0, y0 = cx + i * cell, cy + j * cell
                    g = 0.11 * cell
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + g, y0 + g),
                                (x0 + cell - g, y0 + g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(WHITE, 38),
                    )
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + g, y0 + g),
                                (x0 + g, y0 + cell - g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(WHITE, 18),
                    )
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + cell - g, y0 + g),
                                (x0 + cell - g, y0 + cell - g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(BLACK, 40),
                    )
                    fill(
                        sub,
                        Poly(
                            [
                                (x0 + g, y0 + cell - g),
                                (x0 + cell - g, y0 + cell - g),
                                (x0 + cell / 2, y0 + cell / 2),
                            ]
                        ),
                        alpha(BLACK, 60),
                    )
    elif w.texture == "rings":
        fill(
            sf,
            Circle(cx, cy, rd),
            radial([lighter(c, 0.1), c, darker(c, 0.08)], cx - 0.2 * rd, cy - 0.3 * rd, rd * 1.5),
        )
        k = 0
        rr = rd * 0.98
        while rr > rd * 0.05:
            fill(sf, Ring(cx, cy, rr, rr - rd * 0.006), alpha(BLACK if k % 2 else WHITE, 16))
            rr -= rd * 0.03
            k += 1
    else:
        fill(
            sf,
            Circle(cx, cy, rd),
            radial(
                [lighter(c, 0.12), c, darker(c, 0.12)], cx - 0.25 * rd, cy - 0.35 * rd, rd * 1.6
            ),
        )


def minute_track(sf: Surface, color, cx, cy, rd, inner=0.93, five_wide=True) -> None:
    for i in range(60):
        tf = frame(cx, cy, i * 6)
        wide = five_wide and i % 5 == 0
        hw = (0.011 if wide else 0.005) * rd
        fill(
            sf,
            local_poly(
                tf, [(-hw, inner * rd), (hw, inner * rd), (hw, 0.985 * rd), (-hw, 0.985 * rd)]
            ),
            color,
        )


def indices(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    kind = w.indices
    m = w.index_metal
    if kind == "diver":
        for h in range(12):
            a = h * 30
            tf = frame(cx, cy, a)
            if h == 3 and w.date:
                continue
            if h == 0:
                outer = local_poly(
                    tf, [(-0.12 * rd, 0.92 * rd), (0.12 * rd, 0.92 * rd), (0, 0.68 * rd)]
                )
                inner = local_poly(
                    tf, [(-0.09 * rd, 0.9 * rd), (0.09 * rd, 0.9 * rd), (0, 0.72 * rd)]
                )
            elif h in (3, 6, 9):
                outer = local_poly(
                    tf,
                    [
                        (-0.055 * rd, 0.66 * rd),
                        (0.055 * rd, 0.66 * rd),
                        (0.055 * rd, 0.92 * rd),
                        (-0.055 * rd, 0.92 * rd),
                    ],
                )
                inner = local_poly(
                    tf,
                    [
                        (-0.035 * rd, 0.68 * rd),
                        (0.035 * rd, 0.68 * rd),
                        (0.035 * rd, 0.9 * rd),
                        (-0.035 * rd, 0.9 * rd),
                    ],
                )
            else:
                p = tf(0, 0.82 * rd)
                outer = Circle(p[0], p[1], 0.085 * rd)
                inner = Circle(p[0], p[1], 0.066 * rd)
            fill(sf, shifted(outer, 0.006 * rd, 0.014 * rd), alpha(BLACK, 80))
            fill(sf, outer, mix(m.mid, m.hi, 0.5))
            fill(sf, inner, w.lume)
    elif kind in ("baton", "applied"):
        for h in range(12):
            if h == 3 and w.date:
                continue
            if w.chrono and h in (3, 6, 9):
                continue
            a = h * 30
            tf = frame(cx, cy, a)
            offsets = (-0.035, 0.035) if h == 0 else (0.0,)
            r_in = 0.7 if h % 3 == 0 else 0.74
            for off in offsets:
                hw = 0.024 * rd
                u = off * rd
                pts = [
                    (u - hw, r_in * rd),
                    (u + hw, r_in * rd),
                    (u + hw, 0.9 * rd),
                    (u - hw, 0.9 * rd),
                ]
                poly = local_poly(tf, pts)
                fill(sf, shifted(poly, 0.005 * rd, 0.012 * rd), alpha(BLACK, 70))
                fill(sf, poly, m.lo)
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (u - hw, r_in * rd),
                            (u, r_in * rd + hw),
                            (u, 0.9 * rd - hw),
                            (u - hw, 0.9 * rd),
                        ],
                    ),
                    m.hi,
                )
                fill(
                    sf,
                    local_poly(
                        tf,
                        [
                            (u, r_in * rd + hw),
                            (u + hw * 0.2, r_in * rd + hw),
                            (u + hw * 0.2, 0.9 * rd - hw),
                            (u, 0.9 * rd - hw),
                        ],
                    ),
                    m.mid,
                )
                if w.hand_fill and w.strap != "leather":
                    fill(
                        sf,
                        local_poly(
                            tf,
                            [
                                (u - hw * 0.35, (r_in + 0.03) * rd),
                                (u + hw * 0.35, (r_in + 0.03) * rd),
                                (u + hw * 0.35, 0.87 * rd),
                                (u - hw * 0.35, 0.87 * rd),
                            ],
                        ),
                        w.lume,
                    )
    elif kind == "pilot":
        for h in range(12):
            a = h * 30
            tf = frame(cx, cy, a)
            if h == 0:
                fill(
                    sf,
                    local_poly(tf, [(-0.1 * rd, 0.9 * rd), (0.1 * rd, 0.9 * rd), (0, 0.7 * rd)]),
                    w.lume,
                )
                for u in (-0.16, 0.16):
                    fill(sf, Circle(*tf(u * rd, 0.86 * rd), 0.028 * rd), w.lume)
                continue
            if h == 3 and w.date:
                continue
            x, y = tf(0, 0.74 * rd)
            text(sf, x, y, str(h), 0.2 * rd, w.lume, weight=0.008 * rd)
    elif kind == "roman":
        for h in range(12):
            tf = frame(cx, cy, h * 30)
            num = ["XII", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI"][
                h
            ].replace("IX", "VIIII")
            for p in roman_polys(num, 0.16 * rd):
                fill(sf, local_poly(tf, [(u, v + 0.76 * rd) for u, v in p]), w.track or INK)


def date_window(sf: Surface, w: Watch, cx: float, cy: float, rd: float, day: str = "18") -> None:
    x = cx + 0.74 * rd
    hw, hh = 0.12 * rd, 0.095 * rd
    fill(
        sf,
        RRect(
            x - hw - 0.02 * rd,
            cy - hh - 0.02 * rd,
            x + hw + 0.02 * rd,
            cy + hh + 0.02 * rd,
            0.015 * rd,
        ),
        w.index_metal.polished(x, cy),
    )
    fill(sf, RRect(x - hw, cy - hh, x + hw, cy + hh, 0.01 * rd), (246, 245, 240))
    fill(sf, RRect(x - hw, cy - hh, x + hw, cy - hh + 0.03 * rd), alpha(BLACK, 40))
    text(sf, x, cy, day, 0.13 * rd, INK, weight=0.003 * rd)
    if w.cyclops:
        cw, ch = 0.2 * rd, 0.15 * rd
        rim = RRect(x - cw, cy - ch, x + cw, cy + ch, 0.05 * rd)
        lens = RRect(
            x - cw + 0.012 * rd,
            cy - ch + 0.012 * rd,
            x + cw - 0.012 * rd,
            cy + ch - 0.012 * rd,
            0.04 * rd,
        )
        soft(sf, rim, BLACK, 0.02 * rd, 0.35, (0.01 * rd, 0.02 * rd))
        fill(sf, rim, (214, 218, 222))
        fill(sf, lens, (250, 250, 246))
        text(sf, x, cy, day, 0.2 * rd, INK, weight=0.005 * rd)
        fill(
            sf,
            lens,
            linear(
                [
                    (0, alpha(WHITE, 150)),
                    (0.35, alpha(WHITE, 0)),
                    (0.8, alpha(BLACK, 0)),
                    (1, alpha(BLACK, 60)),
                ],
                (x, cy - ch),
                (x, cy + ch),
            ),
        )


def subdials(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    for ang, val in ((90, 0.3), (180, 0.55), (270, 0.8)):
        x, y = polar(cx, cy, 0.46 * rd, ang)
        sr = 0.25 * rd
        c = w.subdial
        fill(
            sf,
            Circle(x, y, sr + 0.02 * rd),
            darker(w.dial, 0.3) if sum(c) > 380 else lighter(w.dial, 0.2),
        )
        fill(
            sf,
            Circle(x, y, sr),
            radial([lighter(c, 0.08), c, darker(c, 0.1)], x - sr * 0.3, y - sr * 0.3, sr * 1.6),
        )
        rr = sr * 0.95
        while rr > sr * 0.15:
            fill(sf, Ring(x, y, rr, rr - sr * 0.012), alpha(BLACK, 14))
            rr -= sr * 0.06
        ink = INK if sum(c) > 380 else (236, 236, 236)
        for i in range(30):
            tf = frame(x, y, i * 12)
            long = i % 5 == 0
            hw = (0.025 if long else 0.012) * sr
            fill(
                sf,
                local_poly(
                    tf,
                    [
                        (-hw, (0.72 if long else 0.8) * sr),
                        (hw, (0.72 if long else 0.8) * sr),
                        (hw, 0.95 * sr),
                        (-hw, 0.95 * sr),
                    ],
                ),
                ink,
            )
        tf = frame(x, y, val * 360)
        hand = local_poly(
            tf,
            [
                (-0.04 * sr, -0.15 * sr),
                (0.04 * sr, -0.15 * sr),
                (0.015 * sr, 0.85 * sr),
                (-0.015 * sr, 0.85 * sr),
            ],
        )
        soft(sf, hand, BLACK, 0.02 * sr, 0.4, (0.02 * sr, 0.04 * sr))
        fill(sf, hand, ink if sum(c) > 380 else (240, 240, 240))
        fill(sf, Circle(x, y, 0.07 * sr), w.hand_metal.mid)


def _hand_shapes(kind: str, length: float, width: float) -> tuple[list[Point], list[Point] | None]:
    """Outline and inner (lume) polygon of a hand pointing along +v."""
    L, W = length, width
    if kind == "sword":
        outer = [
            (-W * 0.2, -0.1 * L),
            (W * 0.2, -0.1 * L),
            (W * 0.5, 0.7 * L),
            (0, L),
            (-W * 0.5, 0.7 * L),
        ]
        inner = [
            (-W * 0.08, 0.25 * L),
            (W * 0.08, 0.25 * L),
            (W * 0.33, 0.7 * L),
            (0, 0.93 * L),
            (-W * 0.33, 0.7 * L),
        ]
    elif kind == "baton":
        outer = [
            (-W * 0.5, -0.12 * L),
            (W * 0.5, -0.12 * L),
            (W * 0.5, 0.92 * L),
            (0, L),
            (-W * 0.5, 0.92 * L),
        ]
        inner = [
            (-W * 0.25, 0.3 * L),
            (W * 0.25, 0.3 * L),
            (W * 0.25, 0.9 * L),
            (0, 0.95 * L),
            (-W * 0.25, 0.9 * L),
        ]
    elif kind == "pilot":
        outer = [
            (-W * 0.25, -0.1 * L),
            (W * 0.25, -0.1 * L),
            (W * 0.5, 0.55 * L),
            (0, L),
            (-W * 0.5, 0.55 * L),
        ]
        inner = [
            (-W * 0.1, 0.2 * L),
            (W * 0.1, 0.2 * L),
            (W * 0.34, 0.55 * L),
            (0, 0.9 * L),
            (-W * 0.34, 0.55 * L),
        ]
    elif kind == "leaf":
        outer = [
            (-W * 0.12, -0.08 * L),
            (W * 0.12, -0.08 * L),
            (W * 0.5, 0.45 * L),
            (W * 0.3, 0.8 * L),
            (0, L),
            (-W * 0.3, 0.8 * L),
            (-W * 0.5, 0.45 * L),
        ]
        inner = None
    else:  # dauphine
        outer = [(0, -0.1 * L), (W * 0.5, 0.15 * L), (0, L), (-W * 0.5, 0.15 * L)]
        inner = None
    return outer, inner


def hands(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    ha, ma, sa = hand_angles(w)
    m = w.hand_metal
    specs = [
        (ha, 0.56 * rd, 0.12 * rd if w.hands in ("sword", "pilot") else 0.075 * rd),
        (ma, 0.88 * rd, 0.09 * rd if w.hands in ("sword", "pilot") else 0.06 * rd),
    ]
    if w.hands in ("dauphine", "leaf"):
        specs = [(ha, 0.58 * rd, 0.1 * rd), (ma, 0.9 * rd, 0.08 * rd)]
    for ang, length, width in specs:
        tf = frame(cx, cy, ang)
        outer, inner = _hand_shapes(w.hands, length, width)
        soft(sf, local_poly(tf, outer), BLACK, 0.02 * rd, 0.5, (0.025 * rd, 0.045 * rd))
        if w.hands == "dauphine":
            fill(
                sf,
                local_poly(tf, [(0, -0.1 * length), (0, length), (-width * 0.5, 0.15 * length)]),
                m.hi,
            )
            fill(
                sf,
                local_poly(tf, [(0, -0.1 * length), (width * 0.5, 0.15 * length), (0, length)]),
                m.lo,
            )
            outline(sf, local_poly(tf, outer).pts, alpha(m.edge, 120), 0.005 * rd)
        else:
            fill(
                sf,
                local_poly(tf, outer),
                m.mid,
            )
            if inner and w.hand_fill:
                fill(sf, local_poly(tf, inner), w.hand_fill)
            elif m is not BLUE_STEEL:
                half = [(0, p[1]) if p[0] > 0 else p for p in outer]
                fill(sf, local_poly(tf, half), alpha(m.hi, 140))
            outline(sf, local_poly(tf, outer).pts, alpha(m.edge, 150), 0.006 * rd)
    if w.seconds:
        tf = frame(cx, cy, sa)
        shape = local_poly(
            tf,
            [
                (-0.012 * rd, -0.25 * rd),
                (0.012 * rd, -0.25 * rd),
                (0.006 * rd, 0.95 * rd),
                (-0.006 * rd, 0.95 * rd),
            ],
        )
        soft(sf, shape, BLACK, 0.015 * rd, 0.45, (0.03 * rd, 0.055 * rd))
        fill(sf, shape, w.seconds)
        if w.indices in ("diver", "pilot"):
            p = tf(0, 0.64 * rd)
            fill(sf, Circle(p[0], p[1], 0.045 * rd), w.seconds)
            fill(sf, Circle(p[0], p[1], 0.032 * rd), w.lume)
        p = tf(0, -0.2 * rd)
        fill(sf, Circle(p[0], p[1], 0.03 * rd), w.seconds)
    fill(sf, Circle(cx, cy, 0.045 * rd), m.polished(cx, cy))
    fill(sf, Circle(cx, cy, 0.018 * rd), darker(m.lo, 0.3))


def crystal(sf: Surface, cx: float, cy: float, rc: float, strength: float = 1.0) -> None:
    """Reflections on the glass: a soft upper-left glow and highlights along the rim."""
    with clip(sf, Circle(cx, cy, rc)) as sub:
        soft(
            sub,
            Poly(
                [
                    (cx - 1.3 * rc, cy + 0.05 * rc),
                    (cx + 0.1 * rc, cy - 1.3 * rc),
                    (cx + 0.45 * rc, cy - 1.05 * rc),
                    (cx - 1.0 * rc, cy + 0.35 * rc),
                ]
            ),
            WHITE,
            0.12 * rc,
            0.09 * strength,
        )
    arc(sf, cx, cy, rc * 0.975, 275, 345, alpha(WHITE, 130 * strength), 0.012 * rc)
    arc(sf, cx, cy, rc * 0.975, 255, 275, alpha(WHITE, 60 * strength), 0.01 * rc)
    arc(sf, cx, cy, rc * 0.975, 95, 175, alpha(WHITE, 45 * strength), 0.008 * rc)
    fill(sf, Ring(cx, cy, rc, rc - 0.012 * rc), alpha(BLACK, 110))


# --- whole watches -------------------------------------------------------------------------


def round_watch(
    sf: Surface, w: Watch, cx: float, cy: float, r: float, reach: tuple[float, float]
) -> None:
    """A round watch seen from above; reach = strap length (up, down) from the centre."""
    m = w.metal
    integrated = w.strap == "integrated"
    sw = r * (1.4 if integrated else w.lug_ratio)
    strap(sf, w, cx, cy - (0.6 if integrated else 0.9) * r, cy - reach[0], sw, r)
    strap(sf, w, cx, cy + (0.6 if integrated else 0.9) * r, cy + reach[1], sw, r)
    if integrated:
        for sy in (-1, 1):
            pts = [
                (cx - 0.84 * r, cy + sy * 0.4 * r),
                (cx - 0.72 * r, cy + sy * 1.02 * r),
                (cx + 0.72 * r, cy + sy * 1.02 * r),
                (cx + 0.84 * r, cy + sy * 0.4 * r),
            ]
            fill(sf, Poly(pts), m.across((cx - 0.8 * r, 0), (cx + 0.8 * r, 0)), True)
            for sx in (-1, 1):
                line(
                    sf,
                    [
                        (cx + sx * 0.84 * r, cy + sy * 0.4 * r),
                        (cx + sx * 0.72 * r, cy + sy * 1.02 * r),
                    ],
                    alpha(m.hi, 200),
                    0.02 * r,
                )
            line(sf, [pts[1], pts[2]], alpha(m.edge, 200), 0.015 * r)
    else:
        soft(sf, Circle(cx, cy, r), BLACK, 0.05 * r, 0.6, (0.01 * r, 0.03 * r))
        lugs(sf, m, cx, cy, r, sw)
    if w.chrono:
        pushers(sf, m, cx, cy, r)
    if w.crown_guard:
        crown_guard(sf, m, cx, cy, r)
    crown(
        sf,
        w,
        cx,
        cy,
        r,
        big=w.crown_guard or w.chrono or w.indices == "pilot",
        x_edge=cx + (1.06 if w.crown_guard else 0.96) * r,
    )
    if w.bezel == "octagon":
        octagon_case(sf, w, cx, cy, r)
        rc = 0.7 * r
    else:
        case_body(sf, m, cx, cy, r)
        rc = bezel(sf, w, cx, cy, r)
    rd = rc * (0.96 if w.bezel in ("diver", "tachymeter") else 0.985)
    fill(sf, Circle(cx, cy, rc), darker(w.dial, 0.5))
    dial_face(sf, w, cx, cy, rd)
    crystal(sf, cx, cy, rc, w.dome)


def dial_face(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    dial_base(sf, w, cx, cy, rd)
    if w.indices == "journe":
        journe_dial(sf, w, cx, cy, rd)
        return
    if w.track:
        minute_track(sf, w.track, cx, cy, rd, 0.94 if w.indices != "roman" else 0.95)
    if w.chrono:
        subdials(sf, w, cx, cy, rd)
    if w.date:
        date_window(sf, w, cx, cy, rd)
    indices(sf, w, cx, cy, rd)
    hands(sf, w, cx, cy, rd)


def journe_dial(sf: Surface, w: Watch, cx: float, cy: float, rd: float) -> None:
    """Off-centre hours and minutes, small seconds and a power-reserve arc."""
    ink = (40, 42, 48)
    c = w.dial
    # power reserve
    px, py = polar(cx, cy, 0.4 * rd, 298)
    pr = 0.3 * rd
    for i in range(11):
        tf = frame(px, py, 248 + 10 * i)
        ln = 0.07 if i % 5 == 0 else 0.04
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.006 * rd, pr - ln * rd),
                    (0.006 * rd, pr - ln * rd),
                    (0.006 * rd, pr),
                    (-0.006 * rd, pr),
                ],
            ),
            ink,
        )
    arc(sf, px, py, pr + 0.012 * rd, 248, 348, ink, 0.006 * rd)
    arc(sf, px, py, pr + 0.035 * rd, 248, 268, (190, 40, 40), 0.014 * rd)
    # small seconds
    sx, sy = polar(cx, cy, 0.5 * rd, 222)
    sr = 0.3 * rd
    fill(sf, Circle(sx, sy, sr + 0.015 * rd), darker(c, 0.12))
    fill(
        sf,
        Circle(sx, sy, sr),
        radial([lighter(c, 0.12), c], sx - sr * 0.3, sy - sr * 0.3, sr * 1.5),
    )
    rr = sr * 0.9
    while rr > sr * 0.1:
        fill(sf, Ring(sx, sy, rr, rr - sr * 0.02), alpha(BLACK, 16))
        rr -= sr * 0.08
    for i in range(60):
        tf = frame(sx, sy, i * 6)
        ln = 0.16 if i % 10 == 0 else 0.08
        hw = 0.014 if i % 10 == 0 else 0.008
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-hw * sr, (0.96 - ln) * sr),
                    (hw * sr, (0.96 - ln) * sr),
                    (hw * sr, 0.96 * sr),
                    (-hw * sr, 0.96 * sr),
                ],
            ),
            ink,
        )
    # hours and minutes
    hx, hy = polar(cx, cy, 0.28 * rd, 62)
    hr = 0.62 * rd
    soft(sf, Circle(hx, hy, hr), BLACK, 0.02 * rd, 0.25, (0.01 * rd, 0.02 * rd))
    fill(sf, Circle(hx, hy, hr + 0.015 * rd), darker(c, 0.15))
    fill(
        sf,
        Circle(hx, hy, hr),
        radial([lighter(c, 0.2), c, darker(c, 0.04)], hx - hr * 0.3, hy - hr * 0.4, hr * 1.6),
    )
    for i in range(60):
        tf = frame(hx, hy, i * 6)
        hw = 0.006 * rd
        fill(
            sf,
            local_poly(tf, [(-hw, 0.9 * hr), (hw, 0.9 * hr), (hw, 0.97 * hr), (-hw, 0.97 * hr)]),
            ink,
        )
    for h in range(1, 13):
        x, y = polar(hx, hy, 0.74 * hr, h * 30)
        text(sf, x, y, str(h), 0.14 * hr, ink, weight=0.002 * rd)
    hands(sf, replace(w, seconds=None), hx, hy, hr * 0.9)
    tf = frame(sx, sy, w.time[2] * 6)
    hand = local_poly(
        tf,
        [
            (-0.025 * sr, -0.2 * sr),
            (0.025 * sr, -0.2 * sr),
            (0.01 * sr, 0.9 * sr),
            (-0.01 * sr, 0.9 * sr),
        ],
    )
    soft(sf, hand, BLACK, 0.02 * sr, 0.4, (0.02 * sr, 0.04 * sr))
    fill(sf, hand, w.hand_metal.mid)
    fill(sf, Circle(sx, sy, 0.06 * sr), w.hand_metal.mid)
    tf = frame(px, py, 322)
    hand = local_poly(
        tf,
        [
            (-0.014 * rd, -0.04 * rd),
            (0.014 * rd, -0.04 * rd),
            (0.004 * rd, pr * 0.95),
            (-0.004 * rd, pr * 0.95),
        ],
    )
    soft(sf, hand, BLACK, 0.01 * rd, 0.4, (0.01 * rd, 0.02 * rd))
    fill(sf, hand, w.hand_metal.mid)
    fill(sf, Circle(px, py, 0.028 * rd), w.hand_metal.mid)


def octagon_case(sf: Surface, w: Watch, cx: float, cy: float, r: float) -> None:
    m = w.metal
    fill(sf, Circle(cx, cy, 0.99 * r), m.polished(cx, cy, 315, 2), True)
    fill(sf, Ring(cx, cy, 0.99 * r, 0.975 * r), alpha(m.edge, 150))
    oct_pts = [polar(cx, cy, 0.97 * r, 22.5 + 45 * i) for i in range(8)]
    soft(sf, Poly(oct_pts), BLACK, 0.015 * r, 0.6)
    soft(sf, Poly(oct_pts), BLACK, 0.04 * r, 0.5, (0.01 * r, 0.03 * r))
    fill(sf, Poly(oct_pts), linear([m.hi, m.mid, m.lo], (cx - r, cy - r), (cx + r, cy + r)))
    inner = [polar(cx, cy, 0.87 * r, 22.5 + 45 * i) for i in range(8)]
    fill(sf, Poly(inner), m.polished(cx, cy, 300, 2))
    for i in range(8):
        a, b = oct_pts[i], oct_pts[(i + 1) % 8]
        c, d = inner[(i + 1) % 8], inner[i]
        mid_a = 22.5 + 45 * i + 22.5
        lit = 0.5 + 0.5 * math.cos(math.radians(mid_a - 315))
        fill(
            sf,
            Poly([a, b, c, d]),
            alpha(WHITE if lit > 0.5 else BLACK, 40 + 80 * abs(lit - 0.5) * 2),
        )
    for i in range(8):
        x, y = polar(cx, cy, 0.885 * r, 22.5 + 45 * i)
        hexa = [polar(x, y, 0.045 * r, 30 + 60 * k) for k in range(6)]
        fill(sf, Circle(x, y, 0.055 * r), alpha(BLACK, 90))
        fill(sf, Poly(hexa), WHITE_GOLD.polished(x, y))
        line(
            sf,
            [polar(x, y, 0.03 * r, 20 + 45 * i), polar(x, y, 0.03 * r, 200 + 45 * i)],
            alpha(m.edge, 220),
            0.012 * r,
        )
    fill(sf, Circle(cx, cy, 0.72 * r), darker(m.lo, 0.4))
    fill(sf, Ring(cx, cy, 0.72 * r, 0.7 * r), m.mid)


def tonneau_watch(
    sf: Surface,
    w: Watch,
    cx: float,
    cy: float,
    r: float,
    reach: tuple[float, float],
    accent=(226, 44, 52),
) -> None:
    """A barrel-shaped, skeletonised sports watch on a rubber strap."""
    a, b = 0.86 * r, 1.08 * r
    m = w.metal
    sw = 1.3 * a
    strap(sf, replace(w, strap="rubber"), cx, cy - 0.8 * b, cy - reach[0], sw, r)
    strap(sf, replace(w, strap="rubber"), cx, cy + 0.8 * b, cy + reach[1], sw, r)
    crown(sf, w, cx, cy, r, big=True, x_edge=cx + 0.97 * a)
    for yy in (-0.42, 0.42):
        fill(
            sf,
            RRect(
                cx + 0.88 * a,
                cy + yy * b - 0.06 * r,
                cx + 1.12 * a,
                cy + yy * b + 0.06 * r,
                0.02 * r,
            ),
            m.across((0, cy + yy * b - 0.06 * r), (0, cy + yy * b + 0.06 * r)),
            True,
        )
    outer = Poly(superellipse(cx, cy, a, b, 3.4))
    soft(sf, outer, BLACK, 0.05 * r, 0.5, (0.01 * r, 0.03 * r))
    fill(sf, outer, m.polished(cx, cy, 315, 2), True)
    plate = Poly(superellipse(cx, cy, 0.93 * a, 0.94 * b, 3.4))
    fill(sf, plate, linear([m.hi, m.mid, m.lo], (cx - a, cy - b), (cx + a, cy + b)))
    opening = Poly(superellipse(cx, cy, 0.76 * a, 0.8 * b, 3.2))
    for k in range(8):
        t = 2 * math.pi * (k + 0.5) / 8
        c, s = math.cos(t), math.sin(t)
        x = cx + 0.85 * a * math.copysign(abs(c) ** (2 / 3.4), c)
        y = cy + 0.87 * b * math.copysign(abs(s) ** (2 / 3.4), s)
        fill(sf, Circle(x, y, 0.05 * r), alpha(BLACK, 100))
        fill(sf, Circle(x, y, 0.04 * r), TITANIUM.polished(x, y))
        line(sf, [polar(x, y, 0.03 * r, 45), polar(x, y, 0.03 * r, 225)], TITANIUM.edge, 0.012 * r)
    fill(sf, opening, (22, 23, 27))
    with clip(sf, opening) as sub:
        fill(
            sub,
            Circle(cx, cy, 1.5 * r),
            radial([(40, 42, 48), (18, 19, 22)], cx - 0.2 * r, cy - 0.3 * r, 1.1 * r),
        )
        gear(sub, cx - 0.18 * r, cy - 0.28 * r, 0.32 * r, 40, GOLD_M, 8)
        gear(sub, cx + 0.26 * r, cy - 0.02 * r, 0.22 * r, 30, GOLD_M, 20)
        gear(sub, cx - 0.05 * r, cy + 0.22 * r, 0.16 * r, 24, (200, 204, 210), 5)
        balance(sub, cx + 0.05 * r, cy + 0.55 * r, 0.2 * r, GOLD_M)
        # skeleton bridges
        bridge_c = TITANIUM
        for p, q in (
            ((cx - 0.7 * a, cy - 0.15 * b), (cx + 0.7 * a, cy + 0.15 * b)),
            ((cx - 0.7 * a, cy + 0.35 * b), (cx + 0.1 * a, cy + 0.05 * b)),
            ((cx + 0.1 * a, cy + 0.05 * b), (cx + 0.7 * a, cy - 0.55 * b)),
            ((cx - 0.4 * a, cy - 0.75 * b), (cx - 0.1 * a, cy + 0.0 * b)),
        ):
            poly = Poly(bar(p, q, 0.1 * r))
            soft(sub, poly, BLACK, 0.03 * r, 0.7, (0.01 * r, 0.03 * r))
            fill(sub, poly, bridge_c.across(bar(p, q, 0.1 * r)[0], bar(p, q, 0.1 * r)[3]))
            line(sub, [p, q], alpha(WHITE, 50), 0.012 * r)
            for pt in (p, q):
                jewel(sub, pt[0], pt[1], 0.035 * r)
    # accent flange with markers
    flange_o = superellipse(cx, cy, 0.76 * a, 0.8 * b, 3.2)
    flange_i = superellipse(cx, cy, 0.68 * a, 0.72 * b, 3.2)
    for i in range(len(flange_o)):
        j = (i + 1) % len(flange_o)
        fill(sf, Poly([flange_o[i], flange_o[j], flange_i[j], flange_i[i]]), accent)
    for h in range(12):
        ang = h * 30
        t = math.radians(90 - ang)
        c, s = math.cos(t), -math.sin(t)
        x = cx + 0.72 * a * math.copysign(abs(c) ** (2 / 3.2), c)
        y = cy + 0.76 * b * math.copysign(abs(s) ** (2 / 3.2), s)
        tf = frame(x, y, ang)
        ln = 0.09 * r if h % 3 == 0 else 0.05 * r
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-0.018 * r, -ln),
                    (0.018 * r, -ln),
                    (0.018 * r, 0.03 * r),
                    (-0.018 * r, 0.03 * r),
                ],
            ),
            WHITE,
        )
    ha, ma, _ = hand_angles(w)
    for ang, ln, wd in ((ha, 0.45 * r, 0.07 * r), (ma, 0.7 * r, 0.055 * r)):
        tf = frame(cx, cy, ang)
        outer_h = local_poly(
            tf,
            [
                (-wd / 2, -0.05 * r),
                (wd / 2, -0.05 * r),
                (wd / 2, ln * 0.85),
                (0, ln),
                (-wd / 2, ln * 0.85),
            ],
        )
        soft(sf, outer_h, BLACK, 0.02 * r, 0.6, (0.02 * r, 0.04 * r))
        fill(sf, outer_h, (236, 238, 240))
        fill(
            sf,
            local_poly(
                tf, [(-wd / 4, 0.1 * r), (wd / 4, 0.1 * r), (wd / 4, ln * 0.8), (-wd / 4, ln * 0.8)]
            ),
            (28, 29, 33),
        )
        fill(
            sf,
            local_poly(
                tf,
                [
                    (-wd / 4, ln * 0.62),
                    (wd / 4, ln * 0.62),
                    (wd / 4, ln * 0.8),
                    (-wd / 4, ln * 0.8),
                ],
            ),
            accent,
        )
    fill(sf, Circle(cx, cy, 0.05 * r), accent)
    fill(sf, Circle(cx, cy, 0.02 * r), (30, 30, 30))
    with clip(sf, opening) as sub:
        soft(sub, Circle(cx - 0.3 * a, cy - 0.55 * b, 0.6 * a, 0.35 * b), WHITE, 0.2 * r, 0.1)
    line(sf, superellipse(cx, cy, 0.76 * a, 0.8 * b, 3.2, 60)[36:50], alpha(WHITE, 110), 0.012 * r)


def tank_watch(
    sf: Surface, w: Watch, cx: float, cy: float, r: float, reach: tuple[float, float]
) -> None:
    """A rectangular dress watch with side rails, Roman numerals and a railway track."""
    m = w.metal
    a, b = 0.7 * r, 0.95 * r
    rail = 0.17 * r
    sw = 2 * (a - rail) + 0.02 * r
    strap(sf, w, cx, cy - b + 0.05 * r, cy - reach[0], sw, r)
    strap(sf, w, cx, cy + b - 0.05 * r, cy + reach[1], sw, r)
    # crown with cabochon
    x_edge = cx + a
    fill(
        sf,
        RRect(x_edge - 0.02 * r, cy - 0.04 * r, x_edge + 0.07 * r, cy + 0.04 * r),
        m.across((0, cy - 0.04 * r), (0, cy + 0.04 * r)),
        True,
    )
    oct_pts = [
        (
            x_edge + 0.06 * r + 0.06 * r * math.cos(math.radians(t)) * 0.9,
            cy + 0.085 * r * math.sin(math.radians(t)),
        )
        for t in range(0, 360, 45)
    ]
    fill(
        sf,
        Poly([(x, y) for x, y in oct_pts]),
        m.across((0, cy - 0.09 * r), (0, cy + 0.09 * r)),
        True,
    )
    fill(sf, Circle(x_edge + 0.125 * r, cy, 0.025 * r, 0.062 * r), (24, 44, 120), True)
    fill(
        sf,
        Circle(x_edge + 0.13 * r, cy - 0.02 * r, 0.008 * r, 0.02 * r),
        alpha((150, 180, 255), 200),
    )
    case = RRect(cx - a, cy - b, cx + a, cy + b, 0.06 * r)
    soft(sf, case, BLACK, 0.04 * r, 0.5, (0.01 * r, 0.02 * r))
    fill(sf, case, linear([m.hi, m.mid, m.lo], (cx - a, cy - b), (cx + a, cy + b)), True)
    for sx in (-1, 1):
        x0, x1 = sorted((cx + sx * a, cx + sx * (a - rail)))
        railshape = RRect(x0, cy - b - 0.2 * r, x1, cy + b + 0.2 * r, 0.06 * r)
        soft(sf, railshape, BLACK, 0.03 * r, 0.45, (0.01 * r, 0.02 * r))
        fill(sf, railshape, m.across((cx + sx * a, 0), (cx + sx * (a - rail), 0)), True)
        line(
            sf,
            [
                (cx + sx * (a - rail * 0.35), cy - b - 0.16 * r),
                (cx + sx * (a - rail * 0.35), cy + b + 0.16 * r),
            ],
            alpha(m.hi, 200),
            0.02 * r,
        )
    da, db = a - rail - 0.03 * r, b - 0.08 * r
    fill(
        sf,
        RRect(
            cx - da - 0.02 * r, cy - db - 0.02 * r, cx + da + 0.02 * r, cy + db + 0.02 * r, 0.02 * r
        ),
        m.lo,
    )
    fill(
        sf,
        RRect(cx - da, cy - db, cx + da, cy + db, 0.015 * r),
        radial(
            [lighter(w.dial, 0.5), w.dial, darker(w.dial, 0.05)],
            cx - 0.2 * r,
            cy - 0.35 * r,
            1.4 * r,
        ),
    )
    ink = w.track or INK
    # numerals around the rectangle, oriented towards the centre
    na, nb = da - 0.02 * r, db - 0.02 * r
    for h in range(12):
        ang = h * 30
        dx, dy = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
        num = ["XII", "I", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI"][h]
        height = (0.19 if h in (0, 6) else 0.15 if h in (3, 9) else 0.16) * r
        corner = min(na / max(abs(dx), 1e-9), nb / max(abs(dy), 1e-9))
        tf = frame(cx, cy, ang)
        dist = corner - height * 0.55 - (0.015 * r if h % 3 else 0)
        for p in roman_polys(num, height):
            fill(sf, local_poly(tf, [(u * 0.9, v + dist) for u, v in p]), ink)
    # railway track
    ta, tb = da * 0.52, db * 0.62
    for k, (xa, ya) in enumerate(((ta, tb), (ta - 0.05 * r, tb - 0.05 * r))):
        outline(
            sf, RRect(cx - xa, cy - ya, cx + xa, cy + ya).points(), ink, (0.007 if k else 0.009) * r
        )
    for i in range(60):
        ang = i * 6
        dx, dy = math.sin(math.radians(ang)), -math.cos(math.radians(ang))
        t0 = min((ta - 0.05 * r) / max(abs(dx), 1e-9), (tb - 0.05 * r) / max(abs(dy), 1e-9))
        t1 = min(ta / max(abs(dx), 1e-9), tb / max(abs(dy), 1e-9))
        line(sf, [(cx + dx * t0, cy + dy * t0), (cx + dx * t1, cy + dy * t1)], ink, 0.008 * r)
    ha, ma, _ = hand_angles(w)
    for ang, ln in ((ha, 0.5 * r), (ma, 0.78 * r)):
        tf = frame(cx, cy, ang)
        shape = local_poly(
            tf,
            [
                (-0.03 * r, -0.06 * r),
                (0.03 * r, -0.06 * r),
                (0.012 * r, 0.2 * r),
                (0.045 * r, ln * 0.72),
                (0, ln),
                (-0.045 * r, ln * 0.72),
                (-0.012 * r, 0.2 * r),
            ],
        )
        soft(sf, shape, BLACK, 0.015 * r, 0.35, (0.015 * r, 0.03 * r))
        fill(sf, shape, BLUED)
        fill(
            sf,
            local_poly(
                tf, [(0, -0.05 * r), (0, ln), (-0.045 * r, ln * 0.72), (-0.012 * r, 0.2 * r)]
            ),
            alpha((120, 150, 230), 90),
        )
    fill(sf, Circle(cx, cy, 0.035 * r), BLUED)
    with clip(sf, RRect(cx - da, cy - db, cx + da, cy + db)) as sub:
        soft(
            sub,
            Poly(
                [
                    (cx - da, cy - db * 0.2),
                    (cx - da * 0.2, cy - db),
                    (cx + da * 0.25, cy - db),
                    (cx - da, cy + db * 0.25),
                ]
            ),
            WHITE,
            0.05 * r,
            0.22,
        )


# --- movement parts, props -----------------------------------------------------------------


def gear(
    sf: Surface,
    cx: float,
    cy: float,
    r: float,
    teeth: int,
    m: Metal | Color,
    angle: float = 0,
    spokes: int = 5,
) -> None:
    base = m.mid if isinstance(m, Metal) else m
    depth = max(r * 0.08, 0.6)
    pts = []
    for i in range(teeth):
        a0 = angle + 360 * i / teeth
        p = 360 / teeth
        pts += [
            polar(cx, cy, r - depth, a0),
            polar(cx, cy, r, a0 + 0.22 * p),
            polar(cx, cy, r, a0 + 0.52 * p),
            polar(cx, cy, r - depth, a0 + 0.74 * p),
        ]
    soft(sf, Poly(pts), BLACK, max(0.5, 0.05 * r), 0.6, (0.03 * r, 0.06 * r))
    fill(sf, Poly(pts), base)
    if isinstance(m, Metal):
        fill(sf, Circle(cx, cy, r - depth), m.polished(cx, cy, 315, 2))
    if spokes:
        for i in range(spokes):
            a0 = angle + 360 * i / spokes + 10
            a1 = a0 + 360 / spokes - 20
            fill(sf, band(cx, cy, r * 0.76, r * 0.3, a0, a1), (26, 27, 31))
    fill(sf, Circle(cx, cy, r * 0.2), darker(base, 0.2))
    fill(sf, Circle(cx, cy, r * 0.1), (170, 20, 40))


def jewel(sf: Surface, x: float, y: float, r: float) -> None:
    fill(sf, Circle(x, y, r), GOLD_M.polished(x, y))
    fill(sf, Circle(x, y, r * 0.62), (150, 16, 36))
    fill(sf, Circle(x, y, r * 0.45), (206, 40, 64))
    fill(sf, Circle(x - r * 0.18, y - r * 0.18, r * 0.15), alpha(WHITE, 200))


def screw(
    sf: Surface, x: float, y: float, r: float, angle: float = 30, blued: bool = False
) -> None:
    m = BLUE_STEEL if blued else STEEL
    fill(sf, Circle(x, y, r), m.polished(x, y))
    line(sf, [polar(x, y, r * 0.85, angle), polar(x, y, r * 0.85, angle + 180)], m.edge, r * 0.3)


def balance(sf: Surface, cx: float, cy: float, r: float, m: Metal) -> None:
    soft(sf, Circle(cx, cy, r), BLACK, 0.06 * r, 0.6, (0.04 * r, 0.08 * r))
    fill(sf, Ring(cx, cy, r, r * 0.84), m.polished(cx, cy, 315, 2))
    for a in (30, 150, 270):
        fill(sf, Poly(bar((cx, cy), polar(cx, cy, r * 0.86, a), r * 0.08)), m.mid)
    for a in range(0, 360, 45):
        p = polar(cx, cy, r * 0.92, a + 15)
        fill(sf, Circle(p[0], p[1], r * 0.05), m.hi)
    pts = []
    turns = 7
    for i in range(turns * 36 + 1):
        t = i / 36
        rr = r * (0.12 + 0.56 * t / turns)
        pts.append(polar(cx, cy, rr, t * 360))
    line(sf, pts, alpha((176, 196, 220), 220), max(0.25, r * 0.012))
    fill(sf, Circle(cx, cy, r * 0.1), m.lo)
    jewel(sf, cx, cy, r * 0.07)


def cotes(sf: Surface, shape: Shape, base: Metal, stripe: float, angle: float = -35) -> None:
    """A bridge with Geneva stripes and a polished bevel."""
    soft(sf, shape, BLACK, stripe * 0.4, 0.6, (stripe * 0.15, stripe * 0.3))
    fill(sf, shape, base.mid)
    x0, y0, x1, y1 = shape.bbox()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    span = math.hypot(x1 - x0, y1 - y0)
    with clip(sf, shape) as sub:
        k = -span / 2
        shades = [
            mix(base.lo, base.mid, 0.5),
            base.mid,
            mix(base.mid, base.hi, 0.5),
            base.hi,
            mix(base.mid, base.hi, 0.6),
            base.mid,
            mix(base.mid, base.lo, 0.3),
            mix(base.mid, base.lo, 0.7),
        ]
        n = len(shades)
        while k < span / 2:
            for i, c in enumerate(shades):
                a, b = k + stripe * i / n, k + stripe * (i + 1) / n + 0.05
                pts = [(a, -span), (b, -span), (b, span), (a, span)]
                fill(sub, Poly(rotate_points([(cx + u, cy + v) for u, v in pts], angle, cx, cy)), c)
            k += stripe
    if isinstance(shape, Poly):
        outline(sf, shape.pts, alpha(WHITE, 170), stripe * 0.1)
        outline(
            sf,
            [(px + stripe * 0.06, py + stripe * 0.06) for px, py in shape.pts],
            alpha(BLACK, 50),
            stripe * 0.05,
        )


def loupe(sf: Surface, cx: float, cy: float, size: float) -> None:
    """A watchmaker's loupe lying on its side (pointing right), drawn horizontally."""
    body_l = size * 0.95
    r_big, r_small = size * 0.5, size * 0.3
    x0, x1 = cx - body_l / 2, cx + body_l / 2
    body = Poly([(x0, cy - r_small), (x1, cy - r_big), (x1, cy + r_big), (x0, cy + r_small)])
    fill(
        sf,
        body,
        linear(
            [(0, (20, 20, 22)), (0.25, (84, 86, 92)), (0.45, (40, 41, 45)), (1, (8, 8, 10))],
            (0, cy - r_big),
            (0, cy + r_big),
        ),
        True,
    )
    for i in range(1, 9):
        x = x0 + body_l * 0.05 * i
        rr = r_small + (r_big - r_small) * (x - x0) / body_l
        line(
            sf,
            [(x, cy - rr + size * 0.01), (x, cy + rr - size * 0.01)],
            alpha(BLACK, 160),
            size * 0.012,
        )
        line(
            sf,
            [(x + size * 0.012, cy - rr + size * 0.02), (x + size * 0.012, cy - rr * 0.3)],
            alpha(WHITE, 40),
            size * 0.008,
        )
    fill(sf, Circle(x0, cy, size * 0.06, r_small), (16, 16, 18), True)
    fill(sf, Circle(x0 - size * 0.005, cy, size * 0.04, r_small * 0.85), (58, 60, 66))
    rim = Circle(x1, cy, size * 0.11, r_big * 1.02)
    fill(sf, rim, (24, 24, 27), True)
    lens = Circle(x1 + size * 0.01, cy, size * 0.08, r_big * 0.9)
    fill(
        sf,
        lens,
        linear(
            [(0, (180, 200, 214)), (0.4, (90, 110, 128)), (1, (30, 40, 52))],
            (0, cy - r_big),
            (0, cy + r_big),
        ),
    )
    fill(
        sf,
        Circle(x1 + size * 0.005, cy - r_big * 0.4, size * 0.025, r_big * 0.25),
        alpha(WHITE, 150),
    )


def tweezers(sf: Surface, x0: float, y0: float, x1: float, y1: float, w: float) -> None:
    """Watchmaker's tweezers from the joined end (x0, y0) to the tips (x1, y1)."""
    length = math.hypot(x1 - x0, y1 - y0)
    ang = math.degrees(math.atan2(x1 - x0, -(y1 - y0)))
    tf = frame(x0, y0, ang)
    for side in (-1, 1):
        outer = [(side * w * 0.9, 0), (side * w * 1.7, length * 0.55), (side * w * 0.35, length)]
        inner = [(side * w * 0.1, length), (side * w * 1.05, length * 0.55), (side * w * 0.15, 0)]
        pts = bezier(*outer, 20) + bezier(*inner, 20)
        poly = local_poly(tf, pts)
        soft(sf, poly, BLACK, w * 0.5, 0.5, (w * 0.3, w * 0.6))
        fill(
            sf,
            poly,
            linear(
                [STEEL.lo, STEEL.hi, STEEL.mid],
                tf(-side * w * 2, length / 2),
                tf(side * w * 2, length / 2),
            ),
        )
    fill(
        sf,
        local_poly(
            tf,
            [(-w * 0.95, -w * 0.2), (w * 0.95, -w * 0.2), (w * 0.9, w * 1.5), (-w * 0.9, w * 1.5)],
        ),
        STEEL.mid,
    )
