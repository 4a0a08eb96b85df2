"""Uploaded photos: recognised by their bytes (never their name), copied to private storage.

Werkzeug already spools each file part of a large request to a temporary file, so a photo is
never held whole in memory; here it is copied in 1 MiB chunks under an unguessable name.
Before that, cheap checks refuse what is plainly not a photo (OWASP File Upload Cheat Sheet):
a cut-off file, a header Pillow cannot parse, or a decompression bomb. The worker then decodes
every byte and keeps only re-encoded pixels, which neutralises polyglots.
"""

from __future__ import annotations

import secrets
import shutil
import unicodedata
import warnings
from pathlib import Path

from PIL import Image
from werkzeug.datastructures import FileStorage

CHUNK = 1024 * 1024
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
EXTENSIONS = {"png": ".png", "jpeg": ".jpg", "webp": ".webp", "heif": ".heic"}
PIL_FORMATS = {"png": {"PNG"}, "jpeg": {"JPEG", "MPO"}, "webp": {"WEBP"}, "heif": {"HEIF"}}
NAME_LENGTH = 100


def sniff_image(upload: FileStorage) -> str | None:
    """'png', 'jpeg', 'webp' or 'heif' from the file's first bytes, or None for anything else."""
    stream = upload.stream
    stream.seek(0)
    head = stream.read(16)
    stream.seek(0)
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return "heif"
    return None


def safe_filename(name: str | None) -> str:
    """The seller's file name for messages and records only (never a path): no folders, no
    control or bidi characters, bounded."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = unicodedata.normalize("NFC", base)
    base = "".join(
        char for char in base if unicodedata.category(char)[0] not in "CZ" or char == " "
    )
    return base.strip(" .")[:NAME_LENGTH] or "photo"


def is_complete(kind: str, upload: FileStorage) -> bool:
    """Whether the file ends as its format requires (uploads from phones are often cut off).

    A JPEG may carry a trailer after its end marker (motion photos append a video), so one
    without the marker at its end is complete only if the marker appears somewhere.
    """
    stream = upload.stream
    size = file_size(upload)
    stream.seek(max(size - 32, 0))
    tail = stream.read()
    stream.seek(0)
    if kind == "jpeg":
        return b"\xff\xd9" in tail or contains(stream, b"\xff\xd9")
    if kind == "png":
        return tail.endswith(b"IEND\xaeB`\x82")
    if kind == "webp":
        stream.seek(4)
        declared = int.from_bytes(stream.read(4), "little")
        stream.seek(0)
        return declared + 8 <= size
    return True


def contains(stream, marker: bytes) -> bool:
    """Whether the stream holds `marker`, read in chunks (never whole)."""
    previous = b""
    try:
        while chunk := stream.read(CHUNK):
            if marker in previous[-len(marker) :] + chunk:
                return True
            previous = chunk
        return False
    finally:
        stream.seek(0)


def image_problem(upload: FileStorage, max_pixels: int) -> str | None:
    """Why the upload is not a photo we accept ('type', 'damaged', 'pixels'), or None."""
    kind = sniff_image(upload)
    if kind is None:
        return "type"
    if not is_complete(kind, upload):
        return "damaged"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(upload.stream) as image:
                if image.format not in PIL_FORMATS[kind]:
                    return "damaged"
                if image.width * image.height > max_pixels:
                    return "pixels"
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return "pixels"
    except Exception:  # Pillow raises many kinds for a malformed header
        return "damaged"
    finally:
        upload.stream.seek(0)
    return None


def file_size(upload: FileStorage) -> int:
    """The upload's size in bytes, measured by seeking its stream (left at the start)."""
    stream = upload.stream
    stream.seek(0, 2)
    size = stream.tell()
    stream.seek(0)
    return size


def store_upload(upload: FileStorage, directory: Path) -> dict:
    """Copy one validated upload into `directory` under a random name; return its reference.
    A copy that fails (a full disk) removes what it wrote: a cut-off file would hold on to the
    very space the next seller needs."""
    directory.mkdir(parents=True, exist_ok=True)
    name = secrets.token_urlsafe(24) + EXTENSIONS[sniff_image(upload)]
    try:
        with open(directory / name, "wb") as target:
            shutil.copyfileobj(upload.stream, target, CHUNK)
    except BaseException:
        (directory / name).unlink(missing_ok=True)
        raise
    return {"original_name": safe_filename(upload.filename), "upload_name": name}


def discard_uploads(photos: list[dict], directory: Path) -> None:
    """Delete stored uploads from `directory`, ignoring any already gone."""
    for photo in photos:
        (directory / photo["upload_name"]).unlink(missing_ok=True)
