"""Browser fixtures: the app on a live local server and headless Debian Chromium via Playwright.

Every page a test opens is watched: a console error, an uncaught page error, a failed or
4xx/5xx same-origin request, or a hydration error fails the test.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from app import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
axe = Axe()
MOBILE = {"width": 375, "height": 812}


@pytest.fixture(scope="session")
def live_server(content_db, tmp_path_factory):
    app = create_app(
        {
            "ENV_NAME": "testing",
            "CONTENT_DB": str(content_db),
            "LEADS_DB": str(tmp_path_factory.mktemp("leads") / "leads.db"),
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_port}"
    server.app = app
    yield server
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@dataclass
class PageProblems:
    """Everything that went wrong on a page, as readable lines."""

    origin: str
    java_script_enabled: bool = True
    lines: list[str] = field(default_factory=list)

    def watch(self, page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.lines.append(f"page error: {error}"))
        page.on("requestfailed", self._on_request_failed)
        page.on("response", self._on_response)

    def _on_console(self, message) -> None:
        # Chromium also logs every 4xx response here, without its URL; _on_response reports
        # those with the URL (and lets a test's own 404 navigation through).
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.lines.append(f"console error: {message.text}")

    def _on_request_failed(self, request) -> None:
        blocked_script = not self.java_script_enabled and request.resource_type == "script"
        if request.url.startswith(self.origin) and not blocked_script:
            self.lines.append(f"request failed: {request.url} {request.failure}")

    def _on_response(self, response) -> None:
        expected_404 = response.request.is_navigation_request()
        if response.url.startswith(self.origin) and response.status >= 400 and not expected_404:
            self.lines.append(f"HTTP {response.status}: {response.url}")


def open_page(browser, live_server, viewport, java_script_enabled=True):
    context = browser.new_context(viewport=viewport, java_script_enabled=java_script_enabled)
    page = context.new_page()
    problems = PageProblems(origin=live_server.url, java_script_enabled=java_script_enabled)
    problems.watch(page)
    page.problems = problems
    return context, page


def make_page_fixture(viewport, java_script_enabled=True):
    @pytest.fixture
    def fixture(browser, live_server):
        context, page = open_page(browser, live_server, viewport, java_script_enabled)
        yield page
        context.close()
        assert not page.problems.lines, "\n".join(page.problems.lines)

    return fixture


page = make_page_fixture(DESKTOP)
mobile_page = make_page_fixture(MOBILE)
no_js_page = make_page_fixture(DESKTOP, java_script_enabled=False)
no_js_mobile_page = make_page_fixture(MOBILE, java_script_enabled=False)


def visit(page, live_server, path: str):
    """Open a path and wait until every island hydrated on load has hydrated."""
    response = page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-island][data-hydrate=load]')]"
        ".every((el) => el.dataset.hydrated === 'true')"
    )
    return response


def axe_violations(page) -> list[str]:
    """Every axe-core (WCAG) violation on the page, one line per offending element."""
    results = axe.run(page)
    return [
        f"{violation['id']}: {node['target']}"
        for violation in results.response["violations"]
        for node in violation["nodes"]
    ]
