"""Where a lead's photos live on disk: private storage, never served publicly (staff see them
through an authenticated route)."""

from __future__ import annotations

from pathlib import Path

from flask import current_app


def storage_dir() -> Path:
    """Private photo storage: PHOTO_STORAGE_DIR, or storage/ beside the leads database."""
    configured = current_app.config.get("PHOTO_STORAGE_DIR")
    return (
        Path(configured) if configured else Path(current_app.config["LEADS_DB"]).parent / "storage"
    )


def incoming_dir() -> Path:
    """Raw uploads as received; each is deleted once the photo job has processed it."""
    return storage_dir() / "incoming"


def photos_dir() -> Path:
    """Processed, metadata-free photos and thumbnails (never served publicly)."""
    return storage_dir() / "watch-photos"


def remove_photo_files(photos: list[dict]) -> None:
    """Delete the raw upload, the cleaned image and the thumbnail of each photo, if present."""
    for photo in photos:
        for folder, name in (
            (incoming_dir(), photo["upload_name"]),
            (photos_dir(), photo["image_name"]),
            (photos_dir(), photo["thumb_name"]),
        ):
            if name:
                (folder / name).unlink(missing_ok=True)


def remove_processed_files(result: dict) -> None:
    """Delete the cleaned image and thumbnail one processing run made, if it made them."""
    for name in (result.get("image_name"), result.get("thumb_name")):
        if name:
            (photos_dir() / name).unlink(missing_ok=True)
