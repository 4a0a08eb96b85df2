"""The photo field's checks, shared by the sell form and the status page's add-photos form:
how many files there is room for, and each a real, whole photo within the limits."""

from __future__ import annotations

from flask import current_app
from flask_wtf import FlaskForm
from werkzeug.datastructures import FileStorage
from wtforms import MultipleFileField
from wtforms.validators import StopValidation

from app.photos import messages
from app.photos.uploads import file_size, image_problem, safe_filename

PHOTO_PROBLEMS = {
    "type": messages.NOT_AN_IMAGE,
    "damaged": messages.PHOTO_DAMAGED,
    "pixels": messages.PHOTO_TOO_MANY_PIXELS,
}


class PhotoLimits:
    """At most as many files as the form has room for (`form.photo_room()`), each a real,
    whole PNG/JPEG/WebP/HEIC by content, within size; messages name the file by its cleaned
    name only."""

    def __call__(self, form, field) -> None:
        files = chosen_files(field.data)
        config = current_app.config
        if len(files) > form.photo_room():
            raise StopValidation(form.too_many_photos())
        for upload in files:
            name = safe_filename(upload.filename)
            if file_size(upload) > config["PHOTO_MAX_BYTES"]:
                raise StopValidation(messages.message(messages.PHOTO_TOO_LARGE, name=name))
            problem = image_problem(upload, config["PHOTO_MAX_PIXELS"])
            if problem:
                raise StopValidation(messages.message(PHOTO_PROBLEMS[problem], name=name))


def chosen_files(data) -> list[FileStorage]:
    """The files actually chosen (a browser sends one empty part when none is)."""
    return [item for item in data or [] if isinstance(item, FileStorage) and item.filename]


class AddPhotosForm(FlaskForm):
    """Photos a seller adds from their status page: the sell form's checks, and room for
    PHOTO_MAX_COUNT photos in all with those already sent."""

    photos = MultipleFileField("Photos", validators=[PhotoLimits()])

    def __init__(self, sent: int, **kwargs):
        super().__init__(**kwargs)
        self.sent = sent

    def photo_room(self) -> int:
        """How many more photos this lead can take, with those already sent."""
        return photo_room(self.sent)

    def too_many_photos(self) -> str:
        """The message for too many files: how many more fit, or that no more do."""
        room = self.photo_room()
        if room == 0:
            return messages.message(messages.NO_MORE_PHOTOS)
        return messages.message(messages.MORE_PHOTOS, room=room)

    def validate_photos(self, field) -> None:
        """Refuse an empty choice: this form exists to add at least one photo."""
        if not chosen_files(field.data):
            raise StopValidation(messages.NO_PHOTOS_CHOSEN)


def photo_room(sent: int) -> int:
    """How many more photos a lead with `sent` photos can take."""
    return max(current_app.config["PHOTO_MAX_COUNT"] - sent, 0)


def photo_limits(max_count: int | None = None) -> dict:
    """The limits the photo picker checks in the browser (the server checks them again)."""
    config = current_app.config
    return {
        "maxCount": config["PHOTO_MAX_COUNT"] if max_count is None else max_count,
        "maxBytes": config["PHOTO_MAX_BYTES"],
        "types": ["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"],
    }
