"""Helpers shared by test modules: posting the sell form, waiting, ports, driving the staff
area. Fixtures live in
conftest.py; test modules import from here, never from each other."""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from email import message_from_bytes, policy
from html import unescape
from pathlib import Path
from zoneinfo import ZoneInfo

import pyotp
from aiosmtpd.controller import Controller
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import stream_encode_multipart

from app import queue
from app.config import TestingConfig
from app.leads import links, schema, store
from app.leads.db import transaction
from app.leads.display import business_zone
from app.leads.history import append_event
from app.leads.reference import new_status_token
from app.sale import lifecycle, retention
from app.sale.purchase import record
from app.security.tokens import digest
from app.staff import totp
from tests.data.photos import photo_bytes
from tests.data.validation_cases import VALID

ROOT = Path(__file__).resolve().parent.parent
JSON = {"Accept": "application/json"}
SITE = "https://watches.example"
# Production refuses the defaults' example e-mail and 555-01xx number (app/config.py): tests that
# start a production app give it contact details shaped like a real business's.
PRODUCTION_CONTACTS = {
    "BUSINESS_LEGAL_NAME": "US Watch Buyers LLC",
    "BUSINESS_ADDRESS": "41 Orchard Street, Floor 3; New York, NY 10002",
    "SITE_EMAIL": "offers@uswatchbuyers.com",
    "SITE_PHONE": "(212) 908-4417",
    "SITE_PHONE_E164": "+12129084417",
}
# ... and an off-site replica (its storage is never reached unless a test starts one).
PRODUCTION_REPLICA = {
    "REPLICA_URL": "s3://watchbuyers-replica/site",
    "REPLICA_ENCRYPTION_KEY": base64.b64encode(b"r" * 32).decode(),
}
PRODUCTION = {
    "ENV_NAME": "production",
    "SECRET_KEY": "k" * 40,
    "STAFF_TOTP_KEY": "t" * 40,
    "PURCHASE_DATA_KEY": "p" * 40,
    "SITE_URL": SITE,
    # One test app is one process: without REDIS_URL production needs to be told so.
    "RATELIMIT_SINGLE_PROCESS": "1",
    **PRODUCTION_CONTACTS,
    **PRODUCTION_REPLICA,
}

APPS_MADE: list = []  # every app the make_app fixture made, in order


def finish_jobs_of_apps_made_since(count: int, within: float = 60) -> None:
    """Let the in-process jobs of every app made after the first `count` run to the end, before
    a test's fake or mail server stops or forgets what it got: a job still talking to it would
    be left half-connected (its unclosed socket failing the next test) or be counted there."""
    for made in APPS_MADE[count:]:
        with made.app_context():
            queue.wait_until_idle(within)


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
    return post_multipart(client, "/sell", data, photos, headers)


def post_multipart(client, path: str, data: MultiDict, photos=(), headers=None):
    """POST fields and (stream, name) photos as multipart/form-data."""
    data = MultiDict(data)
    for stream, name in photos:
        data.add("photos", FileStorage(stream, filename=name))
    # Encoded in memory: the test client would spool a big body to a file it never closes.
    body, length, boundary = stream_encode_multipart(data, use_tempfile=False)
    return client.post(
        path,
        input_stream=body,
        content_length=length,
        content_type=f"multipart/form-data; boundary={boundary}",
        headers=headers or {},
    )


def island_props(html: str, island_id: str = "sellform-1") -> dict:
    script = re.search(rf'data-island-props="{island_id}">(.*?)</script>', html, re.S).group(1)
    return json.loads(script)


DATA_SCRIPT = re.compile(r'type="application/(ld\+)?json"')


def inline_scripts(html: str) -> list[str]:
    """The text of every script the page runs from its own HTML (data scripts left out)."""
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    return [text for attributes, text in scripts if not DATA_SCRIPT.search(attributes)]


def csp_hash_source(script: str) -> str:
    """The CSP source that allows an inline script of this text: 'sha256-<base64>'."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"


def business_today() -> date:
    """Today on the business's calendar (the test apps' BUSINESS_TIMEZONE), as the app reads
    every date staff and sellers enter: near midnight UTC it is not the machine's date."""
    return datetime.now(ZoneInfo(TestingConfig.BUSINESS_TIMEZONE)).date()


def wait_until(check, timeout: float = 60, interval: float = 0.05):
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


class RedisServer:
    """A throwaway redis-server on a free port that a test can stop and start again."""

    def __init__(self, directory):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def kill_tree(pid: int) -> None:
    """SIGKILL a process and every descendant (rq runs each job in a forked work horse)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else []:
        kill_tree(int(child))
    os.kill(pid, signal.SIGKILL)


def stop_process(process: subprocess.Popen, timeout: float = 15) -> None:
    """Ask a server process to stop; kill it if it has not within `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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


def mail_settings_for(inbox: SmtpInbox) -> dict:
    """Settings that send e-mail to `inbox`, a loopback SMTP server, as https://watches.example."""
    return {
        "SMTP_HOST": inbox.host,
        "SMTP_PORT": str(inbox.port),
        "SMTP_USE_TLS": "0",
        "MAIL_FROM": "offers@watches.example",
        "SITE_URL": "https://watches.example",
    }


class RefusingRelay(SmtpInbox):
    """An SMTP server on loopback, started when a test wants it (`start`), that refuses on
    purpose: every message at DATA while `refusing` is "data" (451, as a relay over its quota),
    every recipient while it is "rcpt" (554, as a relay that stopped relaying for us)."""

    refusing = ""
    refused = 0

    def start(self) -> None:
        relay = self

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                if relay.refusing == "rcpt":
                    relay.refused += 1
                    return "554 5.7.1 Relay access denied"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                if relay.refusing == "data":
                    relay.refused += 1
                    return "451 4.3.0 Try again later"
                relay.messages.append(message_from_bytes(envelope.content, policy=policy.default))
                return "250 OK"

        self.controller = Controller(Handler(), hostname=self.host, port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if hasattr(self, "controller"):
            self.controller.stop()


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


def buy_lead(app, lead_id: int, amount: int = 9500, paid_days_ago: int = 0, made_days_ago=30):
    """Record a lead bought as staff do (lifecycle.transition, which queues its purchase report),
    `paid_days_ago` days before today, the lead made `made_days_ago` days ago with its form's
    work done and taken straight to the final offer (the steps between are not the point)."""
    made = (datetime.now(UTC) - timedelta(days=made_days_ago)).isoformat(timespec="seconds")
    with app.app_context():
        with transaction() as db:
            done = ", ".join(f"{column} = :made" for column in store.WORK_COLUMNS)
            db.execute(
                f"UPDATE leads SET created_at = :made, state = 'offered', {done} WHERE id = :id",
                {"made": made, "id": lead_id},
            )
        paid_on = (datetime.now(UTC).astimezone(business_zone()).date()) - timedelta(paid_days_ago)
        put_purchase_on_record(lead_id, amount, signed_on=paid_on)
        with transaction() as db:  # the register checked the day it was paid, as staff do
            record.update(db, lead_id, {"register_checked_on": paid_on.isoformat()})
        data = {"amount": amount, "paid_on": paid_on.isoformat()} | PAYMENT
        return lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")


PAYMENT = {"method": "ach", "confirmation": "ACH-20261124-0042"}
FINDINGS = {"brand": "Rolex", "model_reference": "126610LN", "serial_number": "7Z41K9Q2",
            "case_marks": "Clean"}  # fmt: skip
# Every character a spreadsheet opens a formula with (OWASP's CSV injection list), by name, written
# out here: a test built from the guard's own list would shrink with it.
FORMULA_OPENINGS = {
    "equals": "=",
    "plus": "+",
    "minus": "-",
    "at": "@",
    "tab": "\t",
    "return": "\r",
}
# A clear register check of the findings' serial number, as the purchase record holds the one
# that counts.
CLEAR_CHECK = {"register_result": "clear", "register_serial": FINDINGS["serial_number"]}


def put_purchase_on_record(lead_id: int, offer: int = 9500, signed_on: date | None = None):
    """Inside an app context: the lead taken straight to `agreed` (a final offer of `offer`
    dollars, accepted) with its purchase record filled in (fill_purchase_record)."""
    with transaction() as db:
        state = db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()[0]
        db.execute("UPDATE leads SET state = 'agreed' WHERE id = ?", (lead_id,))
        offered = {"from": state, "to": "offered", "amount": offer, "valid_until": "2099-01-01"}
        append_event(db, lead_id, "staff:1", "state_changed", offered)
        append_event(db, lead_id, "seller", "state_changed", {"from": "offered", "to": "agreed"})
    fill_purchase_record(lead_id, signed_on)


def fill_purchase_record(lead_id: int, signed_on: date | None = None) -> None:
    """Inside an app context: what the final offer and `bought` need on the purchase record
    (the findings, the seller's signed paperwork with bank details, signed on `signed_on` (by
    default 20 November 2026), an ID check, a clear register check), written straight to the
    record (the steps that put them there are tested on their own)."""
    signed = f"{(signed_on or date(2026, 11, 20)).isoformat()}T15:00:00+00:00"
    with transaction() as db:
        record.update(db, lead_id, FINDINGS | CLEAR_CHECK | {
            "legal_name": "Jordan A. Avery",
            "account_number_enc": record.sealed(lead_id, "account_number_enc", "000123456789"),
            "account_number_last4": "6789",
            "signed_at": signed,
            "account_holder": "Jordan Avery",
            "payout_confirmed_at": signed,
            "payout_confirmed_by": "seller",
            "id_verified_by": "staff:1",
            "id_verified_at": "2026-11-20T16:00:00+00:00",
        })  # fmt: skip


# The staff area: a movable TOTP clock, and driving enrolment and sign-in through the real pages
# (the test computes TOTP codes with pyotp, as an authenticator app would).

PASSWORD = "correct horse battery staple"


class Clock:
    """Stands in for the time TOTP codes are checked against; each test starts at now."""

    def __init__(self):
        self.at = time.time()

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float = totp.STEP_SECONDS) -> None:
        self.at += seconds


def form_token(html: str) -> str:
    """The CSRF token of the (first) form in a page."""
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
        return self.request(client, "POST", path, data={**data, "csrf_token": form_token(page)})

    def enrol(self, client, link: str, email: str, password: str = PASSWORD) -> Account:
        path = "/staff/enrol/" + link.rsplit("/", 1)[1]
        response = self.post(client, path, {"password": password, "confirm": password})
        assert response.status_code == 303, response.get_data(as_text=True)
        page = self.request(client, "GET", path).get_data(as_text=True)
        secret = unescape(re.search(r"secret=([A-Z2-7]+)", page).group(1))
        code = pyotp.TOTP(secret).at(self.clock())
        data = {"code": code, "csrf_token": form_token(page)}
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


def database_at_version(path: str, version: int) -> sqlite3.Connection:
    """A leads database as an older release left it: the first `version` migration steps."""
    db = sqlite3.connect(path)
    for step in schema.MIGRATIONS[:version]:
        step(db)
    db.execute(f"PRAGMA user_version = {version}")
    return db


def give_token(app, lead_id: int) -> str:
    """Issue a status link for a stored lead, as the e-mail jobs do; its token."""
    token = new_status_token()
    with app.app_context():
        links.add_status_link(lead_id, digest(token))
    return token


def status_link_count(app, lead_id: int) -> int:
    """How many status links (token hashes) a lead has been given."""
    with app.app_context(), transaction() as db:
        query = "SELECT count(*) FROM status_links WHERE lead_id = ?"
        return db.execute(query, (lead_id,)).fetchone()[0]


def answer_data(client, token: str, said: str) -> dict:
    """An answer form of the seller's status page as the browser posts it: the button pressed,
    the CSRF token, and the quote or offer the page shows (none when it shows none)."""
    page = client.get(f"/status/{token}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    shown = re.search(r'name="shown" value="(\d+)"', page)
    return {"answer": said, "csrf_token": csrf} | ({"shown": shown.group(1)} if shown else {})


def island_messages(rules: dict, cases) -> list:
    """What components/shared/validation.js, run in Node on the form's own `rules`, says of
    each (field, value, _) case: the island's message, or null."""
    script = (
        "import { fieldError } from './components/shared/validation.js';"
        "const { rules, cases } = JSON.parse(process.argv[1]);"
        "console.log(JSON.stringify(cases.map(([n, v]) => fieldError(rules[n], v))));"
    )
    payload = json.dumps({"rules": rules, "cases": [[name, value] for name, value, _ in cases]})
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script, payload],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def backdate_activity(app, lead_id: int, margin: timedelta) -> None:
    """The lead's last activity LEAD_RETENTION_MONTHS ago, moved by `margin` towards today."""
    months = app.config["LEAD_RETENTION_MONTHS"]
    assert months == 24
    then = retention.months_before(datetime.now(UTC), months) + margin
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE leads SET last_activity_at = ? WHERE id = ?",
            (then.isoformat(timespec="seconds"), lead_id),
        )
