"""The payouts' URL: the bank's webhook, a post that carries no CSRF token (it comes from the
bank, not a browser: its signature stands in)."""

from __future__ import annotations

from flask import Blueprint

from app.extensions import csrf
from app.payouts import views

bp = Blueprint("payouts", __name__)

bp.post("/webhooks/increase")(csrf.exempt(views.increase_webhook))
