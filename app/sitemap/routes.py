from flask import Blueprint, Response, render_template

from app.content import queries
from app.rendering.page_cache import cache_page
from app.rendering.seo import absolute

bp = Blueprint("sitemap", __name__)


def sitemap_entries() -> list[dict]:
    """Every indexable page with its absolute address (loc) and the date it last changed."""
    return [page | {"loc": absolute(page["path"])} for page in queries.indexable_pages()]


@bp.get("/sitemap.xml")
@cache_page
def sitemap():
    """sitemap.xml: every indexable page with the date it last changed."""
    xml = render_template("sitemap/sitemap.xml", entries=sitemap_entries())
    return Response(xml, mimetype="application/xml")


@bp.get("/robots.txt")
@cache_page
def robots():
    """robots.txt: crawlers kept off the thank-you and staff pages, pointed to the sitemap."""
    disallowed = "".join(f"Disallow: {path}\n" for path in ("/sell/thanks", "/staff"))
    body = f"User-agent: *\n{disallowed}\nSitemap: {absolute('/sitemap.xml')}\n"
    return Response(body, mimetype="text/plain")
