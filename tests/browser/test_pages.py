"""Every page type in Chromium at phone and desktop widths: no console, hydration or axe errors;
the FAQ accordion and blog filter with and without JavaScript."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    DESKTOP,
    MOBILE,
    HeldScripts,
    axe_violations,
    open_page,
    visit,
)

PAGE_TYPES = {
    "home": "/",
    "city": "/sell-watch-chicago",
    "brand": "/sell-audemars-piguet-watch",
    "authentication": "/watch-authentication",
    "terms": "/terms",
    "privacy": "/privacy",
    "blog": "/blog",
    "blog filtered": "/blog?category=authentication",
    "article": "/blog/complete-guide-watch-condition-grading",
    "unknown article": "/blog/no-such-article",
    "not found": "/no-such-page",
}


PAGE_WIDTH = "document.documentElement.scrollWidth"


def scroll_through(page) -> None:
    """Scroll like a reader, so lazy images load and 'visible' islands hydrate."""
    page.evaluate(
        """async () => {
          for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
            window.scrollTo(0, y);
            await new Promise((resolve) => setTimeout(resolve, 30));
          }
        }"""
    )
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["375px", "1280px"])
@pytest.mark.parametrize("path", PAGE_TYPES.values(), ids=PAGE_TYPES.keys())
def test_page_has_no_errors_and_no_accessibility_violations(browser, live_server, path, viewport):
    context, page = open_page(browser, live_server, viewport)
    visit(page, live_server, path)
    widths = [page.evaluate(PAGE_WIDTH)]  # as first shown, parts below not laid out yet
    scroll_through(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-island]')].every((el) => el.dataset.hydrated)"
    )
    widths.append(page.evaluate(PAGE_WIDTH))
    violations = axe_violations(page)
    broken_images = page.locator("[data-image][data-failed]").count()
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not violations, "\n".join(violations)
    assert broken_images == 0
    assert widths == [viewport["width"]] * 2  # nothing scrolls sideways


NOT_CONTENT = ("unknown article", "not found")
CONTENT_PAGES = [path for name, path in PAGE_TYPES.items() if name not in NOT_CONTENT]
# When the page had both loaded and painted (a slow main thread may paint after the load event).
LOADED_AND_PAINTED = """() => performance.timeOrigin + Math.max(
  performance.getEntriesByType('navigation')[0].loadEventStart,
  performance.getEntriesByName('first-paint')[0].startTime)"""


@pytest.mark.parametrize("path", [*CONTENT_PAGES, "/sell"])
def test_pages_request_no_script_before_they_have_loaded_and_painted(page, live_server, path):
    """From the network log: until the page has loaded and painted, it asks for no script at
    all. The inline bootstrap imports the runtime after that (or at a visitor's interaction),
    and the runtime the islands' code, the sell form's included."""
    requests = []
    page.on("requestfinished", lambda request: requests.append(request))
    visit(page, live_server, path)
    loaded_and_painted = page.evaluate(LOADED_AND_PAINTED)
    scripts = [request for request in requests if request.url.endswith(".js")]
    early = [r.url.rsplit("/", 1)[1] for r in scripts if r.timing["startTime"] < loaded_and_painted]
    assert early == []
    assert any("/runtime-" in request.url for request in scripts)
    assert any("/react-" in request.url for request in scripts)  # and the islands hydrated after


@pytest.mark.parametrize("path", ["/", "/blog", "/sell"])
def test_no_island_code_runs_before_the_first_paint(page, live_server, path):
    visit(page, live_server, path)
    first_paint, islands_start = page.evaluate(
        """() => [
            performance.getEntriesByName('first-paint')[0].startTime,
            performance.getEntriesByName('islands:start')[0].startTime,
        ]"""
    )
    assert islands_start >= first_paint


def faq_items(page):
    return page.locator("[data-island=FaqAccordion] details")


def test_faq_opens_one_item_at_a_time_and_collapses(page, live_server):
    visit(page, live_server, "/sell-rolex-watch")
    items = faq_items(page)
    items.nth(0).locator("summary").scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('[data-island=FaqAccordion]').dataset.hydrated"
    )
    items.nth(0).locator("summary").click()
    expect(items.nth(0)).to_have_attribute("open", "")
    items.nth(1).locator("summary").click()
    expect(items.nth(1)).to_have_attribute("open", "")
    expect(items.nth(0)).not_to_have_attribute("open", "")
    items.nth(1).locator("summary").click()
    expect(page.locator("[data-island=FaqAccordion] details[open]")).to_have_count(0)


def test_faq_is_keyboard_operable(page, live_server):
    visit(page, live_server, "/")
    summary = faq_items(page).nth(0).locator("summary")
    summary.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('[data-island=FaqAccordion]').dataset.hydrated"
    )
    summary.focus()
    page.keyboard.press("Enter")
    expect(faq_items(page).nth(0)).to_have_attribute("open", "")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    expect(faq_items(page).nth(1)).to_have_attribute("open", "")
    expect(faq_items(page).nth(0)).not_to_have_attribute("open", "")


def test_faq_opened_before_it_hydrates_stays_open_when_it_does(page, live_server):
    held = HeldScripts(page)
    page.goto(live_server.url + "/sell-rolex-watch")
    item = faq_items(page).nth(1)
    item.locator("summary").click()  # native <details>: the FAQ's code is still held
    expect(item).to_have_attribute("open", "")
    held.wait_for("FaqAccordion")
    held.release()
    expect(page.locator("[data-island=FaqAccordion]")).to_have_attribute("data-hydrated", "true")
    expect(item).to_have_attribute("open", "")
    item.locator("summary").click()  # the island knows it is open: this click closes it
    expect(item).not_to_have_attribute("open", "")


def test_faq_works_with_javascript_off(no_js_page, live_server):
    page = no_js_page
    page.goto(live_server.url + "/sell-watch-dallas")
    items = faq_items(page)
    items.nth(2).locator("summary").click()
    expect(items.nth(2)).to_have_attribute("open", "")
    items.nth(3).locator("summary").click()
    expect(items.nth(3)).to_have_attribute("open", "")
    expect(items.nth(2)).not_to_have_attribute("open", "")


def featured_title(page) -> str:
    return page.locator("[data-island=BlogFilter] article").first.locator("h3").inner_text()


def test_blog_filter_filters_in_place_and_keeps_url_in_step(page, live_server):
    visit(page, live_server, "/blog")
    page.wait_for_function(
        "() => document.querySelector('[data-island=BlogFilter]').dataset.hydrated"
    )
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("link", name="Education", exact=True).click()
    expect(page).to_have_url(live_server.url + "/blog?category=education")
    assert page.evaluate("window.__sameDocument") is True
    expect(page.locator("[data-island=BlogFilter] article")).to_have_count(1)
    assert "Grading" in featured_title(page)
    page.get_by_role("link", name="Selling Guides", exact=True).click()
    expect(page.locator("[data-island=BlogFilter] article")).to_have_count(2)
    page.go_back()
    expect(page).to_have_url(live_server.url + "/blog?category=education")
    expect(page.locator("[data-island=BlogFilter] article")).to_have_count(1)
    page.get_by_role("link", name="All Posts").click()
    expect(page.locator("[data-island=BlogFilter] article")).to_have_count(8)
    assert page.evaluate("window.__sameDocument") is True


def test_blog_filter_works_with_javascript_off(no_js_page, live_server):
    page = no_js_page
    page.goto(live_server.url + "/blog")
    page.get_by_role("link", name="Investment", exact=True).click()
    expect(page).to_have_url(live_server.url + "/blog?category=investment")
    expect(page.locator("[data-island=BlogFilter] article")).to_have_count(1)
    expect(page.get_by_role("link", name="Investment", exact=True)).to_have_attribute(
        "aria-current", "page"
    )


def test_failed_image_shows_failed_state(browser, live_server):
    context, page = open_page(browser, live_server, DESKTOP)
    page.route("**/static/img/art/hero-watch-*", lambda route: route.abort())
    page.goto(live_server.url + "/")
    expect(page.locator("[data-image][data-failed]").first).to_be_visible()
    expect(page.get_by_text("Failed to load image").first).to_be_visible()
    context.close()


HERO_FETCH_AND_FIRST_PAINT = """() => [
  performance.getEntriesByType('resource').find((entry) => entry.name.includes('/hero-watch-'))
    .startTime,
  performance.getEntriesByName('first-contentful-paint')[0].startTime,
]"""


def wait_for_the_home_hero(page) -> None:
    """Until the home page's hero picture is shown and its file has loaded."""
    hero = page.locator("main section:first-of-type picture img")
    expect(hero).to_be_visible()
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=hero.element_handle()
    )


def test_a_phone_asks_for_the_home_hero_only_once_its_text_has_painted(mobile_page, live_server):
    """On a phone the hero sits below its text, the largest paint; a request started before
    that paint would count towards it in Lighthouse's simulation."""
    visit(mobile_page, live_server, "/")
    wait_for_the_home_hero(mobile_page)
    fetched, first_paint = mobile_page.evaluate(HERO_FETCH_AND_FIRST_PAINT)
    assert fetched >= first_paint


def test_a_phone_without_javascript_shows_the_home_hero(no_js_mobile_page, live_server):
    no_js_mobile_page.goto(live_server.url + "/")
    wait_for_the_home_hero(no_js_mobile_page)


def card_picture_requests(page) -> list[str]:
    """The article pictures the page has asked for so far (file names)."""
    names = page.evaluate(
        "performance.getEntriesByType('resource').map((entry) => entry.name)"
        ".filter((name) => name.includes('/article-'))"
    )
    return [name.rsplit("/", 1)[1] for name in names]


def test_a_phone_asks_for_no_card_picture_before_the_blog_paints(mobile_page, live_server):
    page = mobile_page
    held = HeldScripts(page)  # the page paints and loads; the island waits for its code
    page.goto(live_server.url + "/blog")
    page.wait_for_load_state("load")
    held.wait_for("BlogFilter")
    page.wait_for_timeout(300)
    assert card_picture_requests(page) == []  # the featured card's neither
    expect(page.locator(".post-grid article").first).to_be_visible()  # a list, text first
    held.release()
    page.wait_for_function(
        "() => document.querySelector('[data-island=BlogFilter]').dataset.hydrated"
    )
    expect(page.locator("[data-island=BlogFilter] article picture img").first).to_be_visible()


def test_on_a_phone_the_blog_list_shows_small_pictures_once_hydrated(mobile_page, live_server):
    page = mobile_page
    visit(page, live_server, "/blog")
    page.wait_for_function(
        "() => document.querySelector('[data-island=BlogFilter]').dataset.hydrated"
    )
    scroll_through(page)
    pictures = page.locator(".post-grid article [data-image]")
    expect(pictures.first).to_be_visible()
    box = pictures.first.bounding_box()
    assert 90 <= box["width"] <= 100 and abs(box["width"] - box["height"]) < 2  # a 6rem square
    links = page.locator(".post-grid article h3 a").all()
    slugs = [link.get_attribute("href").rsplit("/", 1)[1] for link in links]
    listed = [name for name in card_picture_requests(page) if any(s in name for s in slugs)]
    widths = {int(re.search(r"-(\d+)\.\w+$", name).group(1)) for name in listed}
    assert widths == {600}  # each list picture's smallest file, never a card's 700 px one


def test_the_blog_loaded_wide_then_narrowed_never_scrolls_sideways(page, live_server):
    page.set_viewport_size(DESKTOP)
    visit(page, live_server, "/blog")
    scroll_through(page)
    page.set_viewport_size(MOBILE)
    for y in range(0, page.evaluate("document.body.scrollHeight"), 300):
        page.evaluate(f"window.scrollTo(0, {y})")
        assert page.evaluate(PAGE_WIDTH) <= MOBILE["width"], y
