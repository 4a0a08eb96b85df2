"""What a seller is told about photos and uploads, with its limits filled in from config: the
sell form and the status page's photo picker say the same, written once here.

`message()` fills any of these (and the sell form's own, app/sell/messages.py) with the limits:
10 photos, 10MB, the phone number, written once in app/config.py.
"""

from __future__ import annotations

from flask import current_app

NOT_SAVED = (
    "We could not save your submission, so nothing was kept. Please try again in a moment or "
    "call us directly at {phone}."
)
UPLOAD_TOO_LARGE = (
    "Your upload is too large. Please send at most {count} photos of up to {mb}MB each."
)
# {name} is the file's cleaned name, filled where the file is known. The formats
# app/photos/uploads.py recognises by content; the hint and the refusal name the same.
PHOTO_FORMATS = "PNG, JPEG, WebP or HEIC"
PHOTO_HINT = PHOTO_FORMATS + " up to {mb}MB each"
TOO_MANY_PHOTOS = "Please upload a maximum of {count} photos."
NOT_AN_IMAGE = "{name} is not a " + PHOTO_FORMATS + " photo."
PHOTO_TOO_LARGE = "{name} is larger than {mb}MB."
PHOTO_DAMAGED = "{name} is damaged or incomplete. Please choose it again or use another photo."
PHOTO_TOO_MANY_PIXELS = "{name} is too large in pixels (over {megapixels} megapixels)."
# Photos added later, from the seller's status page.
MORE_PHOTOS = "You can add up to {room} more: we take {count} photos in all."
NO_MORE_PHOTOS = (
    "You have sent us {count} photos, the most we take. If one is missing, call us on {phone}."
)
NO_PHOTOS_CHOSEN = "Please choose at least one photo to add."
PHOTOS_NOT_TAKEN = "Your photos were not sent. Please try again or call us directly at {phone}."
PHOTOS_ADDED = (
    "Thank you: your new photos are with your enquiry, and a specialist will look at them "
    "with the others."
)


def limits() -> dict:
    """The values messages are filled with (file names stay as `{name}` placeholders)."""
    config = current_app.config
    return {
        "phone": config["SITE_PHONE"],
        "count": config["PHOTO_MAX_COUNT"],
        "mb": config["PHOTO_MAX_BYTES"] // (1024 * 1024),
        "megapixels": config["PHOTO_MAX_PIXELS"] // 1_000_000,
        "name": "{name}",
    }


def message(template: str, **values) -> str:
    """A message with the limits (and any `values`) filled in."""
    return template.format(**(limits() | values))


def picker_messages() -> dict:
    """What the photo picker (components/shared/PhotoPicker.jsx) says itself."""
    return {
        "photoHint": message(PHOTO_HINT),
        "tooManyPhotos": message(TOO_MANY_PHOTOS),
        "notAnImage": message(NOT_AN_IMAGE),
        "photoTooLarge": message(PHOTO_TOO_LARGE),
    }
