"""The site's pictures (derived by `flask images` from content/images/): their manifest, and
each picture as the props the Picture component renders (app/rendering/components.py)."""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app

ART_URL = "/static/img/art/"


class ImageMissing(RuntimeError):
    """The images have not been derived, or there is no picture of that name."""


@lru_cache(maxsize=4)
def _catalog(manifest: str, version: int) -> dict:
    return json.loads(Path(manifest).read_text(encoding="utf-8"))["images"]


@lru_cache(maxsize=256)
def _placeholder_data_uri(path: str, version: int) -> str:
    """Tiny enough (a few hundred bytes) to inline, saving a request per image."""
    return "data:image/webp;base64," + base64.b64encode(Path(path).read_bytes()).decode()


def art_folder(app: Flask | None = None) -> Path:
    """Where `flask images` writes the derived pictures: the static folder's img/art/."""
    return Path((app or current_app).static_folder) / "img" / "art"


def art_manifest(app: Flask | None = None) -> Path:
    """Written last by `flask images`: it changes whenever the pictures do."""
    return art_folder(app) / "manifest.json"


class DraftPictures(RuntimeError):
    """Production was asked to serve the quick development pictures of `flask images --draft`."""


def refuse_draft_pictures(manifest: Path) -> None:
    """Production serves production's pictures only: DraftPictures, naming them and the fix, if
    the manifest lists any draft (bin/run derives drafts; bin/setup and `flask images` do not).
    No manifest yet is left to the pages, which say to run `flask images`."""
    try:
        catalog = json.loads(manifest.read_text(encoding="utf-8"))["images"]
    except FileNotFoundError:
        return
    drafts = sorted(name for name, record in catalog.items() if record.get("draft"))
    if drafts:
        raise DraftPictures(
            f"{len(drafts)} pictures in {manifest.parent} are development drafts "
            f"({', '.join(drafts[:3])}{', ...' if len(drafts) > 3 else ''}): run "
            "`flask images` (without --draft) before starting in production."
        )


def images_version() -> int:
    """The manifest's mtime: the memoised catalog and placeholders are keyed by it, so pictures
    derived again are read afresh."""
    try:
        return art_manifest().stat().st_mtime_ns
    except FileNotFoundError:
        raise ImageMissing(f"{art_manifest()} is missing: run `flask images`.") from None


def image_record(name: str) -> dict:
    """A picture's manifest entry (size, widths, source); ImageMissing if it has none."""
    catalog = _catalog(str(art_manifest()), images_version())
    if name not in catalog:
        raise ImageMissing(
            f"No picture named {name!r}: add its master and an entry in "
            "content/images/images.toml, then run `flask images`."
        )
    return catalog[name]


def picture_props(name: str, alt: str, sizes: str, priority: bool = False, class_name: str = ""):
    """Everything Picture.jsx needs for one image at the widths it was derived in."""
    record = image_record(name)
    widths = record["widths"]

    def srcset(extension: str) -> str:
        """The srcset of one format: every width the picture was derived in."""
        return ", ".join(f"{ART_URL}{name}-{width}.{extension} {width}w" for width in widths)

    return {
        "alt": alt,
        "width": record["width"],
        "height": record["height"],
        "src": f"{ART_URL}{name}-{widths[-1]}.jpg",
        "avifSrcset": srcset("avif"),
        "webpSrcset": srcset("webp"),
        "jpegSrcset": srcset("jpg"),
        "sizes": sizes,
        "placeholder": _placeholder_data_uri(
            str(art_folder() / f"{name}-placeholder.webp"), images_version()
        ),
        "priority": priority,
        "className": class_name,
    }


def image_url(name: str, width: int | None = None) -> str:
    """A plain JPEG URL (for social cards and structured data)."""
    record = image_record(name)
    return f"{ART_URL}{name}-{width or record['widths'][-1]}.jpg"
