"""The header island in a real browser: hover, keyboard, side menu, and JavaScript off."""

from playwright.sync_api import expect

from tests.browser.helpers import visit

BRANDS_SUMMARY = "header nav[aria-label=Main] summary:has-text('Watch Brands')"
BRANDS_MENU = "header nav[aria-label=Main] details:has(summary:has-text('Watch Brands'))"


def test_header_hydrates_without_errors_or_markup_changes(page, no_js_page, live_server):
    no_js_page.goto(live_server.url + "/")
    server_html = no_js_page.inner_html("#header-1")
    visit(page, live_server, "/")
    assert page.get_attribute("#header-1", "data-hydrated") == "true"
    assert page.inner_html("#header-1") == server_html


def test_brands_menu_opens_on_hover_after_delay_and_closes_on_leave(page, live_server):
    visit(page, live_server, "/")
    menu = page.locator(BRANDS_MENU)
    page.hover(BRANDS_SUMMARY)
    expect(menu).not_to_have_attribute("open", "")
    expect(menu).to_have_attribute("open", "", timeout=1000)
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
    assert page.locator("script[type=module]").count() == 1
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


def test_logo_hides_itself_when_image_fails(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route("**/static/img/logo.svg", lambda route: route.abort())
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
