"""The sale by mail's URLs: the label provider's webhook, the one post on the site that carries
no CSRF token (it comes from the provider, not a browser: its HMAC signature stands in)."""

from __future__ import annotations

from flask import Blueprint

from app.extensions import csrf
from app.shipping import views

bp = Blueprint("shipping", __name__)

bp.post("/webhooks/easypost")(csrf.exempt(views.easypost_webhook))
