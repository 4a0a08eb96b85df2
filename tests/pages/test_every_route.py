"""Routing: every page family answers, unknown paths are 404s, old URLs redirect."""

from datetime import date

import pytest

PAGES = [
    "/",
    "/sell",
    "/blog",
    "/blog/luxury-watch-market-usa",
    "/watch-authentication",
    "/terms",
    "/privacy",
    "/sell-watch-new-york",
    "/sell-watch-seattle",
    "/sell-rolex-watch",
    "/sell-fp-journe-watch",
]


@pytest.mark.parametrize("path", PAGES)
def test_page_renders_with_header_and_footer(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-island="Header"' in html
    assert "<footer" in html
    assert "Sell by Location" in html


@pytest.mark.parametrize("path", ["/no-such-page", "/sell-watch", "/blog/x/y", "/sell-omega-watch"])
def test_unmatched_path_renders_not_found_with_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Oops! Page not found" in html
    assert 'href="/"' in html


def test_404_path_renders_not_found_with_404(client):
    response = client.get("/404")
    assert response.status_code == 404
    assert "Oops! Page not found" in response.get_data(as_text=True)


def test_unknown_city_redirects_to_404(client):
    response = client.get("/sell-watch-atlantis")
    assert response.status_code == 302
    assert response.headers["Location"] == "/404"


def test_old_sell_form_url_redirects_permanently_to_sell(client):
    response = client.get("/sell-form")
    assert response.status_code == 301
    assert response.headers["Location"] == "/sell"


def test_footer_lists_every_city_and_brand_and_contact_links(client):
    html = client.get("/").get_data(as_text=True)
    for slug in ("new-york", "boston", "seattle", "san-antonio"):
        assert f'href="/sell-watch-{slug}"' in html
    for slug in ("rolex", "cartier", "fp-journe"):
        assert f'href="/sell-{slug}-watch"' in html
    assert 'href="tel:+12125550147"' in html
    assert 'href="mailto:offers@example.com"' in html
    assert "not affiliated with" in html
    assert "Licensed and insured" in html


def test_footer_copyright_shows_the_current_year(client):
    html = client.get("/terms").get_data(as_text=True)
    assert f"&copy; {date.today().year}" in html
