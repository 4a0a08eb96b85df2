"""Helpers for browser tests: Chromium's settings, opening watched pages, waiting for islands,
axe. Fixtures live in conftest.py."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import pyotp
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.data.paperwork import VALID
from tests.data.staff_purchase import CERTIFICATE_PDF

# Debian's headless shell of Chromium (the engine without the windowed browser around it, as
# Playwright's own default): the same pages in about half the CPU of /usr/bin/chromium.
CHROMIUM = "/usr/bin/chromium-headless-shell"
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
        # The browser itself cancels a subresource when a form post navigates away while it
        # loads (the no-JS staff flow): not a failure of the site, which _on_response reports.
        cancelled = request.failure == "net::ERR_ABORTED" and not request.is_navigation_request()
        if request.url.startswith(self.origin) and not blocked_script and not cancelled:
            self.lines.append(f"request failed: {request.url} {request.failure}")

    def _on_response(self, response) -> None:
        expected_404 = response.request.is_navigation_request()
        if response.url.startswith(self.origin) and response.status >= 400 and not expected_404:
            self.lines.append(f"HTTP {response.status}: {response.url}")


def open_page(browser, live_server, viewport, java_script_enabled=True, **options):
    """A watched page in a context of its own (`options`: more of Playwright's, e.g. has_touch)."""
    context = browser.new_context(
        viewport=viewport, java_script_enabled=java_script_enabled, **options
    )
    page = context.new_page()
    problems = PageProblems(origin=live_server.url, java_script_enabled=java_script_enabled)
    problems.watch(page)
    page.problems = problems
    return context, page


def visit(page, live_server, path: str):
    """Open a path, wait for its load event, then until every island that hydrates with no
    visitor's help (strategies "load" and "interaction", the latter once the page has loaded)
    has hydrated. (Not for the network to be idle: that always waits half a second more, and
    tests that need every picture loaded wait for it themselves.)"""
    response = page.goto(live_server.url + path)
    page.wait_for_function(
        "() => [...document.querySelectorAll("
        "'[data-island][data-hydrate=load], [data-island][data-hydrate=interaction]')]"
        ".every((el) => el.dataset.hydrated === 'true')"
    )
    return response


class HeldRequests:
    """The page's requests to `url` (a Playwright URL pattern) held back until `release()`, as
    on a slow connection."""

    def __init__(self, page, url):
        self.routes = []
        self.released = False
        self.page = page
        page.route(url, self.hold)

    def hold(self, route) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def wait_for(self, part: str, timeout_s: float = 10) -> None:
        """Until the page has asked for a URL containing `part`."""
        deadline = time.monotonic() + timeout_s
        while not any(part in route.request.url for route in self.routes):
            assert time.monotonic() < deadline, f"nothing with {part} was requested"
            self.page.wait_for_timeout(50)  # lets Playwright deliver the route events

    def release(self) -> None:
        """Let the held requests through, and every later one."""
        self.released = True
        for route in self.routes:
            route.continue_()


class HeldScripts(HeldRequests):
    """Island code (every built script but the runtime) held back until `release()`: the page
    paints and loads, and its islands wait for their code."""

    ISLAND_CODE = re.compile(r"/static/build/(?!runtime-)[^/]+\.js$")

    def __init__(self, page):
        super().__init__(page, self.ISLAND_CODE)

    def wait_for(self, name: str, timeout_s: float = 10) -> None:
        """Until the page has asked for the built file `name` (e.g. "Header")."""
        super().wait_for(f"/{name}-", timeout_s)


def axe_violations(page) -> list[str]:
    """Every axe-core (WCAG) violation on the page, one line per offending element."""
    results = axe.run(page)
    return [
        f"{violation['id']}: {node['target']}"
        for violation in results.response["violations"]
        for node in violation["nodes"]
    ]


def do(page, action: str, fields: dict, button: str) -> None:
    """Open an action's panel if it is closed, fill its form and submit it."""
    form = page.locator(f'form[action$="/{action}"]')
    if not form.is_visible():
        page.locator("details", has=form).locator("summary").click()
    for label, value in fields.items():
        field = form.get_by_label(label, exact=True)
        if field.get_attribute("type") == "radio":
            field.check()
        elif field.evaluate("element => element.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    form.get_by_role("button", name=button).click()


def expect_state(page, message: str) -> None:
    expect(page.get_by_role("status")).to_contain_text(message)


# The staff area: an account from the CLI, enrolled and signed in as a person would.

PASSWORD = "brass winding crown sapphire"


def add_account(live_server, email: str) -> str:
    result = live_server.app.test_cli_runner().invoke(
        args=["staff", "add", email, "--name", "Marta Ruiz"]
    )
    assert result.exit_code == 0, result.output
    link = result.output.strip().splitlines()[-1]
    return live_server.url + "/staff/enrol/" + link.rsplit("/", 1)[1]


def enrol(page, link: str) -> str:
    """Walk through enrolment; the TOTP secret, read from the page as a person would type it."""
    page.goto(link)
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_label("The same password again").fill(PASSWORD)
    page.get_by_role("button", name="Save password").click()
    expect(page.get_by_role("heading", name="Set up your sign-in code")).to_be_visible()
    expect(page.get_by_role("img", name="QR code for your authenticator app")).to_be_visible()
    secret = re.sub(r"\s", "", page.locator("figcaption p.font-mono").first.inner_text())
    page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Confirm code").click()
    expect(page.get_by_role("heading", name="Save your recovery codes")).to_be_visible()
    assert page.get_by_role("list", name="Recovery codes").locator("li").count() == 10
    return secret


def sign_in(page, live_server, email: str, secret: str) -> None:
    page.goto(live_server.url + "/staff/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    # The enrolment used this step's code, and each code works once: the next step's code is
    # within the accepted window.
    page.get_by_label("Code").fill(pyotp.TOTP(secret).at(time.time() + 30))
    page.get_by_role("button", name="Sign in").click()


# The purchase on record: staff's steps at authentication, the seller's paperwork.


def signed_in_page(browser, live_server, email: str, viewport, java_script_enabled=True):
    """A new staff account enrolled and signed in, in a page of its own; (context, page) on the
    leads inbox."""
    context, page = open_page(browser, live_server, viewport, java_script_enabled)
    secret = enrol(page, add_account(live_server, email))
    sign_in(page, live_server, email, secret)
    expect(page).to_have_url(live_server.url + "/staff/leads")
    return context, page


def authenticate(page) -> None:
    """Record the authentication's findings and a clear register check with its certificate."""
    do(
        page,
        "findings",
        {
            "Brand": "Omega",
            "Model reference number": "310.30.42.50.01.001",
            "Serial number": "81234567",
            "Condition findings": "Crystal scratched; movement keeps time within 2 s a day.",
        },
        "Save findings",
    )
    expect_state(page, "Findings recorded.")
    certificate = {"name": "certificate.pdf", "mimeType": "application/pdf"}
    page.locator('form[action$="/register-check"] input[type=file]').set_input_files(
        files=[certificate | {"buffer": CERTIFICATE_PDF}]
    )
    do(
        page,
        "register-check",
        {"Register searched": "Stolen Watch Register", "Clear": "yes"},
        "Save the check",
    )
    expect_state(page, "Register check recorded.")


def fill_paperwork(page, id_files) -> None:
    """Fill every field of the paperwork form as a seller would, with two ID photos (paths)."""
    form = page.locator("form[enctype='multipart/form-data']")
    for name in ("legal_name", "street_address", "city", "postal_code", "id_number", "id_issuer",
                 "account_holder", "routing_number", "account_number", "account_number_again",
                 "signed_name"):  # fmt: skip
        form.locator(f"[name={name}]").fill(VALID[name])
    for name in ("birth_date", "id_expires_on"):
        form.locator(f"[name={name}]").fill(VALID[name])
    form.get_by_label("State", exact=True).select_option("NY")
    form.get_by_label("Type of photo ID").select_option(label="Driver's license")
    form.get_by_label("Photo of the front of your ID").set_input_files(str(id_files[0]))
    form.get_by_label("Photo of the back of your ID").set_input_files(str(id_files[1]))
    form.get_by_label("I agree to sign electronically").check()
