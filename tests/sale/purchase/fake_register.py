"""A local stand-in for a stolen-watch register's API (the shape app/sale/purchase/register_api.py
documents), served on loopback. It records every request, answers each serial number as told
(`answer("7Z41K9Q2", "flagged")`; clear by default), serves certificates, and fails on purpose:
`plan("search", 500)`, `"slow"` (answers after the client gave up), `"garbage"` (not JSON),
`"redirect"` (to a second server that records any key it is sent), `"deep"` (JSON nested
deeper than any parser recurses), `"not_http"` (bytes that are no HTTP answer at all),
`"bad_certificate_url"` (a certificate's address on the register's host that no URL parser
takes); `plan("certificate", "not_pdf")` serves a certificate that is neither a PDF nor an image.

Given a server TLS context (`FakeRegister(tls=...)`), it answers over HTTPS, its certificates'
URLs on the same https host, as production requires (REGISTER_API_URL must be https://); the
site's processes trust it through the CA bundle they are given (SSL_CERT_FILE, which urllib
reads). The redirect's target stays plain HTTP: it only records what reaches it."""

from __future__ import annotations

import json
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.local_fake import LocalFake, fresh

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture(scope="module")
def register_server():
    """The fake for one test module (import it with `register` where a test needs it)."""
    fake = FakeRegister()
    yield fake
    fake.stop()


@pytest.fixture
def register(register_server):
    """The module's fake, with no request recorded and nothing planned."""
    with fresh(register_server) as fake:
        yield fake


def register_settings(fake: FakeRegister) -> dict:
    """Settings that ask the fake register."""
    return {
        "REGISTER_API_URL": fake.url,
        "REGISTER_API_KEY": "reg-key-123",
        "REGISTER_PROVIDER_NAME": "The Watch Register",
        "REGISTER_API_TIMEOUT": 0.5,
    }


class FakeRegister(LocalFake):
    """The fake, on a free port; `url` is what REGISTER_API_URL points at. Its actions: search,
    certificate; their planned answers: a status or a named failure."""

    def __init__(self, slow_seconds: float = 2.0, tls: ssl.SSLContext | None = None):
        super().__init__(Answer, "/api", slow_seconds, tls)
        self.results: dict[str, str] = {}
        self.elsewhere = Elsewhere()
        self.start()

    def answer(self, serial: str, result: str) -> None:
        """What the register says of `serial` from now on."""
        self.results[serial] = result

    def searches(self) -> list[dict]:
        """The searches asked, in order."""
        return [r for r in self.requests if r["path"].endswith("/searches")]

    def reset(self) -> None:
        """Forget the requests, the answers and the failures planned."""
        self.requests.clear()
        self.results.clear()
        self.planned.clear()
        self.elsewhere.keys.clear()

    def stop(self) -> None:
        """Shut both servers down and close their sockets."""
        super().stop()
        self.elsewhere.shutdown()
        self.elsewhere.server_close()


class Elsewhere(ThreadingHTTPServer):
    """Where a redirect points: it records the Authorization header of anything reaching it."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Recorder)
        self.keys: list[str | None] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()


class Recorder(BaseHTTPRequestHandler):
    """Records the key it was sent; answers a clear result."""

    def do_GET(self):
        self.server.keys.append(self.headers.get("Authorization"))
        self.send_response(200)
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args):
        pass


class Answer(BaseHTTPRequestHandler):
    """The register's two URLs: POST /api/searches and GET /api/certificates/<reference>.pdf."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        asked = self.record(body)
        if self.path != "/api/searches":
            return self.reply(404, b"{}")
        planned = self.server.next_plan("search")
        if planned is not None and self.fail(planned):
            return None
        serial = json.loads(body)["serial_number"]
        result = self.server.results.get(serial, "clear")
        reference = f"REG-{len(self.server.searches()):04d}"
        answer = {"result": result, "reference": reference}
        if result != "unknown":
            answer["certificate_url"] = f"{self.server.url}/certificates/{reference}.pdf"
        asked["answer"] = answer
        return self.reply(200, json.dumps(answer).encode())

    def do_GET(self):
        self.record(b"")
        if not self.path.startswith("/api/certificates/"):
            return self.reply(404, b"{}")
        planned = self.server.next_plan("certificate")
        if planned == "not_pdf":
            return self.reply(200, b"<html>certificate</html>", "text/html")
        if planned is not None and self.fail(planned):
            return None
        return self.reply(200, PDF, "application/pdf")

    def fail(self, planned) -> bool:
        """Answer with the planned failure; False for "slow", which then answers normally."""
        if planned == "slow":
            time.sleep(self.server.slow_seconds)
            return False
        if planned == "garbage":
            self.reply(200, b"<html>maintenance</html>", "text/html")
        elif planned == "deep":
            self.reply(200, b"[" * 30_000 + b"]" * 30_000)
        elif planned == "not_http":
            self.wfile.write(b"\x00\x16 not an HTTP answer\r\n\r\n")
            self.close_connection = True
        elif planned == "bad_certificate_url":
            url = f"{self.server.url}/certificates/REG 0001\n.pdf"
            body = {"result": "clear", "reference": "REG-0001", "certificate_url": url}
            self.reply(200, json.dumps(body).encode())
        elif planned == "redirect":
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{self.server.elsewhere.server_port}/")
            self.end_headers()
        else:
            self.reply(planned, b'{"error": "planned"}')
        return True

    def record(self, body: bytes) -> dict:
        request = {
            "method": self.command,
            "path": self.path,
            "auth": self.headers.get("Authorization"),
            "body": json.loads(body) if body.startswith(b"{") else None,
        }
        self.server.requests.append(request)
        return request

    def reply(self, status: int, body: bytes, media_type: str = "application/json"):
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass
