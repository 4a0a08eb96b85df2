"""Brand and city landing pages share one renderer: their meta, structured data and the
home/landing documents their sections draw from."""

from __future__ import annotations

from flask import render_template

from app.content import queries
from app.rendering import seo
from app.rendering.layout import as_configured


def render_landing_page(
    template: str,
    record: dict,
    *,
    path: str,
    crumb: str,
    service: dict,
    image: str = seo.PageMeta.image,
    **context,
) -> str:
    """A brand or city page: its meta, service and breadcrumb JSON-LD, home and landing words
    (the home page's badges as the sale by mail's setting has them, as on the home page)."""
    home = queries.document("home")
    meta = seo.PageMeta(
        title=record["meta_title"],
        description=record["meta_description"],
        path=path,
        image=image,
        structured_data=[service, seo.breadcrumbs((crumb, path))],
    )
    return render_template(
        template,
        meta=meta,
        home=home | {"trust_badges": as_configured(home["trust_badges"])},
        landing=queries.document("landing"),
        **context,
    )
