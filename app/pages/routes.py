"""The public pages' area: their URLs, each served by a view of app/pages/views.py."""

from __future__ import annotations

from flask import Blueprint

from app.pages import views

bp = Blueprint("pages", __name__)

bp.get("/")(views.home)
bp.get("/watch-authentication")(views.authentication)
bp.get("/sell-by-mail")(views.sell_by_mail)
bp.get("/terms")(views.terms)
bp.get("/privacy")(views.privacy)
bp.get("/sell-watch-<slug>")(views.city)
bp.get("/sell-<key>-watch")(views.brand)
bp.get("/sitemap.xml")(views.sitemap)
bp.get("/robots.txt")(views.robots)
