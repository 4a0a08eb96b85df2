"""The header island in a real browser: hover, keyboard, side menu, JavaScript off, and the
first click or tap while its code is still on its way."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DESKTOP, MOBILE, HeldScripts, open_page, visit

BRANDS_SUMMARY = "header nav[aria-label=Main] summary:has-text('Watch Brands')"
BRANDS_MENU = "header nav[aria-label=Main] details:has(summary:has-text('Watch Brands'))"
SIDE_SUMMARY = "summary[aria-label='Open menu'], summary[aria-label='Close menu']"
SIDE_MENU = "header details:has(> summary[aria-label])"
# Every change of the menu's `open` state from now on, in order: a flash would show as a close.
WATCH_OPEN = """(details) => {
  window.openStates = [];
  new MutationObserver(() => window.openStates.push(details.open))
    .observe(details, { attributes: true, attributeFilter: ["open"] });
}"""


def test_header_hydrates_without_errors_or_markup_changes(page, no_js_page, live_server):
    no_js_page.goto(live_server.url + "/")
    server_html = no_js_page.inner_html("#header-1")
    visit(page, live_server, "/")
    assert page.get_attribute("#header-1", "data-hydrated") == "true"
    assert page.inner_html("#header-1") == server_html


OPEN_DELAY_MS = 200  # components/hooks/useHoverMenu.js
# When the pointer entered the menu and when it opened, by the page's own clock: a check from
# the test's side that it is "not open yet" races the delay on a busy machine.
TIME_OPENING = """(details) => {
  window.menuTimes = {};
  details.addEventListener("pointerenter", () => {
    window.menuTimes.entered ??= performance.now();
  });
  new MutationObserver(() => { if (details.open) window.menuTimes.opened ??= performance.now(); })
    .observe(details, { attributes: true, attributeFilter: ["open"] });
}"""


def test_brands_menu_opens_on_hover_after_delay_and_closes_on_leave(page, live_server):
    visit(page, live_server, "/")
    menu = page.locator(BRANDS_MENU)
    menu.evaluate(TIME_OPENING)
    page.hover(BRANDS_SUMMARY)
    expect(menu).to_have_attribute("open", "", timeout=1000)
    times = page.evaluate("window.menuTimes")
    assert times["opened"] - times["entered"] >= OPEN_DELAY_MS - 5  # the delay, less rounding
    expect(menu.get_by_role("link", name="Rolex Popular")).to_be_visible()
    page.mouse.move(5, 600)
    expect(menu).not_to_have_attribute("open", "", timeout=1000)


def test_moving_to_next_menu_within_skip_delay_opens_it_at_once(page, live_server):
    visit(page, live_server, "/")
    page.hover(BRANDS_SUMMARY)
    expect(page.locator(BRANDS_MENU)).to_have_attribute("open", "")
    page.hover("header nav[aria-label=Main] summary:has-text('Services')")
    services = page.locator("header nav[aria-label=Main] details:has(summary:has-text('Services'))")
    expect(services).to_have_attribute("open", "", timeout=150)
    expect(page.locator(BRANDS_MENU)).not_to_have_attribute("open", "")


def test_menus_open_by_keyboard_and_close_on_escape(page, live_server):
    visit(page, live_server, "/")
    page.focus(BRANDS_SUMMARY)
    page.keyboard.press("Enter")
    menu = page.locator(BRANDS_MENU)
    expect(menu).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent").startswith("Rolex")
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    assert page.evaluate("document.activeElement.textContent") == "Watch Brands"


def test_services_menu_links_to_authentication_and_blog(page, live_server):
    visit(page, live_server, "/")
    page.click("header nav[aria-label=Main] summary:has-text('Services')")
    links = page.locator(
        "header nav[aria-label=Main] a[href='/watch-authentication'], "
        "header nav[aria-label=Main] a[href='/blog']"
    )
    expect(links).to_have_count(2)


def test_sell_page_shows_secure_indicator_instead_of_sell_now(page, live_server):
    visit(page, live_server, "/sell")
    expect(page.get_by_text("Secure & Encrypted")).to_be_visible()
    expect(page.locator("header a[href='/sell']")).to_have_count(0)


def test_mobile_side_menu_opens_and_closes_on_link_click(mobile_page, live_server):
    page = mobile_page
    visit(page, live_server, "/")
    expect(page.locator("header nav[aria-label=Main]")).to_be_hidden()
    expect(page.get_by_role("link", name="Sell", exact=True)).to_be_visible()
    page.click("summary[aria-label='Open menu']")
    side = page.locator("nav[aria-label=Mobile]")
    expect(side).to_be_visible()
    page.click("nav[aria-label=Mobile] summary:has-text('Locations')")
    page.click("nav[aria-label=Mobile] summary:has-text('Watch Brands')")
    expect(side.get_by_role("link", name="Chicago")).to_be_visible()
    page.click("nav[aria-label=Mobile] summary:has-text('Locations')")
    expect(side.get_by_role("link", name="Chicago")).to_be_hidden()
    expect(side.get_by_role("link", name="Rolex")).to_be_visible()
    side.get_by_role("link", name="Rolex").click()
    page.wait_for_url("**/sell-rolex-watch")
    expect(page.locator("nav[aria-label=Mobile]")).to_be_hidden()


def test_mobile_side_menu_closes_on_escape(mobile_page, live_server):
    page = mobile_page
    visit(page, live_server, "/")
    page.click("summary[aria-label='Open menu']")
    expect(page.locator("nav[aria-label=Mobile]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("nav[aria-label=Mobile]")).to_be_hidden()


def test_side_menu_link_closes_menu_without_navigation_when_same_page(mobile_page, live_server):
    page = mobile_page
    visit(page, live_server, "/")
    page.click("summary[aria-label='Open menu']")
    page.locator("nav[aria-label=Mobile]").get_by_role("link", name="Call").click()
    expect(page.locator("nav[aria-label=Mobile]")).to_be_hidden()


def test_header_menus_work_with_javascript_off(no_js_page, live_server):
    page = no_js_page
    page.goto(live_server.url + "/")
    assert page.locator("script[data-src]").count() == 1  # the bootstrap, not run
    page.click(BRANDS_SUMMARY)
    patek = page.locator(BRANDS_MENU).get_by_role("link", name="Patek Philippe Popular")
    expect(patek).to_be_visible()
    patek.click()
    page.wait_for_url("**/sell-patek-philippe-watch")


def test_side_menu_works_with_javascript_off(no_js_mobile_page, live_server):
    page = no_js_mobile_page
    page.goto(live_server.url + "/")
    page.click("summary[aria-label='Open menu']")
    page.click("nav[aria-label=Mobile] summary:has-text('Locations')")
    page.locator("nav[aria-label=Mobile]").get_by_role("link", name="Seattle").click()
    page.wait_for_url("**/sell-watch-seattle")


def with_broken_logo(route) -> None:
    """The page as served, its logo (a data: URI, drawn from the page itself) not a picture."""
    response = route.fetch()
    html = re.sub(r"data:image/svg\+xml,[^\"]+", "data:image/svg+xml,broken", response.text())
    route.fulfill(response=response, body=html)


def test_logo_hides_itself_when_image_fails(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route(f"{live_server.url}/", with_broken_logo)
    visit(page, live_server, "/")
    expect(page.locator("header img")).to_have_count(0)
    expect(page.get_by_role("link", name="US Watch Buyers, home")).to_be_visible()
    context.close()


def test_not_found_page_in_browser(page, live_server):
    response = visit(page, live_server, "/no-such-page")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Oops! Page not found")
    page.get_by_role("link", name="Return to Home").click()
    page.wait_for_url(live_server.url + "/")


# The first click or tap on a menu, with the header's code loaded, switched off, or on its way.
MENUS = {
    "desktop menu, click": (DESKTOP, BRANDS_SUMMARY, BRANDS_MENU, "click"),
    "side menu, tap": (MOBILE, SIDE_SUMMARY, SIDE_MENU, "tap"),
}


def open_with_first_action(page, summary: str, action: str) -> None:
    getattr(page.locator(summary), action)()


@pytest.mark.parametrize("javascript", ["on", "off"])
@pytest.mark.parametrize("menu", MENUS.values(), ids=MENUS.keys())
def test_first_click_or_tap_opens_the_menu(browser, live_server, menu, javascript):
    viewport, summary, details, action = menu
    context, page = open_page(
        browser, live_server, viewport, javascript == "on", has_touch=action == "tap"
    )
    if javascript == "on":
        visit(page, live_server, "/")
    else:
        page.goto(live_server.url + "/")
    open_with_first_action(page, summary, action)
    expect(page.locator(details)).to_have_attribute("open", "")
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)


@pytest.mark.parametrize("menu", MENUS.values(), ids=MENUS.keys())
def test_first_click_or_tap_while_code_loads_opens_natively_and_the_island_keeps_it_open(
    browser, live_server, menu
):
    viewport, summary, details, action = menu
    context, page = open_page(browser, live_server, viewport, has_touch=action == "tap")
    held = HeldScripts(page)
    page.goto(live_server.url + "/")  # the load event: island code is asked for, and held
    menu_element = page.locator(details)
    menu_element.evaluate(WATCH_OPEN)
    open_with_first_action(page, summary, action)
    expect(menu_element).to_have_attribute("open", "")
    held.wait_for("Header")  # the click itself asked for the island's code, if idleness had not
    assert page.get_attribute("#header-1", "data-hydrated") is None

    held.release()
    expect(page.locator("#header-1")).to_have_attribute("data-hydrated", "true")
    expect(menu_element).to_have_attribute("open", "")
    states = page.evaluate("window.openStates")
    assert states[0] is True and all(states), states  # opened, and never closed since
    open_with_first_action(page, summary, action)  # the island's state is "open": it closes
    expect(menu_element).not_to_have_attribute("open", "")
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
