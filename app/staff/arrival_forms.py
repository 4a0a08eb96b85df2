"""The forms of a parcel opened on record (app/shipping/arrival.py): the arrival itself, and a
second staff member's sign-off of one that did not match. Every photo is checked as the
seller's photos are (an image by its content, within the size and pixel limits) and kept as a
clean JPEG of its pixels only; the video is an mp4 or WebM file by its content, within
MAILIN_ARRIVAL_VIDEO_MAX_MB. Each refusal names the field and what to do."""

from __future__ import annotations

from flask import current_app
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import DecimalField, MultipleFileField, RadioField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Regexp, StopValidation

from app.forms.fields import options, words
from app.photos import messages as photo_messages
from app.photos.forms import PHOTO_PROBLEMS
from app.photos.uploads import HEIF_BRANDS, file_size, image_problem, safe_filename
from app.sale.purchase.paperwork import UnreadablePhoto, clean_id_photo
from app.shipping.arrival import Opened, expected_weight

MB = 1024 * 1024
SEALS = {
    "intact": "Intact: every seam taped, never opened",
    "broken": "Broken, cut, re-taped or missing",
}
VIDEO_TYPES = "an mp4 or WebM video"


WEIGHT_WORDS = "Enter the weight in ounces, between 0.1 and 1,000."


class OuncesField(DecimalField):
    """A weight in ounces as staff type it ('32.5', '32,5' or '32.5 oz'), or the one message."""

    def process_formdata(self, valuelist):
        """Read the number without a trailing 'oz' and with a decimal comma; WEIGHT_WORDS if
        it is not one."""
        if valuelist:
            valuelist = [valuelist[0].lower().removesuffix("oz").strip().replace(",", ".")]
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(WEIGHT_WORDS) from None


def chosen(field) -> list:
    """The files chosen in a file field (one or several); none for an empty choice."""
    data = field.data if isinstance(field.data, list) else [field.data]
    return [upload for upload in data if upload is not None and getattr(upload, "filename", "")]


class Photos:
    """From `low` to `high` photos, each an image we take, kept on the form as clean JPEGs
    (`form.photos[field.name]`), or refused with the one message that says why."""

    def __init__(self, low: int, high: int, missing: str):
        self.low, self.high, self.missing = low, high, missing

    def __call__(self, form, field) -> None:
        uploads = chosen(field)
        if len(uploads) < self.low:
            raise StopValidation(self.missing)
        if len(uploads) > self.high:
            raise StopValidation(f"Please choose at most {self.high} photos here.")
        config, kept = current_app.config, []
        for upload in uploads:
            name = safe_filename(upload.filename)
            if file_size(upload) > config["PHOTO_MAX_BYTES"]:
                raise StopValidation(
                    photo_messages.message(photo_messages.PHOTO_TOO_LARGE, name=name)
                )
            if problem := image_problem(upload, config["PHOTO_MAX_PIXELS"]):
                raise StopValidation(photo_messages.message(PHOTO_PROBLEMS[problem], name=name))
            try:
                kept.append(clean_id_photo(upload.stream.read()))
            except UnreadablePhoto as error:
                damaged = photo_messages.message(photo_messages.PHOTO_DAMAGED, name=name)
                raise StopValidation(damaged) from error
        form.photos[field.name] = kept


def video_type(head: bytes) -> str | None:
    """'video/mp4' or 'video/webm' from a file's first bytes, or None for anything else (an
    HEIC photo is an ISO file too, and is not a video)."""
    if head[4:8] == b"ftyp" and head[8:12] not in HEIF_BRANDS:
        return "video/mp4"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm"
    return None


def check_video(form, field) -> None:
    """The optional video: an mp4 or WebM file within MAILIN_ARRIVAL_VIDEO_MAX_MB, kept on the
    form as (bytes, media type)."""
    uploads = chosen(field)
    if not uploads:
        return
    upload, limit = uploads[0], current_app.config["MAILIN_ARRIVAL_VIDEO_MAX_MB"]
    name = safe_filename(upload.filename)
    if file_size(upload) > limit * MB:
        raise StopValidation(
            f"{name} is larger than {limit}MB: keep the video short, or leave it out."
        )
    media_type = video_type(upload.stream.read(16))
    if media_type is None:
        raise StopValidation(f"{name} is not {VIDEO_TYPES}.")
    upload.stream.seek(0)
    form.video_file = (upload.stream.read(), media_type)


def photo_input(multiple: bool) -> dict:
    """What a photo input lets the browser offer: images, several if `multiple`."""
    return {"accept": "image/png,image/jpeg,image/webp,image/heic"} | (
        {"multiple": True} if multiple else {}
    )


class ArrivalForm(FlaskForm):
    """A parcel opened on record: its weight, the seal, the photos, the serial, a video."""

    weight_oz = OuncesField(
        "Weight measured (oz)",
        validators=[
            InputRequired("Weigh the parcel as it came, unopened, and enter its weight in ounces."),
            NumberRange(0.1, 1000, message=WEIGHT_WORDS),
        ],
        render_kw={"inputmode": "decimal", "step": "0.1", "min": "0.1", "max": "1000"},
    )
    seal = RadioField(
        "The seal as received",
        choices=options(SEALS),
        validators=[InputRequired("Say whether the seal was intact.")],
    )
    box_photos = MultipleFileField(
        "Photos of the box as received (1 to 3)",
        validators=[Photos(1, 3, "Add at least one photo of the box as it came, before opening.")],
        description="Every side with tape and label, before it is opened.",
        render_kw=photo_input(True),
    )
    opening_photos = MultipleFileField(
        "Photos of the opening (1 to 4)",
        validators=[Photos(1, 4, "Add at least one photo of the opening.")],
        description="The inner box, the padding, the watch as it lay.",
        render_kw=photo_input(True),
    )
    serial = StringField(
        "Serial number, as engraved",
        validators=[
            InputRequired("Type the serial number as it is engraved on the watch."),
            Length(2, 40, message="A serial number is 2 to 40 characters."),
            Regexp(
                r"^[A-Za-z0-9][A-Za-z0-9 ./-]*$",
                message="Use the letters, digits, spaces, dots, slashes and hyphens engraved.",
            ),
        ],  # fmt: skip
        render_kw={"autocomplete": "off", "spellcheck": "false"},
    )
    serial_photo = FileField(
        "Photo of the serial in frame",
        validators=[Photos(1, 1, "Add a photo with the serial number in frame.")],
        render_kw=photo_input(False),
    )
    video = FileField(
        "Video of the opening (optional)",
        validators=[check_video],
        render_kw={"accept": "video/mp4,video/webm"},
    )
    note = words("Anything else you saw (optional)")

    def __init__(self, *args, parcel: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        tolerance = current_app.config["MAILIN_WEIGHT_TOLERANCE_OZ"]
        expected, measured = expected_weight(parcel) if parcel else (None, False)
        if expected is not None:
            said = "The carrier measured it at" if measured else "The label says"
            self.weight_oz.description = (
                f"Unopened, on the scale. {said} {expected:g} oz: within {tolerance:g} oz, it "
                "matches."
            )
        self.photos: dict[str, list[bytes]] = {}
        self.video_file: tuple[bytes, str] | None = None
        limit = current_app.config["MAILIN_ARRIVAL_VIDEO_MAX_MB"]
        self.video.description = f"A short clip of the opening: {VIDEO_TYPES}, up to {limit}MB."

    def opened(self) -> Opened:
        """What the form says was found, for app/shipping/arrival.py (after validate())."""
        return Opened(
            weight_oz=float(self.weight_oz.data),
            seal_intact=self.seal.data == "intact",
            serial=" ".join(self.serial.data.split()).upper(),
            box_photos=self.photos["box_photos"],
            opening_photos=self.photos["opening_photos"],
            serial_photo=self.photos["serial_photo"][0],
            video=self.video_file,
            note=(self.note.data or "").strip(),
        )


class SignOffForm(FlaskForm):
    """A second staff member's sign-off of an arrival that did not match."""

    note = words(
        "What you checked, and why the parcel can count as received",
        required=True,
        description="Recorded with your name and the time, on the lead's timeline.",
    )
