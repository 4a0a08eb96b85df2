"""City landing pages: /sell-watch-<slug>."""

from flask import Blueprint, redirect

from app.content import queries
from app.rendering import seo
from app.rendering.landing import render_landing_page
from app.rendering.layout import brand_links, city_links
from app.rendering.page_cache import cache_page

bp = Blueprint("locations", __name__)

OTHER_CITY_COUNT = 4


def other_cities(slug: str) -> list[dict]:
    """The next cities after this one in menu order, wrapping round, so links spread evenly."""
    cities = city_links()
    index = next(i for i, city in enumerate(cities) if city["url"] == f"/sell-watch-{slug}")
    following = cities[index + 1 :] + cities[:index]
    return following[:OTHER_CITY_COUNT]


@bp.get("/sell-watch-<slug>")
@cache_page
def city(slug: str):
    """An unknown city goes to /404, as the spec asks, rather than answering in place."""
    record = queries.city(slug)
    if record is None:
        return redirect("/404")
    path = f"/sell-watch-{slug}"
    return render_landing_page(
        "locations/city.html",
        record,
        path=path,
        crumb=f"Sell Your Watch in {record['city']}",
        service=seo.city_service(record, path),
        city=record,
        brands=brand_links(),
        other_cities=other_cities(slug),
    )
