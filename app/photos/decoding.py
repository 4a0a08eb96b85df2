"""An image decoded on a web request within a memory bound: an ID photo kept as a clean JPEG, a
register certificate proved to be an image (app/sale/purchase/). A 50-megapixel PNG decoded as
it came, then copied for its orientation, its colours and its reduction, cost about 580 MB in
the web worker (bench/id_photo_memory.py).

Here the header is read first (Image.open decodes no pixel) and an image over PHOTO_MAX_PIXELS
is refused before any is. A JPEG (or a HEIC with a large enough thumbnail inside) is decoded at
the smallest scale that still gives the size kept (draft: DCT scaling, every byte still read);
any other format is decoded whole, once. Then the image is reduced by a whole factor to at most
the size kept, a band of rows at a time, so nothing but the decoded frame (at most 4 bytes a
pixel: 200 MB at 50 MP) is ever held at full size.
"""

from __future__ import annotations

import io
import math

from flask import current_app
from PIL import Image

BAND_BYTES = 4 * 1024 * 1024  # the source rows reduced at a time: a copy of about this much
REDUCIBLE = ("L", "LA", "RGB", "RGBA", "CMYK")  # Pillow averages these; others become RGBA


class TooManyPixels(Image.DecompressionBombError):
    """The image's header declares more pixels than PHOTO_MAX_PIXELS: nothing was decoded."""


def open_within(data: bytes, side: int) -> Image.Image:
    """The image in `data` decoded whole, at most `side` pixels on its longer edge, its format
    and metadata (EXIF orientation) kept for the caller; TooManyPixels over PHOTO_MAX_PIXELS,
    Pillow's own errors for a file that is not an image it reads."""
    image = Image.open(io.BytesIO(data))
    try:
        width, height = image.size
        limit = current_app.config["PHOTO_MAX_PIXELS"]
        if width * height > limit:
            raise TooManyPixels(f"{width}x{height} is over {limit:,} pixels")
        scale = min(1.0, side / max(width, height))
        image.draft("RGB", (math.ceil(width * scale), math.ceil(height * scale)))
        image.load()
    except BaseException:
        image.close()
        raise
    if max(image.size) <= side:
        return image
    with image:
        return reduced(image, math.ceil(max(image.size) / side))


def reduced(image: Image.Image, factor: int) -> Image.Image:
    """`image` made `factor` times smaller by averaging blocks of pixels, band by band (Pillow's
    own reduce of a whole RGBA image first copies it whole, premultiplied)."""
    width, height = image.size
    mode = image.mode if image.mode in REDUCIBLE else "RGBA"
    out = Image.new(mode, (math.ceil(width / factor), math.ceil(height / factor)))
    rows = max(1, BAND_BYTES // (width * 4 * factor)) * factor  # whole blocks of rows
    for top in range(0, height, rows):
        band = image.crop((0, top, width, min(top + rows, height)))
        band = band if band.mode == mode else band.convert(mode)
        out.paste(band.reduce(factor), (0, top // factor))
    out.info, out.format = dict(image.info), image.format
    return out
