"""Shared fixtures: an app on a freshly seeded content database, its client and CLI runner."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import expect, sync_playwright

from app import create_app, queue
from app.content.loader import seed
from app.extensions import cache, limiter
from app.leads import db as leads_db
from app.staff import totp
from tests.helpers import (
    APPS_MADE,
    ROOT,
    Clock,
    HttpReceiver,
    RedisServer,
    RefusingRelay,
    SmtpInbox,
    finish_jobs_of_apps_made_since,
    free_port,
    mail_settings_for,
    stop_process,
)

JOBS_FINISH_WITHIN = 60


def pytest_configure(config):
    """Playwright's assertions wait up to 15 s, not its default 5 s: the suite runs three
    workers on two cores, each with its servers and a browser, where a page can take longer
    than 5 s to come; an assertion still fails when what it waits for never comes."""
    expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def content_db(tmp_path_factory):
    """One seeded content database for the whole run (seeding is what test_content checks)."""
    path = tmp_path_factory.mktemp("content") / "content.db"
    leads = str(path.with_name("leads.db"))
    app = create_app({"ENV_NAME": "testing", "CONTENT_DB": str(path), "LEADS_DB": leads})
    with app.app_context():
        seed(app)
    return path


@pytest.fixture(scope="session")
def migrated_leads_db(tmp_path_factory) -> Path:
    """A leads.db brought to the current schema once for the run: each test's own database
    starts as a copy of it (the app's start-up migration then finds nothing to do)."""
    path = tmp_path_factory.mktemp("template") / "leads.db"
    leads_db.migrate(str(path))
    return path


def fresh_leads_db(template: Path, folder: Path) -> str:
    """A new, empty, migrated leads.db in `folder` (a copy of the template); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "leads.db"
    shutil.copyfile(template, path)
    return str(path)


@pytest.fixture(scope="session")
def make_app(content_db, migrated_leads_db, tmp_path_factory):
    """The one way tests make an app: testing settings on the seeded content database and a
    fresh leads.db of its own, then any overrides (`make_app(REDIS_URL=url)`)."""

    def make(**overrides):
        leads = fresh_leads_db(migrated_leads_db, tmp_path_factory.mktemp("leads"))
        settings = {"ENV_NAME": "testing", "CONTENT_DB": str(content_db), "LEADS_DB": leads}
        APPS_MADE.append(create_app({**settings, **overrides}))
        return APPS_MADE[-1]

    return make


@pytest.fixture(scope="module")
def module_app(make_app):
    """One app per test module with the default settings: making an app costs more than most
    tests (its URL map, its static files), so the `app` fixture gives each test this one with
    a database, a cache and request limits of its own."""
    return make_app()


@pytest.fixture
def app(module_app, migrated_leads_db, tmp_path):
    """The module's app, as new for this test: its own empty leads.db and photo storage, an
    empty page cache and fresh request limits; any setting a test changes is put back after."""
    settings = dict(module_app.config)
    module_app.config["LEADS_DB"] = fresh_leads_db(migrated_leads_db, tmp_path / "instance")
    with module_app.app_context():
        cache.clear()
    limiter.init_app(module_app)  # a new, empty store of request counts (its hooks stay one)
    yield module_app
    with module_app.app_context():
        queue.wait_until_idle(JOBS_FINISH_WITHIN)  # no job of this test runs in the next one
    module_app.config.clear()
    module_app.config.update(settings)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """The time TOTP codes are checked against, which a test moves on (tests/helpers.Clock)."""
    clock = Clock()
    monkeypatch.setattr(totp, "now", clock)
    return clock


@pytest.fixture(scope="session")
def playwright():
    """One Playwright for the whole run (tests/browser and tests/production): a second sync
    instance started in the same thread refuses to run inside the first one's event loop."""
    with sync_playwright() as running:
        yield running


# Real services for the lead pipeline: Redis, an rq worker, an SMTP server, an HTTP receiver.


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    if server.process.poll() is None:
        server.stop()


@pytest.fixture
def smtp_server():
    """aiosmtpd on loopback, collecting every message as an email.message.Message."""
    inbox = SmtpInbox("127.0.0.1", free_port())

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            inbox.messages.append(message_from_bytes(envelope.content, policy=policy.default))
            return "250 OK"

    controller = Controller(Handler(), hostname=inbox.host, port=inbox.port)
    controller.start()
    apps_before = len(APPS_MADE)
    yield inbox
    finish_jobs_of_apps_made_since(apps_before)  # the apps sending to it, made since it started
    controller.stop()


@pytest.fixture
def relay():
    """An SMTP server on a port of its own that refuses on purpose (RefusingRelay), started by
    the test when it wants it, stopped after."""
    server = RefusingRelay("127.0.0.1", free_port())
    yield server
    server.stop()


@pytest.fixture
def mail_settings(smtp_server) -> dict:
    """Settings that send e-mail to the loopback SMTP server, as https://watches.example."""
    return mail_settings_for(smtp_server)


@pytest.fixture
def mail_app(make_app, mail_settings):
    """An app that sends e-mail to the loopback SMTP server, as https://watches.example."""
    return make_app(**mail_settings)


def serve(handler) -> ThreadingHTTPServer:
    """A local HTTP server for `handler`, answering on its own thread until shut down."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def http_receiver():
    """A local HTTP server standing in for Meta's and Google's endpoints: records every POST."""
    received: list = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            received.append({"path": self.path, "json": json.loads(body or b"null")})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"events_received": 1}')

        def log_message(self, *args):
            pass

    server = serve(Handler)
    receiver = HttpReceiver(f"http://127.0.0.1:{server.server_port}", received)
    yield receiver
    server.shutdown()
    server.server_close()


@pytest.fixture
def pipeline_settings(content_db, tmp_path, smtp_server, http_receiver) -> dict:
    """Settings for an app (and its worker) wired to the local SMTP and HTTP stand-ins."""
    return {
        "CONTENT_DB": str(content_db),
        "LEADS_DB": str(tmp_path / "leads.db"),
        "STAFF_EMAIL": "staff@example.com",
        "MAIL_FROM": "leads@example.com",
        "SMTP_HOST": smtp_server.host,
        "SMTP_PORT": str(smtp_server.port),
        "SMTP_USE_TLS": "0",
        "META_PIXEL_ID": "1234567890",
        "META_CAPI_TOKEN": "test-token",
        "META_CAPI_URL": http_receiver.url + "/meta/{pixel_id}/events",
        "GA4_MEASUREMENT_ID": "G-TEST123",
        "GA4_API_SECRET": "test-secret",
        "GA4_API_URL": http_receiver.url + "/mp/collect",
        "JOB_RETRY_INTERVALS": "1,1",
    }


@pytest.fixture
def start_rq_worker(tmp_path):
    """Starts a real `flask rq worker` subprocess on the given settings; stopped after the test."""
    processes = []

    def start(settings: dict) -> subprocess.Popen:
        env = {**os.environ, **settings, "FLASK_APP": "app", "APP_ENV": "development"}
        log = open(tmp_path / f"worker-{len(processes)}.log", "wb")  # noqa: SIM115
        process = subprocess.Popen(
            [sys.executable, "-m", "flask", "rq", "worker", "--with-scheduler"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        processes.append((process, log))
        return process

    yield start
    for process, log in processes:
        stop_process(process)
        log.close()


class RawJSON(str):
    """A body the fake provider sends as it is, not encoded again."""


class Provider:
    """What the fake provider answers per reference, and every question it was asked."""

    def __init__(self):
        self.prices = {"126610LN": 12700, "124060": 8000}
        self.asked: list[dict] = []
        self.limited_once: set[str] = set()
        self.elsewhere_auth: list[str | None] = []  # what reached the redirect's target


@pytest.fixture
def market_provider():
    """A local HTTP server playing the market-data provider (app/prices/market.py): a price per
    reference, and on purpose an error (FAIL1), one rate limit (LIMIT1), a stall (SLOW1), a
    limit too long to wait (WAIT1), an answer without a price (JUNK1), a body nested too deep
    to parse (DEEP1), and a redirect (MOVED1) to a second server that records the
    Authorization header of anything that reaches it."""
    state = Provider()

    class Elsewhere(BaseHTTPRequestHandler):
        def do_GET(self):
            state.elsewhere_auth.append(self.headers.get("Authorization"))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"price": 1}')

        def log_message(self, *args):
            pass

    elsewhere = serve(Elsewhere)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            query = parse_qs(urlsplit(self.path).query)
            reference = query["reference"][0]
            state.asked.append({"reference": reference, "brand": query["brand"][0],
                                "auth": self.headers.get("Authorization")})  # fmt: skip
            if reference == "SLOW1":
                time.sleep(1.5)
            if reference == "FAIL1":
                return self.answer(500, {"error": "down"})
            if reference == "LIMIT1" and reference not in state.limited_once:
                state.limited_once.add(reference)
                return self.answer(429, {}, {"Retry-After": "1"})
            if reference == "WAIT1":
                return self.answer(429, {}, {"Retry-After": "3600"})
            if reference == "JUNK1":
                return self.answer(200, {"price": "call us"})
            if reference == "DEEP1":
                return self.answer(200, RawJSON("[" * 100_000))
            if reference == "MOVED1":
                target = f"http://127.0.0.1:{elsewhere.server_port}/v1/price?reference=MOVED1"
                return self.answer(302, {}, {"Location": target})
            self.answer(200, {"price": state.prices.get(reference, 5000)})

        def answer(self, status, body, headers=None):
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            text = body if isinstance(body, RawJSON) else json.dumps(body)
            self.wfile.write(text.encode())

        def log_message(self, *args):
            pass

    server = serve(Handler)
    state.url = f"http://127.0.0.1:{server.server_port}/v1/price"
    yield state
    for each in (server, elsewhere):
        each.shutdown()
        each.server_close()
