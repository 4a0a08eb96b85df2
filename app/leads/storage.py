"""Where a lead's photos live on disk: private storage, never served publicly (staff see them
through an authenticated route). A file is named by its record, and records come back from a
backup or the replica as plain data: a name deletes a file only if it is one plain name inside
its folder, never a path out of it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from flask import current_app


class UnsafeName(ValueError):
    """A file name from the records that this site would never have written."""


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


def file_in(folder: Path, name: str) -> Path:
    """Where the file a record names `name` is in `folder`; UnsafeName unless the name is one
    plain name (no folder in it, no `..`) that stays inside the folder once resolved."""
    path = folder / name
    plain = name not in ("", ".", "..") and PurePosixPath(name).name == name
    if not plain or not path.resolve().is_relative_to(folder.resolve()):
        raise UnsafeName(name)
    return path


def remove_named(folder: Path, names: Iterable[str | None]) -> None:
    """Delete the files of `folder` these records name, if present; a name that is not one
    plain name inside the folder deletes nothing and is logged."""
    for name in filter(None, names):
        try:
            file_in(folder, name).unlink(missing_ok=True)
        except UnsafeName:
            current_app.logger.warning("Not a file name this site writes, not deleted: %r", name)


def remove_photo_files(photos: list[dict]) -> None:
    """Delete the raw upload, the cleaned image and the thumbnail of each photo, if present."""
    for photo in photos:
        remove_named(incoming_dir(), [photo["upload_name"]])
        remove_named(photos_dir(), [photo["image_name"], photo["thumb_name"]])


def remove_processed_files(result: dict) -> None:
    """Delete the cleaned image and thumbnail one processing run made, if it made them."""
    remove_named(photos_dir(), [result.get("image_name"), result.get("thumb_name")])
