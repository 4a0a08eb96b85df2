"""Every content page: its sections, metadata, structured data and links."""

import json
import re
from html.parser import HTMLParser
from urllib.parse import unquote, urljoin, urlparse

import pytest

from tests.helpers import ROOT

CONTENT_PAGES = [
    "/",
    "/watch-authentication",
    "/terms",
    "/privacy",
    "/blog",
    "/blog/complete-guide-watch-condition-grading",
    "/sell-watch-new-york",
    "/sell-watch-boston",
    "/sell-rolex-watch",
    "/sell-cartier-watch",
]


class PageParser(HTMLParser):
    """Collects what the metadata tests look at: head tags, h1s, links and JSON-LD."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[str] = []
        self.canonical = None
        self.h1_count = 0
        self.json_ld: list[dict] = []
        self._in_json_ld = False
        self._title = None
        self.title = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and ("name" in attrs or "property" in attrs):
            self.meta[attrs.get("name") or attrs["property"]] = attrs.get("content", "")
        elif tag == "link" and attrs.get("rel") == "canonical":
            self.canonical = attrs["href"]
        elif tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        elif tag == "h1":
            self.h1_count += 1
        elif tag == "script" and attrs.get("type") == "application/ld+json":
            self._in_json_ld = True
        elif tag == "title":
            self._title = []

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_json_ld = False
        elif tag == "title" and self._title is not None:
            self.title = "".join(self._title)
            self._title = None

    def handle_data(self, data):
        if self._in_json_ld:
            self.json_ld.append(json.loads(data))
        elif self._title is not None:
            self._title.append(data)


def parse(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    parser = PageParser()
    parser.feed(response.get_data(as_text=True))
    return parser


@pytest.mark.parametrize("path", CONTENT_PAGES)
def test_page_has_one_h1_title_description_canonical_and_social_tags(client, path):
    page = parse(client, path)
    assert page.h1_count == 1
    assert page.title
    assert 0 < len(page.meta["description"]) <= 160
    assert page.canonical == "http://127.0.0.1:5000" + path
    for tag in ("og:title", "og:description", "og:url", "og:image", "twitter:card"):
        assert page.meta[tag], tag
    assert page.meta["og:image"].startswith("http://127.0.0.1:5000/static/img/art/")


def test_titles_and_descriptions_are_unique(client):
    pages = [parse(client, path) for path in CONTENT_PAGES]
    titles = [page.title for page in pages]
    descriptions = [page.meta["description"] for page in pages]
    assert len(set(titles)) == len(titles)
    assert len(set(descriptions)) == len(descriptions)


def test_canonical_url_ignores_the_request_host(client):
    html = client.get("/", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in html


def types_of(page) -> dict[str, dict]:
    return {block["@type"]: block for block in page.json_ld}


def test_home_has_organization_and_website_data_without_ratings(client):
    blocks = types_of(parse(client, "/"))
    organization = blocks["Organization"]
    assert organization["name"] == "US Watch Buyers"
    assert organization["contactPoint"]["hoursAvailable"]["opens"] == "09:00"
    assert organization["contactPoint"]["hoursAvailable"]["closes"] == "17:00"
    assert blocks["WebSite"]["url"] == "http://127.0.0.1:5000/"
    assert "aggregateRating" not in json.dumps(blocks)


def test_city_page_describes_the_service_in_that_city_without_an_address(client):
    blocks = types_of(parse(client, "/sell-watch-boston"))
    service = blocks["Service"]
    city, circle = service["areaServed"]
    assert city["name"] == "Boston"
    assert city["geo"]["latitude"] == pytest.approx(42.36, abs=0.1)
    assert service["provider"]["@id"].endswith("/#organization")
    assert "address" not in json.dumps(service)
    crumbs = blocks["BreadcrumbList"]["itemListElement"]
    assert [c["position"] for c in crumbs] == [1, 2]


def test_city_service_area_is_the_50_mile_circle_round_the_city_centre(client):
    service = types_of(parse(client, "/sell-watch-seattle"))["Service"]
    city, circle = service["areaServed"]
    assert circle["@type"] == "GeoCircle"
    assert circle["geoMidpoint"] == city["geo"]
    assert circle["geoMidpoint"]["latitude"] == pytest.approx(47.61, abs=0.1)
    assert circle["geoRadius"] == 80467  # 50 miles in metres
    assert "50 miles" in circle["description"]


def test_brand_page_has_two_structured_data_blocks(client):
    page = parse(client, "/sell-patek-philippe-watch")
    assert [block["@type"] for block in page.json_ld] == ["Service", "BreadcrumbList"]
    assert page.json_ld[0]["brand"]["name"] == "Patek Philippe"
    assert page.json_ld[0]["description"]


def test_article_has_blog_posting_and_breadcrumb(client):
    page = parse(client, "/blog/authenticate-vintage-omega-speedmaster")
    blocks = types_of(page)
    posting = blocks["BlogPosting"]
    assert posting["datePublished"] == "2025-01-06"
    for key in ("headline", "image", "dateModified", "author"):
        assert posting[key], key
    names = [item["name"] for item in blocks["BreadcrumbList"]["itemListElement"]]
    assert names[:2] == ["Home", "Blog"]
    assert page.title.endswith("| US Watch Buyers Blog")
    assert page.meta["og:type"] == "article"


def test_home_has_every_section_the_spec_lists(client):
    html = client.get("/").get_data(as_text=True)
    for text in (
        "Get Your Free Valuation",
        "100% Secure",
        "Same-Day Payment",
        "USA Wide",
        "Best Prices",
        "Movement Verification",
        "People Also Ask",
        "Get a Free Quote",
        "Speak to Expert",
        "How to Sell Your Luxury Watch",
    ):
        assert text in html, text
    assert html.count('href="/sell-watch-') >= 8 + 13  # grid of 8 plus the footer's 13
    assert "after-first-paint-on-phone" in html  # the hero: on a phone, after the text paints
    assert 'sizes="(max-width: 639px) calc(100vw - 2rem), 600px"' in html
    assert 'href="/sell-cartier-watch"' in html  # footer and menu, not the home grid
    assert "https://www.omegawatches.com/" in html


def test_logo_is_drawn_from_the_page_itself(client):
    """Header, footer and the tab's icon take the logo from a data: URI in the page, so the
    page asks for no file before its first paint but its stylesheet and pictures."""
    html = client.get("/").get_data(as_text=True)
    svg = (ROOT / "app" / "static" / "img" / "logo.svg").read_text()
    logo = unquote(re.search(r'<link rel="icon" href="data:image/svg\+xml,([^"]+)"', html)[1])
    assert logo.split() == svg.split()
    assert html.count("data:image/svg+xml,") >= 3  # icon, header (and its props), footer
    assert not re.search(r'(src|href)="[^"]*logo\.svg"', html)  # structured data still names it


def test_home_city_grid_shows_only_the_first_eight_cities(client):
    html = client.get("/").get_data(as_text=True)
    grid = html.split('id="cities"')[1].split("</section>")[0]
    assert grid.count('href="/sell-watch-') == 8
    assert "/sell-watch-seattle" not in grid


def test_city_page_links_four_other_cities_never_itself(client):
    html = client.get("/sell-watch-seattle").get_data(as_text=True)
    others = html.split('id="other-cities"')[1].split("</section>")[0]
    links = re.findall(r'href="(/sell-watch-[\w-]+)"', others)
    assert len(links) == 4
    assert "/sell-watch-seattle" not in links


def test_brand_page_lists_eight_models_and_links_to_prefilled_form(client):
    html = client.get("/sell-fp-journe-watch").get_data(as_text=True)
    models = html.split('id="models"')[1].split("</section>")[0]
    assert models.count("<li") == 8
    assert 'href="/sell?brand=F.P.%20Journe"' in html
    assert "20-35%" in html and "24-48h" in html and "100%" in html


def test_legal_pages_show_last_updated_and_required_sections(client):
    terms = client.get("/terms").get_data(as_text=True)
    for heading in ("Agreement Overview", "Payment Terms", "Dispute Resolution"):
        assert heading in terms
    privacy = client.get("/privacy").get_data(as_text=True)
    for heading in ("Information We Collect", "Cookies", "Your Privacy Rights"):
        assert heading in privacy
    assert "Last updated November 2026" in terms and "Last updated November 2026" in privacy


def test_blog_index_filters_on_the_server_and_features_the_first_post(client):
    html = client.get("/blog?category=selling-guides").get_data(as_text=True)
    props = json.loads(re.search(r'data-island-props="blogfilter-1">(.*?)</script>', html).group(1))
    assert props["active"] == "selling-guides"
    markup = html.split('data-island="BlogFilter"')[1].split("data-island-props")[0]
    featured = markup.split("Featured article")[1].split("More articles")[0]
    assert "where-to-sell-rolex-usa-2025-guide" in featured
    assert markup.count("<article") == 2
    assert "/blog/luxury-watch-market-usa" not in markup


def test_blog_index_chips_are_all_posts_and_each_category(client):
    html = client.get("/blog").get_data(as_text=True)
    chips = re.findall(r'href="/blog(?:\?category=([\w-]+))?"[^>]*>([^<]+)</a>', html)
    labels = [label for _slug, label in chips]
    assert labels[0] == "All Posts"
    assert "Selling Guides" in labels and "Education" in labels


def test_unknown_blog_category_shows_all_posts(client):
    html = client.get("/blog?category=nonsense").get_data(as_text=True)
    assert html.count('<article class="group relative') == 8


def test_article_shows_every_element_the_spec_lists(client):
    html = client.get("/blog/where-to-sell-rolex-usa-2025-guide").get_data(as_text=True)
    assert "15 January 2025" in html
    assert re.search(r"\d+ min read", html)
    assert "Ready to Sell Your Luxury Watch?" in html
    assert "Get Your Free Valuation" in html
    assert "Related Articles" in html
    related = html.split("Related Articles")[1]
    assert "/blog/luxury-watch-market-usa" in related
    assert "/blog/authenticate-vintage-omega-speedmaster" in related


def test_related_articles_never_show_the_current_article(client):
    html = client.get("/blog/luxury-watch-market-usa").get_data(as_text=True)
    related = html.split("Related Articles")[1]
    assert "/blog/luxury-watch-market-usa" not in related
    assert related.count('<article class="group relative') == 2


def test_unknown_article_says_not_found_with_404(client):
    response = client.get("/blog/no-such-article")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Article Not Found" in html
    assert 'href="/blog"' in html and "Back to Blog" in html


def test_faq_accordions_are_one_island_with_native_exclusive_details(client):
    html = client.get("/sell-watch-miami").get_data(as_text=True)
    assert 'data-island="FaqAccordion"' in html
    assert html.count('<details name="city-faq"') == 6


def test_sitemap_lists_every_indexable_page_with_lastmod(client):
    xml = client.get("/sitemap.xml").get_data(as_text=True)
    locations = re.findall(r"<loc>([^<]+)</loc>", xml)
    assert len(locations) == 6 + 7 + 13 + 8
    assert xml.count("<lastmod>") == len(locations)
    for location in locations:
        path = urlparse(location).path
        assert client.get(path).status_code == 200, path


def test_robots_points_to_the_sitemap(client):
    body = client.get("/robots.txt").get_data(as_text=True)
    assert "Sitemap: http://127.0.0.1:5000/sitemap.xml" in body


def test_crawl_from_home_finds_no_broken_internal_link(client):
    seen, queue = set(), ["/"]
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        assert response.status_code == 200, f"{path} answered {response.status_code}"
        if "text/html" not in response.content_type:
            continue
        parser = PageParser()
        parser.feed(response.get_data(as_text=True))
        for href in parser.links:
            url = urlparse(urljoin("http://127.0.0.1:5000" + path, href))
            if url.netloc == "127.0.0.1:5000" and url.scheme in ("http", "https"):
                queue.append(url.path + (f"?{url.query}" if url.query else ""))
    assert len(seen) > 40
