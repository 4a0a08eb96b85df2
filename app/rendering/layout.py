"""What every page's shell needs: site constants, header island props and footer lists."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import lru_cache, wraps
from pathlib import Path
from urllib.parse import quote

from flask import current_app, g, request

from app.content import queries


def once_per_request(build: Callable[[], object]) -> Callable[[], object]:
    """Views and the layout both need these; build each once per request, kept in `g`."""
    key = f"layout_{build.__name__}"

    @wraps(build)
    def cached():
        """The value built for this request, building it on first use."""
        if key not in g:
            setattr(g, key, build())
        return getattr(g, key)

    return cached


# The settings that change what content entries say, by the prefix of their keys' variants.
VARIANTS = {"mailin_": "MAILIN_ENABLED", "payouts_": "PAYOUT_PROVIDER"}


def as_configured(items: list[dict]) -> list[dict]:
    """Content entries as the settings have them: an entry marked `mailin = true` only while
    MAILIN_ENABLED is on; then, while a setting of VARIANTS is on, an entry's `<prefix><key>` in
    place of (or beside) its `<key>`. So `mailin_text` is a badge's `text` only while the site
    buys by mail (it says "nationwide" then), `mailin_link` a link to the page that explains it,
    and `payouts_title` and `payouts_body` say "instant" only while the bank's API sends the
    payouts."""
    config = current_app.config
    on = [prefix for prefix, setting in VARIANTS.items() if config[setting]]
    return [
        item
        | {
            key.removeprefix(prefix): value
            for prefix in on
            for key, value in item.items()
            if key.startswith(prefix)
        }
        for item in items
        if config["MAILIN_ENABLED"] or not item.get("mailin")
    ]


@once_per_request
def site_info() -> dict:
    """Configured identity (name, phone, e-mail) merged with the seeded site-wide words; the
    links to the sale by mail's page as its setting has them (as_configured)."""
    config = current_app.config
    words = dict(queries.site())  # a copy: the content may be cached for the process
    for links in ("services", "quick_links"):
        words[links] = as_configured(words[links])
    return {
        **words,
        "name": config["SITE_NAME"],
        "url": config["SITE_URL"].rstrip("/"),
        "phone": config["SITE_PHONE"],
        "phone_href": "tel:" + config["SITE_PHONE_E164"],
        "email": config["SITE_EMAIL"],
        "email_href": "mailto:" + config["SITE_EMAIL"],
        "social_profile_url": config["SOCIAL_PROFILE_URL"],
    }


@once_per_request
def brand_links() -> list[dict]:
    """Every brand as a link, for the header, the footer and the home page."""
    return [
        {
            "name": brand["name"],
            "url": "/" + brand["url_slug"],
            "tagline": brand["tagline"],
            "popular": bool(brand["popular"]),
            "on_home": bool(brand["on_home"]),
        }
        for brand in queries.brands()
    ]


@once_per_request
def city_links() -> list[dict]:
    """Every city as a link, for the header, the footer and the home page."""
    return [
        {"name": city["city"], "state": city["state"], "url": f"/sell-watch-{city['key']}"}
        for city in queries.cities()
    ]


LOGO_FILE = Path(__file__).resolve().parents[1] / "static" / "img" / "logo.svg"


@lru_cache(maxsize=1)
def logo_src() -> str:
    """The logo (app/static/img/logo.svg) as a data: URI, about 350 bytes of gzip in the page.
    Header, footer and the tab's icon draw it from the page itself: as a file, it was one more
    request beside the stylesheet and the largest picture before the first paint, which
    Lighthouse counts in the largest paint's time. Spaces are escaped too (%20): a URL may hold
    none, and the HTML checker (tests/rendering/test_valid_html.py) counts each as an error."""
    svg = " ".join(LOGO_FILE.read_text(encoding="utf-8").split())
    return "data:image/svg+xml," + quote(svg, safe="/=:'.,-")


def header_props(site: dict, brands: list[dict], cities: list[dict]) -> dict:
    """The Header island's props: site name, phone, menus and which page is current."""
    return {
        "siteName": site["name"],
        "logoUrl": logo_src(),
        "phone": site["phone"],
        "phoneHref": site["phone_href"],
        "brands": brands,
        "cities": cities,
        "services": site["services"],
        "isHome": request.path == "/",
        "isSell": request.path == "/sell",
    }


def layout_context() -> dict:
    """What every template gets (a context processor): site, menus, header props, year."""
    site = site_info()
    brands = brand_links()
    cities = city_links()
    return {
        "site": site,
        "nav_brands": brands,
        "nav_cities": cities,
        "header_props": header_props(site, brands, cities),
        "logo_src": logo_src(),
        "current_year": date.today().year,
    }
