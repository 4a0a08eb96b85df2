"""The production shape, started once for this folder's tests from the files in deploy/ as they
ship: nginx (deploy/nginx.conf, TLS from a throwaway CA) in front of gunicorn
(deploy/gunicorn.conf.py, APP_ENV=production), Redis, an rq worker per queue
(deploy/watchbuyers-worker@.service), Litestream (deploy/watchbuyers-litestream.service)
replicating to an S3 server on loopback (tests/storage.py), and an SMTP server on loopback that
takes mail only over verified STARTTLS with a login, and the label provider's fake
(tests/shipping/fake_easypost.py) over TLS with the same CA's certificate, trusted by the
site's processes through REQUESTS_CA_BUNDLE, and the stolen-watch register's
(tests/sale/purchase/fake_register.py), asked by the worker over TLS with that CA's
certificate too, trusted through SSL_CERT_FILE (urllib's and httpx's), as is the bank's
(tests/payouts/fake_increase.py; its settings are given, payouts by its API are turned on by a
stack of their own, tests/production/test_payouts.py). Chromium reaches the site at
https://www.watchbuyers.test:<port>, resolved to loopback by --host-resolver-rules, and
trusts the test's certificate.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from app.queue import QUEUES
from tests.browser.helpers import CHROMIUM, CHROMIUM_ARGS
from tests.front import HOST, Front, Tls, make_tls, start_front
from tests.helpers import (
    PRODUCTION_CONTACTS,
    ROOT,
    RedisServer,
    SmtpInbox,
    free_port,
    stop_process,
    wait_for_port,
    wait_until,
)
from tests.payouts.fake_increase import ACCOUNT_NUMBER_ID, FakeIncrease
from tests.production.units import unit_commands
from tests.sale.purchase.fake_register import FakeRegister
from tests.shipping.fake_easypost import FakeEasyPost
from tests.storage import ObjectStorage

SMTP_LOGIN = ("relay-user", "relay-password-7c1f")
WEBHOOK_SECRET = "whsec-production-shape-2b9d"
REGISTER_KEY = "reg-production-shape-5e8a"
BANK_KEY = "inc-production-shape-3f6c"
BANK_SECRET = "whsec-bank-production-shape-77a0"


@dataclass
class Site:
    """The running production shape: its public URL, settings, mail and processes' logs."""

    url: str
    env: dict
    front: Front
    mail: SmtpInbox
    folder: Path
    storage: ObjectStorage
    redis: RedisServer
    easypost: FakeEasyPost
    register: FakeRegister
    bank: FakeIncrease
    processes: list = field(default_factory=list)  # gunicorn, the workers, Litestream

    def flask(self, *args: str, **settings: str) -> str:
        """Run a `flask` command as an operator would on the server (with `settings` changed);
        its output."""
        done = subprocess.run(
            [sys.executable, "-m", "flask", *args],
            cwd=ROOT,
            env={**self.env, **settings},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def logs(self) -> str:
        """Every process's log, for a failing test's message."""
        return "\n".join(f"== {p.name}\n{p.read_text()[-3000:]}" for p in self.folder.glob("*.log"))


def production_env(folder: Path, https_port: int, redis: RedisServer, mail: SmtpInbox,
                   tls: Tls, storage: ObjectStorage, easypost: FakeEasyPost,
                   register: FakeRegister, bank: FakeIncrease) -> dict:  # fmt: skip
    """Real-looking production settings, as an operator would export them."""
    instance = folder / "instance"
    return {
        **os.environ,
        **storage.settings(),
        "FLASK_APP": "app",
        "APP_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(48),
        "STAFF_TOTP_KEY": secrets.token_urlsafe(48),
        "PURCHASE_DATA_KEY": secrets.token_urlsafe(48),
        "SITE_URL": f"https://{HOST}:{https_port}",
        **PRODUCTION_CONTACTS,
        "REDIS_URL": redis.url,
        "CONTENT_DB": str(instance / "content.db"),
        "LEADS_DB": str(instance / "leads.db"),
        "PAGES_DIR": str(instance / "pages"),
        "STAFF_EMAIL": "desk@uswatchbuyers.com",
        "MAIL_FROM": "offers@uswatchbuyers.com",
        "SMTP_HOST": mail.host,
        "SMTP_PORT": str(mail.port),
        "SMTP_USE_TLS": "1",
        "SMTP_USER": SMTP_LOGIN[0],
        "SMTP_PASSWORD": SMTP_LOGIN[1],
        # The relay's and the register's certificates are checked against the system's CAs;
        # OpenSSL (and so urllib) reads this.
        "SSL_CERT_FILE": str(tls.ca_file),
        # The label provider's (the fake's) certificate is checked by `requests` against this.
        "REQUESTS_CA_BUNDLE": str(tls.ca_file),
        "JOB_RETRY_INTERVALS": "1,2",
        # Two sellers, a staff member and the attack tests share one loopback address here.
        "SELL_RATELIMIT": "60 per minute",
        "STATUS_LINK_RATELIMIT": "30 per minute",
        "STATUS_ACTION_RATELIMIT": "60 per minute",
        "WEB_CONCURRENCY": "2",
        # The sale by mail on, its webhook answered here, its labels bought from the fake.
        "MAILIN_ENABLED": "1",
        "MAILIN_MAX_VALUE": "25000",
        "MAILIN_POLICY_REFERENCE": "HV-PARCEL-2026-0417",
        "MAILIN_CARRIER_ACCOUNT": "ca_ups_business",
        "MAILIN_RECEIVING_ADDRESS": "USWB Receiving; 41 Orchard Street; ; New York; NY; 10002; "
        "2129084417",
        "EASYPOST_API_KEY": "EZAK-production-shape",
        "EASYPOST_API_BASE": easypost.api_base,
        "EASYPOST_FILE_HOSTS": easypost.files_host,
        "EASYPOST_WEBHOOK_SECRET": WEBHOOK_SECRET,
        # The stolen-watch register asked by API, by the worker, from the fake over TLS.
        "REGISTER_API_URL": register.url,
        "REGISTER_API_KEY": REGISTER_KEY,
        "REGISTER_PROVIDER_NAME": "The Watch Register",
        # The bank's API, used once PAYOUT_PROVIDER is set (a stack of its own does).
        "INCREASE_API_KEY": BANK_KEY,
        "INCREASE_API_BASE": bank.api_base,
        "INCREASE_ACCOUNT_NUMBER_ID": ACCOUNT_NUMBER_ID,
        "INCREASE_WEBHOOK_SECRET": BANK_SECRET,
        "PAYOUT_MAX_AMOUNT": "25000",
        "PAYOUT_DAILY_LIMIT": "60000",
        "GUNICORN_ACCESS_LOG": "-",  # into gunicorn.log, which the log tests read
    }


def start_smtp(tls: Tls) -> tuple[SmtpInbox, Controller]:
    """A relay that offers STARTTLS with the test's certificate and refuses mail without it."""
    inbox = SmtpInbox("127.0.0.1", free_port())

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            inbox.messages.append(message_from_bytes(envelope.content, policy=policy.default))
            return "250 OK"

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and (
                auth_data.login.decode(),
                auth_data.password.decode(),
            )
            == SMTP_LOGIN
        )
        return AuthResult(success=ok)

    controller = Controller(
        Handler(),
        hostname=inbox.host,
        port=inbox.port,
        tls_context=tls.server_context(),
        require_starttls=True,
        auth_required=True,
        authenticator=authenticator,
    )
    controller.start()
    return inbox, controller


def start_process(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    """A service's process, its log appended to `log`, in a session (process group) of its own,
    so the drill can kill it with everything it started (gunicorn's workers)."""
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip


def start_litestream(env: dict, folder: Path) -> subprocess.Popen:
    """deploy/watchbuyers-litestream.service's two commands, its runtime directory in `folder`
    (the test's environment drops AWS_CA_BUNDLE, which this sandbox sets and Litestream cannot
    use; a server's environment file has no reason to set it)."""
    runtime = str(folder / "litestream-run")
    env = {name: value for name, value in env.items() if name != "AWS_CA_BUNDLE"}

    def here(command: list[str]) -> list[str]:
        return [part.replace("/run/watchbuyers-litestream", runtime) for part in command]

    for command in unit_commands("watchbuyers-litestream.service", "ExecStartPre"):
        subprocess.run(here(command), cwd=ROOT, env=env, check=True, capture_output=True)
    [command] = unit_commands("watchbuyers-litestream.service")
    return start_process(here(command), env, folder / "litestream.log")


def worker_commands() -> list[tuple[str, list[str]]]:
    """deploy/watchbuyers-worker@.service's command for each queue, the default one first."""
    return [(lane, unit_commands("watchbuyers-worker@.service", instance=lane)[0])
            for lane in QUEUES]  # fmt: skip


@contextmanager
def production_site(folder: Path, **settings: str) -> Iterator[Site]:
    """The production shape started in `folder` (its settings changed by `settings`), stopped
    when the block ends; each service in a process group of its own, as systemd runs it."""
    tls = make_tls(folder)
    redis = RedisServer(folder)
    redis.start()
    mail, smtp = start_smtp(tls)
    storage = ObjectStorage(folder)
    easypost = FakeEasyPost(tls=tls.server_context())
    register = FakeRegister(tls=tls.server_context())
    bank = FakeIncrease(tls=tls.server_context())
    https_port, app_port = free_port(), free_port()
    env = production_env(folder, https_port, redis, mail, tls, storage, easypost,
                         register, bank) | settings  # fmt: skip
    env["GUNICORN_BIND"] = f"127.0.0.1:{app_port}"
    (folder / "instance").mkdir()
    site = Site(f"https://{HOST}:{https_port}", env, None, mail, folder, storage, redis, easypost,
                register, bank)  # fmt: skip
    for command in (("seed",), ("content", "check"), ("freeze",),
                    ("leads", "replication", "prepare-bucket")):  # fmt: skip
        site.flask(*command)  # as docs/deployment.md and docs/durability.md say
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                "app:create_app()"]  # fmt: skip
    site.processes = [
        start_process(gunicorn, env, folder / "gunicorn.log"),
        *(start_process(command, env, folder / f"worker-{lane}.log")
          for lane, command in worker_commands()),
        start_litestream(env, folder),
    ]  # fmt: skip
    wait_for_port(app_port, timeout=60)
    site.front = start_front(
        folder, instance=folder / "instance", app_server=f"127.0.0.1:{app_port}", tls=tls,
        https_port=https_port,
    )  # fmt: skip
    wait_until(lambda: site.front.request("GET", "/").status == 200, timeout=30)
    try:
        yield site
    finally:
        site.front.stop()
        for process in site.processes:
            if process.poll() is None:
                stop_process(process)
        smtp.stop()
        easypost.stop()
        register.stop()
        bank.stop()
        if redis.process.poll() is None:
            redis.stop()
        storage.stop()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    with production_site(tmp_path_factory.mktemp("production")) as running:
        yield running


@pytest.fixture(scope="session")
def site_browser(site, playwright):
    """Chromium that resolves the site's name to loopback and trusts its certificate."""
    browser = browser_for(site, playwright)
    yield browser
    browser.close()


def browser_for(site, playwright):
    """Chromium launched to resolve the site's name to loopback and trust its certificate."""
    args = [
        *CHROMIUM_ARGS,
        f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
        f"--ignore-certificate-errors-spki-list={site.front.tls.spki_sha256}",
    ]
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items) -> None:
    """Every production-shape test that uses the shared stack (the `site` fixture: nginx,
    gunicorn, Redis, the rq worker, the frozen pages) on one worker of the test command's
    (pytest-xdist, whose --dist loadgroup keeps a group together), so it is started once, not
    once per worker. A test that starts a stack of its own (the replica drill) is a group of
    its own, free to run beside them on another worker. First among the hooks: xdist reads the
    groups in its own, and a mark added after it is ignored (each worker then started a stack)."""
    for item in items:
        if "production" in item.path.parts:
            shares_the_site = "site" in getattr(item, "fixturenames", ())
            group = "production" if shares_the_site else f"production-{item.name}"
            item.add_marker(pytest.mark.xdist_group(group))
