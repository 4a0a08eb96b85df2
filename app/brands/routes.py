"""Brand landing pages: /sell-<brand>-watch."""

from flask import Blueprint, abort

from app.content import queries
from app.rendering import seo
from app.rendering.landing import render_landing_page
from app.rendering.page_cache import cache_page

bp = Blueprint("brands", __name__)


@bp.get("/sell-<key>-watch")
@cache_page
def brand(key: str):
    """A brand's landing page (/sell-<key>-watch); 404 for a brand not in content/."""
    record = queries.brand(key)
    if record is None:
        abort(404)
    path = f"/{record['url_slug']}"
    return render_landing_page(
        "brands/brand.html",
        record,
        path=path,
        crumb=f"Sell Your {record['name']}",
        service=seo.brand_service(record, path),
        image=f"brand-{key}",
        brand=record,
    )
