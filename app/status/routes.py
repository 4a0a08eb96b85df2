"""The seller's status pages' area: its URLs, each served by a view of app/status/views.py (the
paperwork's by paperwork_views.py), and how its errors read. Every answer under /status is
private to the link's holder (no-store, noindex, no referrer: app/status/__init__.py), and its
tokens are kept out of the logs (app/security/logs.py)."""

from __future__ import annotations

from flask import Blueprint, request
from flask_wtf.csrf import CSRFError

from app import errors
from app.photos import messages as photo_messages
from app.status import mail_views, messages, paperwork_views, pickup_views, serial_views, views
from app.status.answers import back_to_link, show_refusal
from app.status.limits import too_many_message
from app.status.pages import lost_link_page

bp = Blueprint("status", __name__)

bp.route("/status", methods=["GET", "POST"])(views.lost_link)
bp.get("/status/<token>")(views.page)
bp.get("/status/<token>/appointment.ics")(views.appointment_file)
bp.post("/status/<token>/quote")(views.answer_quote)
bp.post("/status/<token>/offer")(views.answer_offer)
bp.post("/status/<token>/withdraw")(views.withdraw)
bp.post("/status/<token>/erase")(views.erase_after_sale)
bp.post("/status/<token>/question")(views.ask)
bp.post("/status/<token>/serial")(serial_views.give_serial)
bp.post("/status/<token>/photos")(views.add_photos)
bp.get("/status/<token>/paperwork")(paperwork_views.paperwork_form)
bp.post("/status/<token>/paperwork")(paperwork_views.sign_paperwork)
bp.get("/status/<token>/documents/<name>.pdf")(views.document)
bp.get("/status/erasure/<code>")(views.erasure_confirmation)
bp.post("/status/erasure/<code>")(views.confirm_erasure)
bp.get("/status/erased")(views.erasure_done)
bp.get("/status/payout/<code>")(views.payout_confirmation)
bp.post("/status/payout/<code>")(views.answer_payout)
bp.get("/status/payout-<any(confirmed, refused):said>")(views.payout_answered)
bp.post("/status/<token>/mail/address")(mail_views.return_address)
bp.post("/status/<token>/mail/suggestion")(mail_views.use_suggestion)
bp.post("/status/<token>/mail/id")(mail_views.give_id)
bp.post("/status/<token>/mail/conditions")(mail_views.accept_conditions)
bp.get("/status/<token>/mail/label-<any('4x6', letter):size>.pdf")(mail_views.label)
bp.post("/status/<token>/mail/pickup")(pickup_views.ask_pickup)
bp.post("/status/<token>/mail/pickup/cancel")(pickup_views.cancel_pickup)
bp.get("/status/address/<code>")(mail_views.address_confirmation)
bp.post("/status/address/<code>")(mail_views.confirm_address)
bp.get("/status/address-confirmed")(mail_views.address_confirmed)


def out_of_date(message: str, status: int):
    """A form from a page opened long ago (or another site's): nothing done; the page it was on
    again, with the message (the erasure link's own page for its button)."""
    if request.endpoint in ("status.confirm_erasure", "status.answer_payout",
                            "status.confirm_address"):  # fmt: skip
        return back_to_link(message, status)
    return show_refusal(message, status)


def too_many(message: str, status: int):
    """Too many requests: the seller's page with the message, or the lost-link form's."""
    if (request.view_args or {}).get("token"):
        return show_refusal(message, status)
    return lost_link_page(message, status)


# One page, byte for byte, whether the token is unknown, altered, expired or malformed.
errors.word(bp, 404, messages.UNKNOWN_LINK, lambda *_: errors.not_found_response(path="/status"))
errors.word(bp, CSRFError, messages.OUT_OF_DATE, out_of_date)
errors.word(bp, 429, too_many_message, too_many)
errors.word(bp, 413, lambda: photo_messages.message(photo_messages.UPLOAD_TOO_LARGE), show_refusal)
