from flask import Blueprint, render_template

from app.content import queries
from app.rendering import seo
from app.rendering.layout import brand_links, city_links, site_info
from app.rendering.page_cache import cache_page

bp = Blueprint("pages", __name__)

HOME_CITY_COUNT = 8


@bp.get("/")
@cache_page
def home():
    """The home page, with the brands marked for it and the first HOME_CITY_COUNT cities."""
    site = site_info()
    home = queries.document("home")
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
    )


@bp.get("/watch-authentication")
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


def legal_page(name: str, path: str):
    """A legal document of content/pages/ at `path`, in the shared legal template."""
    page = queries.document(f"page:{name}")
    meta = seo.PageMeta(
        title=f"{page['title']} | {site_info()['name']}",
        description=page["meta_description"],
        path=path,
    )
    return render_template("pages/legal.html", meta=meta, page=page)


@bp.get("/terms")
@cache_page
def terms():
    """The terms page (content/pages/terms.toml)."""
    return legal_page("terms", "/terms")


@bp.get("/privacy")
@cache_page
def privacy():
    """The privacy policy page (content/pages/privacy.toml)."""
    return legal_page("privacy", "/privacy")
