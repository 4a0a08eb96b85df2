"""The public pages: home, authentication services, the legal pages, the city and brand landing
pages, and the sitemap and robots.txt (their URLs are app/pages/routes.py's). Every one is the
same for every visitor, so each is page-cached and frozen for nginx (app/rendering/page_cache.py).
"""

from __future__ import annotations

from flask import Response, abort, current_app, redirect, render_template

from app.content import queries
from app.content.loader import fill_tokens
from app.prices import coverage
from app.rendering import seo
from app.rendering.landing import render_landing_page
from app.rendering.layout import as_configured, brand_links, city_links, site_info
from app.rendering.page_cache import cache_page
from app.rendering.seo import absolute

HOME_CITY_COUNT = 8
OTHER_CITY_COUNT = 4


@cache_page
def home():
    """The home page, with the brands marked for it and the first HOME_CITY_COUNT cities."""
    site = site_info()
    home = queries.document("home")
    home = home | {"trust_badges": as_configured(home["trust_badges"])}
    meta = seo.PageMeta(
        title=home["meta"]["title"],
        description=home["meta"]["description"],
        path="/",
        structured_data=[seo.organization(site), seo.website(site)],
    )
    return render_template(
        "pages/home.html",
        meta=meta,
        home=home,
        home_brands=[brand for brand in brand_links() if brand["on_home"]],
        home_cities=city_links()[:HOME_CITY_COUNT],
        instant_valuation=coverage.is_on(),
    )


@cache_page
def authentication():
    """The watch authentication page."""
    page = queries.document("page:watch-authentication")
    meta = seo.PageMeta(
        title=page["meta_title"],
        description=page["meta_description"],
        path="/watch-authentication",
        image="auth-inspection",
        structured_data=[seo.breadcrumbs(("Watch Authentication", "/watch-authentication"))],
    )
    return render_template("pages/authentication.html", meta=meta, page=page)


@cache_page
def sell_by_mail():
    """The sale by mail explained (insurance, packing, the return), only while MAILIN_ENABLED
    is on: the page promises a label the business then buys. The policy's limit and the days
    a label lives are the settings', filled in here, not at seed."""
    config = current_app.config
    if not config["MAILIN_ENABLED"]:
        abort(404)
    settings = {
        "mailin_limit": f"${config['MAILIN_MAX_VALUE']:,}",
        "mailin_void_days": str(config["MAILIN_LABEL_VOID_DAYS"]),
    }
    page = fill_tokens(queries.document("page:sell-by-mail"), settings)
    meta = seo.PageMeta(
        title=page["meta_title"],
        description=page["meta_description"],
        path="/sell-by-mail",
        structured_data=[
            seo.breadcrumbs(("Sell by Mail", "/sell-by-mail")),
            seo.faq_page(page["faqs"]),
        ],
    )
    return render_template("pages/sell_by_mail.html", meta=meta, page=page)


def legal_page(name: str, path: str):
    """A legal document of content/pages/ at `path`, in the shared legal template."""
    page = queries.document(f"page:{name}")
    page = page | {"sections": as_configured(page["sections"])}
    meta = seo.PageMeta(
        title=f"{page['title']} | {site_info()['name']}",
        description=page["meta_description"],
        path=path,
    )
    return render_template("pages/legal.html", meta=meta, page=page)


@cache_page
def terms():
    """The terms page (content/pages/terms.toml)."""
    return legal_page("terms", "/terms")


@cache_page
def privacy():
    """The privacy policy page (content/pages/privacy.toml)."""
    return legal_page("privacy", "/privacy")


def other_cities(slug: str) -> list[dict]:
    """The next cities after this one in menu order, wrapping round, so links spread evenly."""
    cities = city_links()
    index = next(i for i, city in enumerate(cities) if city["url"] == f"/sell-watch-{slug}")
    following = cities[index + 1 :] + cities[:index]
    return following[:OTHER_CITY_COUNT]


@cache_page
def city(slug: str):
    """An unknown city goes to /404 rather than answering in place (docs/architecture.md)."""
    record = queries.city(slug)
    if record is None:
        return redirect("/404")
    path = f"/sell-watch-{slug}"
    return render_landing_page(
        "pages/city.html",
        record,
        path=path,
        crumb=f"Sell Your Watch in {record['city']}",
        service=seo.city_service(record, path),
        city=record,
        brands=brand_links(),
        other_cities=other_cities(slug),
    )


@cache_page
def brand(key: str):
    """A brand's landing page (/sell-<key>-watch); 404 for a brand not in content/."""
    record = queries.brand(key)
    if record is None:
        abort(404)
    path = f"/{record['url_slug']}"
    return render_landing_page(
        "pages/brand.html",
        record,
        path=path,
        crumb=f"Sell Your {record['name']}",
        service=seo.brand_service(record, path),
        image=f"brand-{key}",
        brand=record,
    )


def sitemap_entries() -> list[dict]:
    """Every indexable page with its absolute address (loc) and the date it last changed."""
    return [page | {"loc": absolute(page["path"])} for page in queries.indexable_pages()]


@cache_page
def sitemap():
    """sitemap.xml: every indexable page with the date it last changed."""
    xml = render_template("pages/sitemap.xml", entries=sitemap_entries())
    return Response(xml, mimetype="application/xml")


@cache_page
def robots():
    """robots.txt: crawlers kept off the thank-you and staff pages, pointed to the sitemap."""
    disallowed = "".join(f"Disallow: {path}\n" for path in ("/sell/thanks", "/staff"))
    body = f"User-agent: *\n{disallowed}\nSitemap: {absolute('/sitemap.xml')}\n"
    return Response(body, mimetype="text/plain")
