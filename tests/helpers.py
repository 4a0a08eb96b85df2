"""Helpers shared by test modules: posting the sell form, waiting, ports. Fixtures live in
conftest.py; test modules import from here, never from each other."""

from __future__ import annotations

import io
import json
import re
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import stream_encode_multipart

from app.leads import store
from tests.data.photos import photo_bytes
from tests.data.validation_cases import VALID

ROOT = Path(__file__).resolve().parent.parent
JSON = {"Accept": "application/json"}
SITE = "https://watches.example"
# Production refuses the defaults' example e-mail and 555-01xx number (app/config.py): tests that
# start a production app give it contact details shaped like a real business's.
PRODUCTION_CONTACTS = {
    "SITE_EMAIL": "offers@uswatchbuyers.com",
    "SITE_PHONE": "(212) 908-4417",
    "SITE_PHONE_E164": "+12129084417",
}
PRODUCTION = {
    "ENV_NAME": "production",
    "SECRET_KEY": "k" * 40,
    "SITE_URL": SITE,
    **PRODUCTION_CONTACTS,
}


def page_html(client, path="/sell") -> str:
    """The page without React's text separators (<!-- -->), which only split text nodes."""
    return client.get(path).get_data(as_text=True).replace("<!-- -->", "")


def csrf_token(client) -> str:
    html = page_html(client)
    return re.search(r'<meta name="csrf-token" content="([^"]+)"', html).group(1)


def photo(name="watch.jpg", **options):
    return (io.BytesIO(photo_bytes(**options)), name)


def post(client, fields=None, photos=(), headers=None, token=None):
    data = MultiDict({"csrf_token": token or csrf_token(client), **VALID, **(fields or {})})
    for stream, name in photos:
        data.add("photos", FileStorage(stream, filename=name))
    # Encoded in memory: the test client would spool a big body to a file it never closes.
    body, length, boundary = stream_encode_multipart(data, use_tempfile=False)
    return client.post(
        "/sell",
        input_stream=body,
        content_length=length,
        content_type=f"multipart/form-data; boundary={boundary}",
        headers=headers or {},
    )


def island_props(html: str, island_id: str = "sellform-1") -> dict:
    script = re.search(rf'data-island-props="{island_id}">(.*?)</script>', html, re.S).group(1)
    return json.loads(script)


def wait_until(check, timeout: float = 60, interval: float = 0.2):
    """Poll `check` until it returns something truthy, and return that."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError("condition not met in time")


def finished_lead(app, lead_id: int = 1) -> dict:
    """The lead once every job of its pipeline has recorded completion."""

    def done():
        with app.app_context():
            lead = store.get_lead(lead_id)
        return lead if lead and not store.pending_work(lead) else None

    return wait_until(done)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listening on port {port}")


@dataclass
class SmtpInbox:
    host: str
    port: int
    messages: list = field(default_factory=list)

    def wait_for(self, count: int = 1, timeout: float = 20):
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.messages) >= count, f"{len(self.messages)} of {count} e-mails arrived"
        return self.messages


@dataclass
class HttpReceiver:
    url: str
    requests: list = field(default_factory=list)

    def wait_for(self, count: int, timeout: float = 20):
        deadline = time.monotonic() + timeout
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.requests) >= count, f"{len(self.requests)} of {count} calls arrived"
        return self.requests


def lead_work_done(app, timeout: float = 60) -> None:
    """Wait for the in-process runner (no Redis) to finish every lead submitted so far."""
    assert app.extensions["lead_work"].wait_until_idle(timeout), "lead work still running"
