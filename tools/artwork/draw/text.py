"""Numerals: Pillow's default font, rotated and faded, and serif Roman numerals built of strokes."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from tools.artwork.draw.geometry import Point, S, bar
from tools.artwork.draw.surface import Surface, fade


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
        m = fade(m, color[3] / 255)
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
