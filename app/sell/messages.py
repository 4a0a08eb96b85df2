"""Every message the sell form shows a seller beyond the photos' (app/photos/messages.py),
filled in with the limits from config by `message()`.

The routes answer with these and the SellForm island receives them as props, so a message or a
limit (10 photos, 10MB, the phone number) is written once, here and in app/config.py.
"""

from __future__ import annotations

from app.photos.messages import message, picker_messages

SUCCESS = (
    "Form submitted successfully! We'll review your watch details and get back to you "
    "within 24 hours."
)
FAILURE = "Submission failed. Please try again or call us directly at {phone}."
TOO_MANY_REQUESTS = (
    "Too many submissions from your connection. Please wait a few minutes and try again, or "
    "call us directly at {phone}."
)
SESSION_EXPIRED = "Your session expired before the form was sent. Please submit it again."


def island_messages() -> dict:
    """The messages the island shows itself (the server sends the rest in its answers)."""
    return {
        "success": SUCCESS,
        "failure": message(FAILURE),
    } | picker_messages()
