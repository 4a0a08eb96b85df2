"""Real photos for tests and the benchmark, drawn with Pillow: a watch-like dial over noise
(so JPEGs are photo-sized), optionally with GPS EXIF and an EXIF orientation."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

GPS_IFD = 0x8825
ORIENTATION = 0x0112


@lru_cache(maxsize=32)
def noise_texture(size: tuple[int, int], noise: float) -> Image.Image:
    """Gaussian noise of that size, made once per run (drawing it is most of a photo's cost)."""
    return Image.effect_noise(size, noise).convert("RGB")


def draw_watch(size: tuple[int, int], seed: int = 0, noise: float = 40) -> Image.Image:
    """A dial and hands on a textured background; `noise` raises the JPEG size like a photo."""
    width, height = size
    texture = noise_texture(size, noise)
    base = Image.new("RGB", size, (60 + seed * 17 % 120, 70, 90 + seed * 29 % 120))
    image = Image.blend(base, texture, 0.35)
    draw = ImageDraw.Draw(image)
    radius = min(size) * 0.38
    cx, cy = width / 2, height / 2
    draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=(235, 230, 215),
        outline=(207, 162, 63),
        width=max(2, int(radius / 12)),
    )
    draw.line((cx, cy, cx, cy - radius * 0.7), fill=(20, 20, 30), width=max(2, int(radius / 25)))
    draw.line((cx, cy, cx + radius * 0.5, cy), fill=(20, 20, 30), width=max(2, int(radius / 18)))
    return image


def gps_exif(orientation: int | None = None) -> Image.Exif:
    exif = Image.Exif()
    exif[0x010F] = "TestPhone"  # Make
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (40.0, 44.0, 54.36), 3: "W", 4: (73.0, 59.0, 8.5)})
    if orientation:
        exif[ORIENTATION] = orientation
    return exif


@lru_cache(maxsize=128)
def photo_bytes(
    size: tuple[int, int] = (1200, 900),
    fmt: str = "JPEG",
    seed: int = 0,
    gps: bool = False,
    orientation: int | None = None,
    noise: float = 40,
    quality: int = 90,
) -> bytes:
    """The photo's file (the same bytes for the same arguments, made once per run)."""
    image = draw_watch(size, seed, noise)
    if fmt == "PNG":
        image = image.convert("RGBA")
    options = {"quality": quality} if fmt in ("JPEG", "WEBP") else {}
    if gps or orientation:
        options["exif"] = gps_exif(orientation)
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def write_photos(directory: Path, count: int, **options) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = directory / f"watch-{index + 1}.jpg"
        path.write_bytes(photo_bytes(seed=index, **options))
        paths.append(path)
    return paths
