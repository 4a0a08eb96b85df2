"""The privacy choices' area: /privacy-choices, served by app/privacy/views.py."""

from __future__ import annotations

from flask import Blueprint
from flask_wtf.csrf import CSRFError

from app import errors
from app.privacy import views

bp = Blueprint("privacy", __name__)

bp.get(views.PATH)(views.choices)
bp.post(views.PATH)(views.save_choice)

errors.word(bp, CSRFError, views.PAGE_EXPIRED, views.choices_page)
