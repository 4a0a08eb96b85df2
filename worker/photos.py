"""Photo processing: prove each upload is a real image by decoding it fully, then keep a clean
copy. Orientation is applied and every piece of metadata (EXIF incl. GPS, XMP, ICC, comments)
is dropped by re-encoding only the pixels."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pillow_heif
from flask import current_app
from PIL import Image, ImageOps, UnidentifiedImageError

from app.leads import storage, store

pillow_heif.register_heif_opener()

MAX_SIDE = 4096  # a 12 MP phone photo is kept at full size; anything larger is reduced
THUMB_SIDE = 480
PARALLEL = 2
DECODE_ERRORS = (UnidentifiedImageError, Image.DecompressionBombError, SyntaxError, OSError)


class PhotoRejected(ValueError):
    """The upload is not an image we will keep; the message says why."""


def decode(path: Path, max_pixels: int) -> Image.Image:
    """Open, refuse oversized images before decoding, then decode every byte (load())."""
    try:
        image = Image.open(path)
    except DECODE_ERRORS as error:
        raise PhotoRejected(f"not a readable image ({error})") from error
    try:
        if image.width * image.height > max_pixels:
            raise PhotoRejected(f"{image.width}x{image.height} is over {max_pixels:,} pixels")
        if image.format == "JPEG":
            image.draft("RGB", (MAX_SIDE, MAX_SIDE))  # DCT scaling: huge JPEGs decode small
        image.load()
    except DECODE_ERRORS as error:
        image.close()
        raise PhotoRejected(f"not a readable image ({error})") from error
    except PhotoRejected:
        image.close()
        raise
    return image


def flatten(image: Image.Image) -> Image.Image:
    """Upright RGB pixels only: transparency goes on white, palettes and 16-bit are converted."""
    image = ImageOps.exif_transpose(image)
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, "white")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")


def clean_copy(image: Image.Image) -> Image.Image:
    """At most MAX_SIDE, with every metadata entry Pillow carries (EXIF, XMP, ICC...) dropped."""
    if max(image.size) > MAX_SIDE:
        image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    image.info = {}
    return image


def process_photo(source: Path, target_dir: Path, max_pixels: int) -> dict:
    """A full-size JPEG and a webp thumbnail, under fresh unguessable names."""
    with decode(source, max_pixels) as image:
        clean = clean_copy(flatten(image))
    target_dir.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    image_name, thumb_name = f"{token}.jpg", f"{token}-thumb.webp"
    clean.save(target_dir / image_name, "JPEG", quality=88, optimize=False, progressive=True)
    thumb = clean.copy()
    thumb.thumbnail((THUMB_SIDE, THUMB_SIDE), Image.Resampling.BILINEAR, reducing_gap=2.0)
    thumb.save(target_dir / thumb_name, "WEBP", quality=80, method=4)
    width, height = clean.size
    return {"image_name": image_name, "thumb_name": thumb_name, "width": width, "height": height}


def try_process(source: Path, target_dir: Path, max_pixels: int) -> dict:
    """process_photo(), with a refused upload's reason returned as {'error': ...} instead."""
    try:
        return process_photo(source, target_dir, max_pixels)
    except PhotoRejected as error:
        return {"error": str(error)}


def process_lead_photos(lead_id: int) -> int:
    """Process each photo not yet done, two at a time (Pillow releases the GIL while it
    decodes and encodes); a refused upload is recorded, not retried. Returns how many."""
    incoming, target = storage.incoming_dir(), storage.photos_dir()
    todo = [p for p in store.lead_photos(lead_id) if not (p["image_name"] or p["error"])]
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        sources = [incoming / photo["upload_name"] for photo in todo]
        limit = current_app.config["PHOTO_MAX_PIXELS"]
        results = pool.map(try_process, sources, [target] * len(todo), [limit] * len(todo))
        for photo, source, result in zip(todo, sources, results, strict=True):
            if "error" in result:
                current_app.logger.warning("Lead %s photo %s: %s", lead_id, photo["id"], result)
            if not store.record_photo(photo["id"], **result):  # its files are removed too
                current_app.logger.info("Lead %s erased while its photos were processed.", lead_id)
            source.unlink(missing_ok=True)
    return len(todo)
