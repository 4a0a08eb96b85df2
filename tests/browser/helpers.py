"""Helpers for browser tests: Chromium's settings, opening watched pages, waiting for islands,
axe. Fixtures live in conftest.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from axe_playwright_python.sync_playwright import Axe

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
