"""The supersampled surfaces, and the fills, strokes, clips, blurs and shadows drawn on them."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import contextmanager

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from tools.artwork.draw.geometry import Point, S
from tools.artwork.draw.paints import Gradient
from tools.artwork.draw.palette import BLACK, NAVY
from tools.artwork.draw.shapes import Circle, Pen, Shape


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


def fade(m: Image.Image, opacity: float) -> Image.Image:
    """A mask weakened to ``opacity`` (soft shapes, shadows and faint numerals share it)."""
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
    m = fade(m.filter(ImageFilter.GaussianBlur(max(0.5, blur * f))), opacity)
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
        m = fade(m.filter(ImageFilter.GaussianBlur(max(0.6, blur * S / k))), opacity)
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
