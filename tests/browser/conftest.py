"""Browser fixtures: the app on a live local server and headless Debian Chromium via Playwright.

Every page a test opens is watched: a console error, an uncaught page error, a failed or
4xx/5xx same-origin request, or a hydration error fails the test.
"""

from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from tests.browser.helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP, MOBILE, open_page


def read_whole(app):
    """The WSGI app with each answer read whole, and its file closed, before it is sent.
    Werkzeug's development server leaves an answer's file (a static file WhiteNoise opened)
    unclosed when a browser drops the connection while reading it, as a closing context does;
    gunicorn, which the production shape runs, closes it."""

    def wsgi(environ, start_response):
        answer = app(environ, start_response)
        try:
            return [b"".join(answer)]
        finally:
            if hasattr(answer, "close"):
                answer.close()

    return wsgi


def start_server(app):
    """Serve the app on a free loopback port in a thread; the caller shuts it down. The reading
    wraps the Flask app's own WSGI callable: the server's `app` attribute is the Flask app (tests
    use its CLI runner and config), and werkzeug serves whatever that attribute holds."""
    app.wsgi_app = read_whole(app.wsgi_app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_port}"
    server.app = app
    return server


@pytest.fixture(scope="session")
def live_server(make_app):
    server = start_server(make_app())
    yield server
    server.shutdown()


@pytest.fixture
def make_live_server(make_app):
    """Live servers of apps with settings of their own (`make_live_server(META_PIXEL_ID=...)`)."""
    servers = []

    def make(**overrides):
        servers.append(start_server(make_app(**overrides)))
        return servers[-1]

    yield make
    for server in servers:
        server.shutdown()


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


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
