"""The sell form's area: /sell (its page and both ways of posting it), its thank-you page and the
old address, served by app/sell/views.py, and the instant range the island asks for as the
seller types (app/sell/instant_range.py); posts are limited per client (SELL_RATELIMIT), and so
is the instant range (SELL_RANGE_RATELIMIT, app/sell/range_limits.py)."""

from __future__ import annotations

from flask import Blueprint, current_app
from flask_wtf.csrf import CSRFError

from app import errors
from app.extensions import limiter
from app.photos.messages import UPLOAD_TOO_LARGE, message
from app.sell import instant_range, range_limits, reach, views
from app.sell.messages import SESSION_EXPIRED, TOO_MANY_REQUESTS

bp = Blueprint("sell", __name__)
limiter.limit(lambda: current_app.config["SELL_RATELIMIT"], methods=["POST"])(bp)

bp.route("/sell", methods=["GET", "POST"])(views.form)
bp.get("/sell/thanks")(views.thanks)
bp.get("/sell/range")(
    limiter.shared_limit(
        range_limits.per_client,
        scope=range_limits.SCOPE,
        on_breach=range_limits.client_reached_its_limit,
    )(instant_range.answer)
)
bp.get("/sell-form")(views.old_form_url)
bp.record_once(lambda setup: reach.load_when_offered(setup.app))


errors.word(bp, 413, lambda: message(UPLOAD_TOO_LARGE), views.form_again(keep_values=False))
errors.word(bp, 429, lambda: message(TOO_MANY_REQUESTS), views.form_again(keep_values=False))
errors.word(bp, CSRFError, SESSION_EXPIRED, views.form_again(keep_values=True))
