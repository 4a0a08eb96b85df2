"""What a page starts after it is shown: the web-vitals console log (after load, when idle) and,
without JavaScript, the Meta pixel's noscript image (only when a pixel id is configured)."""

import time

from tests.browser.helpers import DESKTOP, open_page

VITALS = ("LCP", "CLS", "TTFB", "INP")
PIXEL_ID = "1234567890"
# A transparent 1x1 GIF: what Meta's endpoint answers, served here instead of the real one.
GIF = bytes.fromhex(
    "47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b"
)


def vitals_logged(messages: list[str]) -> dict[str, str]:
    """The latest console line per metric, e.g. {'LCP': '[web-vitals] LCP 412 ms (good)'}."""
    found = {}
    for text in messages:
        if text.startswith("[web-vitals] "):
            found[text.split()[1]] = text
    return found


def wait_for_vitals(page, messages: list[str], names, timeout: float = 15) -> dict[str, str]:
    """Poll with the page's own wait, during which Playwright delivers console events."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        logged = vitals_logged(messages)
        if all(name in logged for name in names):
            return logged
        page.wait_for_timeout(100)
    raise AssertionError(f"logged {sorted(vitals_logged(messages))} of {names}: {messages}")


def test_web_vitals_are_logged_to_the_console_at_start_up(page, live_server):
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.goto(live_server.url + "/")
    logged = wait_for_vitals(page, messages, ("LCP", "CLS", "TTFB"))
    page.locator("h1").click()  # INP needs an interaction
    logged = wait_for_vitals(page, messages, VITALS)
    assert logged["CLS"].startswith("[web-vitals] CLS 0.")
    for name in ("LCP", "TTFB", "INP"):
        value, unit, rating = logged[name].split()[2:]
        assert float(value) >= 0 and unit == "ms", logged[name]
        assert rating in ("(good)", "(needs-improvement)", "(poor)"), logged[name]


def test_web_vitals_code_loads_only_after_the_load_event(page, live_server):
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    page.goto(live_server.url + "/sell-watch-boston")
    wait_for_vitals(page, messages, ("TTFB",))
    load_end, requested = page.evaluate(
        """() => [
            performance.getEntriesByType("navigation")[0].loadEventEnd,
            performance.getEntriesByType("resource")
                .filter((entry) => /\\/vitals-[\\w-]+\\.js$/.test(entry.name))
                .map((entry) => entry.startTime),
        ]"""
    )
    assert len(requested) == 1
    assert requested[0] >= load_end > 0


def test_noscript_pixel_is_loaded_without_javascript_and_allowed_by_the_csp(
    browser, make_live_server
):
    server = make_live_server(META_PIXEL_ID=PIXEL_ID)
    context, page = open_page(browser, server, DESKTOP, java_script_enabled=False)
    pixel_requests = []

    def answer_for_meta(route):
        pixel_requests.append(route.request.url)
        route.fulfill(status=200, content_type="image/gif", body=GIF)

    context.route("https://www.facebook.com/**", answer_for_meta)
    page.goto(server.url + "/sell")
    page.wait_for_load_state("networkidle")
    context.close()
    assert pixel_requests == [f"https://www.facebook.com/tr?id={PIXEL_ID}&ev=PageView&noscript=1"]
    assert not page.problems.lines, page.problems.lines  # a CSP refusal is a console error
