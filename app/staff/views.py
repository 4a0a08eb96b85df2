"""Rendering staff pages: one helper so every page gets the same layout, title and status."""

from __future__ import annotations

from flask import make_response, render_template

from app.rendering.layout import site_info
from app.staff.auth import current_staff


def page(template: str, title: str, status: int = 200, **context):
    html = render_template(
        f"staff/{template}",
        title=f"{title} | {site_info()['name']} staff",
        staff_user=current_staff(),
        **context,
    )
    return make_response(html, status)
