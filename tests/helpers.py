"""Helpers shared by test modules: posting the sell form, waiting, ports. Fixtures live in
conftest.py; test modules import from here, never from each other."""

from __future__ import annotations

import io
import itertools
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
PRODUCTION = {
    "ENV_NAME": "production",
    "SECRET_KEY": "k" * 40,
    "STAFF_TOTP_KEY": "t" * 40,
    "SITE_URL": SITE,
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


_event_ids = itertools.count(1)


def sample_lead(**overrides) -> dict:
    """A valid lead as the sell form stores it."""
    return {
        "full_name": "Jane Doe",
        "email": "jane@example.com",
        "phone": "(212) 555-0100",
        "watch_brand": "Rolex",
        "watch_model": "Submariner",
        "watch_year": 2019,
        "watch_condition": "Excellent",
        "has_box": True,
        "has_papers": False,
        "additional_details": "Serviced in 2023.",
        "source": "USA Website",
        "utm_source": "google",
        "utm_campaign": "spring",
        "meta_event_id": f"evt-test-{next(_event_ids):06d}",
        "client_ip": "203.0.113.9",
        "user_agent": "pytest",
    } | overrides


def save_sample_lead(app, photos: list[dict] | None = None, **overrides) -> int:
    """Save a lead straight to the store (no form, no jobs); returns its id."""
    with app.app_context():
        lead_id, created = store.save_lead(sample_lead(**overrides), photos or [])
    assert created
    return lead_id
