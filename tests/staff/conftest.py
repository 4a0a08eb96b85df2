"""Staff-area fixtures: a movable TOTP clock, and a helper that enrols and signs in accounts
through the real pages (the test computes TOTP codes with pyotp, as an authenticator app)."""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field
from html import unescape

import pyotp
import pytest

from app.leads import store as leads_store
from app.staff import totp

PASSWORD = "correct horse battery staple"


class Clock:
    """Stands in for the time TOTP codes are checked against; each test starts at now."""

    def __init__(self):
        self.at = time.time()

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float = totp.STEP_SECONDS) -> None:
        self.at += seconds


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(totp, "now", clock)
    return clock


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


@dataclass
class Account:
    email: str
    password: str
    secret: str
    recovery_codes: list[str] = field(default_factory=list)

    def code(self, at: float) -> str:
        return pyotp.TOTP(self.secret).at(at)


@dataclass
class Staff:
    """Drives the staff pages like a person would, through the app's test client."""

    app: object
    runner: object
    clock: Clock
    base_url: str = "http://localhost"

    def request(self, client, method: str, path: str, **kwargs):
        """As a browser on the site's own address would send it (Referer included)."""
        headers = {"Referer": self.base_url + "/"}
        return client.open(path, method=method, base_url=self.base_url, headers=headers, **kwargs)

    def add(self, email: str = "ana@example.com", name: str = "Ana Lima") -> str:
        result = self.runner.invoke(args=["staff", "add", email, "--name", name])
        assert result.exit_code == 0, result.output
        return result.output.strip().splitlines()[-1]

    def post(self, client, path: str, data: dict):
        """POST a form with the CSRF token of the page at `path` (as a browser would)."""
        page = self.request(client, "GET", path).get_data(as_text=True)
        return self.request(client, "POST", path, data={**data, "csrf_token": csrf_token(page)})

    def enrol(self, client, link: str, email: str, password: str = PASSWORD) -> Account:
        path = "/staff/enrol/" + link.rsplit("/", 1)[1]
        response = self.post(client, path, {"password": password, "confirm": password})
        assert response.status_code == 303, response.get_data(as_text=True)
        page = self.request(client, "GET", path).get_data(as_text=True)
        secret = unescape(re.search(r"secret=([A-Z2-7]+)", page).group(1))
        code = pyotp.TOTP(secret).at(self.clock())
        data = {"code": code, "csrf_token": csrf_token(page)}
        response = self.request(client, "POST", path, data=data)
        assert response.status_code == 200, response.get_data(as_text=True)
        codes = re.findall(r"<li>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})</li>", response.text)
        return Account(email, password, secret, codes)

    def account(self, email: str = "ana@example.com", name: str = "Ana Lima"):
        """A new, fully enrolled account."""
        return self.enrol(self.app.test_client(), self.add(email, name), email)

    def password_step(self, client, account: Account, password: str | None = None):
        return self.post(
            client,
            "/staff/login",
            {"email": account.email, "password": password or account.password},
        )

    def code_step(self, client, code: str):
        return self.post(client, "/staff/login/code", {"code": code})

    def sign_in(self, client, account: Account):
        """Both steps with the next unused TOTP code; the answer of the code step."""
        assert self.password_step(client, account).status_code == 303
        self.clock.advance()
        response = self.code_step(client, account.code(self.clock()))
        assert response.status_code == 303, response.get_data(as_text=True)
        return response

    def backdate_sessions(self, column: str, minutes: int) -> None:
        """Move a time of every session into the past, as if that much time had gone by."""
        with self.db() as db:
            db.execute(
                f"UPDATE staff_sessions SET {column} = "
                "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now', ?)",
                (f"-{minutes} minutes",),
            )

    def db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.app.config["LEADS_DB"])
        db.row_factory = sqlite3.Row
        return db


@pytest.fixture
def staff(app, runner, clock) -> Staff:
    return Staff(app, runner, clock)


@pytest.fixture
def account(staff) -> Account:
    return staff.account()


@pytest.fixture
def add_lead(app):
    """Saves a lead as the sell form would; returns its id."""

    def add(**fields) -> int:
        lead = {
            "full_name": "Grace Hopper",
            "email": "grace@example.com",
            "phone": "2125550100",
            "watch_brand": "Rolex",
            "watch_model": "Submariner 126610LN",
            "watch_condition": "Excellent - Like new",
            "has_box": 1,
            "has_papers": 1,
            "additional_details": "",
            "source": "USA Website",
            "meta_event_id": f"event-{time.monotonic_ns()}",
        } | fields
        with app.app_context():
            return leads_store.save_lead(lead, [])[0]

    return add
