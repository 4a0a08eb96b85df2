"""What the local fakes of outside services share (the label provider's, the stolen-watch
register's, the bank's): a threaded HTTP server on a free loopback port, answering over HTTPS
when given a server TLS context (the handshake in each request's thread, not the accepting one),
that records every request and answers as planned (`plan(action, *answers)`), and forgives a
client that gave up on a slow answer; the request handler's common part, a JSON API's (`route`
for GET and POST alike, the body read once, answers in JSON or raw bytes); and the fixtures'
shape, one server per test module, reset for each test, whose jobs finish before the next one."""

from __future__ import annotations

import json
import ssl
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.helpers import APPS_MADE, finish_jobs_of_apps_made_since


class LocalFake(ThreadingHTTPServer):
    """A fake on a free port; `url` is its address with `path` (what a setting points at).
    Subclasses set up their own records, then `start()`."""

    daemon_threads = True

    def __init__(self, handler, path: str = "", slow_seconds: float = 3.0,
                 tls: ssl.SSLContext | None = None):  # fmt: skip
        super().__init__(("127.0.0.1", 0), handler)
        if tls is not None:
            self.socket = tls.wrap_socket(self.socket, server_side=True,
                                          do_handshake_on_connect=False)  # fmt: skip
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server_port}{path}"
        self.slow_seconds = slow_seconds
        self.requests: list[dict] = []
        self.planned: dict[str, list] = defaultdict(list)
        self.lock = threading.Lock()

    def start(self) -> None:
        """Serve from a thread of its own."""
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def plan(self, action: str, *answers) -> None:
        """The next answers to `action` (each fake names its actions and answers)."""
        self.planned[action].extend(answers)

    def next_plan(self, action: str):
        """The next answer planned for `action`, or None."""
        return self.planned[action].pop(0) if self.planned[action] else None

    def handle_error(self, request, client_address) -> None:
        """A client that gave up before a slow answer is what "slow" is for, not an error."""

    def stop(self) -> None:
        """Shut the server down and close its socket."""
        self.shutdown()
        self.server_close()


class JsonAnswer(BaseHTTPRequestHandler):
    """A fake's request handler: GET and POST both go to the subclass's `route()`; the request's
    JSON body read once; answers as JSON or raw bytes, forgiving a client that gave up."""

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        return

    def do_GET(self):
        self.route()

    do_POST = do_GET

    def json_body(self) -> dict:
        """The request's body as JSON ({} when it has none)."""
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        return json.loads(raw) if raw else {}

    def answer(self, status: int, body: dict, headers: dict | None = None) -> None:
        """A JSON answer."""
        self.answer_raw(status, json.dumps(body).encode(), "application/json", headers)

    def answer_raw(self, status: int, data: bytes, media_type: str,
                   headers: dict | None = None) -> None:  # fmt: skip
        """An answer of these bytes, as `media_type`."""
        try:
            self.send_response(status)
            self.send_header("Content-Type", media_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up on a slow answer


@contextmanager
def fresh(server: LocalFake) -> Iterator[LocalFake]:
    """The module's fake for one test, reset (`server.reset()`); the test's jobs done before
    the next test resets it again (a job still talking to it would be counted there)."""
    server.reset()
    apps_before = len(APPS_MADE)
    yield server
    finish_jobs_of_apps_made_since(apps_before)
