"""Rendering staff pages: one helper so every page gets the same layout, title and status."""

from __future__ import annotations

from flask import make_response, render_template

from app.rendering.layout import site_info
from app.staff.auth import current_staff


def page(template: str, title: str, status: int = 200, **context):
    """A staff page in the staff layout, titled, for the signed-in member (if any)."""
    html = render_template(
        f"staff/{template}",
        title=f"{title} | {site_info()['name']} staff",
        staff_user=current_staff(),
        **context,
    )
    return make_response(html, status)


FORM_EXPIRED = "Please go back, reload the page and send it again."


def form_expired(message: str, _status: int):
    """A staff form whose CSRF token is missing or stale: say so; nothing was changed."""
    return page("message.html", "Form expired", 400, heading="This form has expired", text=message)
