"""The paperwork form's kinds of field (app/status/paperwork_form.py): each with the filter that
cleans a value as the seller meant it and the rules (app/forms/rules.py) it is checked by, and
the ID photo's check, which keeps each side as a clean JPEG or takes it from the draft."""

from __future__ import annotations

import re
import unicodedata

from flask import current_app
from wtforms import StringField, TextAreaField
from wtforms.validators import StopValidation

from app.forms.rules import (
    Choice,
    IsoDate,
    Letters,
    MaxLength,
    MinLength,
    Optional,
    Pattern,
    Required,
)
from app.photos import messages as photo_messages
from app.photos.forms import PHOTO_PROBLEMS
from app.photos.uploads import file_size, image_problem, safe_filename
from app.sale.purchase.paperwork import UnreadablePhoto, clean_id_photo

NAME_CHARACTERS = " '’-."
NAME_MESSAGE = "Please use letters, spaces, hyphens, apostrophes and periods only."
# Typed grouped as people group them: the browser lets separators through, the server drops them.
DIGITS = {"inputmode": "numeric", "pattern": r"[0-9 \-]+", "autocomplete": "off"}


def clean_text(value):
    """Trimmed, NFC-normalised, runs of spaces as one (as the seller meant it)."""
    return " ".join(unicodedata.normalize("NFC", value or "").split())


def without_separators(value):
    """A number as typed, without the spaces and hyphens people group digits with."""
    return re.sub(r"[\s-]", "", value or "").upper()


def zip_code(value):
    """A ZIP code as written: nine digits typed together become ZIP+4 (12345-6789)."""
    digits = re.sub(r"[\s-]", "", value or "")
    return f"{digits[:5]}-{digits[5:]}" if re.fullmatch(r"\d{9}", digits) else clean_text(value)


def one_line(value):
    """An address typed over several lines, as one line with commas."""
    lines = (clean_text(line) for line in (value or "").splitlines())
    return ", ".join(line for line in lines if line)


def text(label, missing, length=(2, 100), name_like=False, optional=False, **options):
    """A text field of `length` characters (a name's characters only, when `name_like`)."""
    low, high = length
    words = f"Please use {low} to {high} characters."
    rules = [Optional() if optional else Required(missing)]
    rules += [MinLength(low, words), MaxLength(high, words)]
    if name_like:
        rules.append(Letters(NAME_CHARACTERS, NAME_MESSAGE))
    field = TextAreaField if options.pop("lines", False) else StringField
    filters = [options.pop("clean", clean_text)]
    return field(label, filters=filters, validators=rules, **options)


def day(label, missing, *rules, **render_kw):
    """A date field (YYYY-MM-DD, as date inputs send it) with rules on the date itself."""
    validators = [Required(missing), IsoDate(missing), *rules]
    return StringField(label, validators=validators, render_kw={"type": "date"} | render_kw)


def zip_field(**render_kw):
    """A US ZIP code, or ZIP+4 (nine digits typed together become one: zip_code)."""
    rules = [
        Required("Please enter your ZIP code."),
        Pattern(r"\d{5}(-\d{4})?", "Please enter a 5-digit ZIP code, or ZIP+4 (12345-6789)."),
    ]
    shown = {"autocomplete": "postal-code", "inputmode": "numeric", "maxlength": 10} | render_kw
    return StringField("ZIP code", filters=[zip_code], validators=rules, render_kw=shown)


def choice(label, missing, options: dict):
    """One of `options` (a select's values)."""
    return StringField(label, validators=[Required(missing), Choice(list(options), missing)])


def digits(label, missing, rules, maxlength, description=""):
    """A bank number in digits, the spaces and hyphens people type dropped."""
    return StringField(
        label,
        filters=[without_separators],
        validators=[Required(missing), *rules],
        description=description,
        render_kw=DIGITS | {"maxlength": maxlength},
    )


def account_digits(label, missing):
    """An account number: 4 to 17 digits."""
    return digits(
        label, missing, [Pattern(r"[0-9]{4,17}", "An account number has 4 to 17 digits.")], 21
    )


class IdPhoto:
    """An ID photo: there, not too large, an image by its content; then decoded whole and kept on
    the form as a clean JPEG (`form.id_photos`), or refused with the one message that says why."""

    def __init__(self, missing: str):
        self.missing = missing

    def __call__(self, form, field) -> None:
        upload = field.data
        if upload is None or not getattr(upload, "filename", ""):
            if field.name in form.kept:
                form.id_photos[field.name] = form.kept[field.name]
                return
            raise StopValidation(self.missing)
        config, name = current_app.config, safe_filename(upload.filename)
        if file_size(upload) > config["PHOTO_MAX_BYTES"]:
            raise StopValidation(photo_messages.message(photo_messages.PHOTO_TOO_LARGE, name=name))
        if problem := image_problem(upload, config["PHOTO_MAX_PIXELS"]):
            raise StopValidation(photo_messages.message(PHOTO_PROBLEMS[problem], name=name))
        try:
            form.id_photos[field.name] = clean_id_photo(upload.stream.read())
        except UnreadablePhoto as error:
            damaged = photo_messages.message(photo_messages.PHOTO_DAMAGED, name=name)
            raise StopValidation(damaged) from error
