"""While the sale by mail is offered, the home page, the header's services menu and every city
(and brand) page link to the page that explains it, and the city pages say "nationwide" as the
home page does; with it off, no page links to it."""

from __future__ import annotations

import re

import pytest

from app.content import queries

BADGE_LINK = re.compile(r'<a href="/sell-by-mail"[^>]*>How selling by mail works')
NATIONWIDE = "We buy nationwide: by insured mail from anywhere in the 50 states and DC"


def landing_paths(app) -> list[str]:
    with app.app_context():
        cities = [f"/sell-watch-{city['key']}" for city in queries.cities()]
        brands = [f"/{brand['url_slug']}" for brand in queries.brands()]
    assert len(cities) == 13 and brands
    return cities + brands


@pytest.fixture(scope="module")
def mailin_client(make_app):
    return make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000").test_client()


def header(html: str) -> str:
    return html.split("<header", 1)[1].split("</header>", 1)[0]


def test_home_and_header_link_to_the_sale_by_mail(mailin_client):
    html = mailin_client.get("/").get_data(as_text=True)
    assert BADGE_LINK.search(html) and NATIONWIDE in html
    assert 'href="/sell-by-mail"' in header(html)


def test_every_city_and_brand_page_links_to_it_and_says_nationwide(mailin_client):
    for path in landing_paths(mailin_client.application):
        response = mailin_client.get(path)
        html = response.get_data(as_text=True)
        assert response.status_code == 200, path
        assert BADGE_LINK.search(html), path
        assert NATIONWIDE in html, path
        assert 'href="/sell-by-mail"' in header(html), path


def test_with_it_off_no_page_links_to_it(client, app):
    for path in ["/", "/sell", *landing_paths(app)]:
        html = client.get(path).get_data(as_text=True)
        assert "/sell-by-mail" not in html, path
        assert "How selling by mail works" not in html and "nationwide" not in html, path
