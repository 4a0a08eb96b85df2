"""The blog's area: its URLs, each served by a view of app/blog/views.py."""

from __future__ import annotations

from flask import Blueprint

from app.blog import views

bp = Blueprint("blog", __name__)

bp.get("/blog")(views.index)
bp.get("/blog/<slug>")(views.article)
