"""Uploaded photos: recognised by their bytes (never their name), copied to private storage.

Werkzeug already spools each file part of a large request to a temporary file, so a photo is
never held whole in memory; here it is copied in 1 MiB chunks under an unguessable name.
"""

from __future__ import annotations

import secrets
import shutil
from pathlib import Path

from werkzeug.datastructures import FileStorage

CHUNK = 1024 * 1024
HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
EXTENSIONS = {"png": ".png", "jpeg": ".jpg", "webp": ".webp", "heif": ".heic"}


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


def file_size(upload: FileStorage) -> int:
    stream = upload.stream
    stream.seek(0, 2)
    size = stream.tell()
    stream.seek(0)
    return size


def store_upload(upload: FileStorage, directory: Path) -> dict:
    """Copy one validated upload into `directory` under a random name; return its reference."""
    directory.mkdir(parents=True, exist_ok=True)
    name = secrets.token_urlsafe(24) + EXTENSIONS[sniff_image(upload)]
    with open(directory / name, "wb") as target:
        shutil.copyfileobj(upload.stream, target, CHUNK)
    return {"original_name": Path(upload.filename or "photo").name[:200], "upload_name": name}


def discard_uploads(photos: list[dict], directory: Path) -> None:
    for photo in photos:
        (directory / photo["upload_name"]).unlink(missing_ok=True)
