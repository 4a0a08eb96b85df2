from flask import abort, render_template

from app import seo
from app.brands import bp
from app.content import queries
from app.page_cache import cache_page


@bp.get("/sell-<key>-watch")
@cache_page
def brand(key: str):
    record = queries.brand(key)
    if record is None:
        abort(404)
    path = f"/{record['url_slug']}"
    meta = seo.PageMeta(
        title=record["meta_title"],
        description=record["meta_description"],
        path=path,
        image=f"brand-{key}",
        structured_data=[
            seo.brand_service(record, path),
            seo.breadcrumbs((f"Sell Your {record['name']}", path)),
        ],
    )
    return render_template(
        "brands/brand.html",
        meta=meta,
        brand=record,
        home=queries.document("home"),
        landing=queries.document("landing"),
    )
