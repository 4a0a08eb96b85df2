from flask import Blueprint, Response, render_template

from app.content import queries
from app.rendering.page_cache import cache_page
from app.rendering.seo import absolute

bp = Blueprint("sitemap", __name__)


def sitemap_entries() -> list[dict]:
    """(path, lastmod) for every indexable page; the sell success page is deliberately absent."""
    dates = queries.document_dates()
    articles = queries.articles()
    entries = [
        {"path": "/", "lastmod": dates["home"]},
        {"path": "/sell", "lastmod": dates["site"]},
        {"path": "/watch-authentication", "lastmod": dates["page:watch-authentication"]},
        {"path": "/blog", "lastmod": max([dates["blog"]] + [a["updated"] for a in articles])},
        {"path": "/terms", "lastmod": dates["page:terms"]},
        {"path": "/privacy", "lastmod": dates["page:privacy"]},
    ]
    entries += [{"path": f"/{b['url_slug']}", "lastmod": b["updated"]} for b in queries.brands()]
    entries += [
        {"path": f"/sell-watch-{c['key']}", "lastmod": c["updated"]} for c in queries.cities()
    ]
    entries += [{"path": f"/blog/{a['slug']}", "lastmod": a["updated"]} for a in articles]
    return [{**entry, "loc": absolute(entry["path"])} for entry in entries]


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
