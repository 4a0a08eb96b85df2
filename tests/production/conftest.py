"""The production shape, started once for this folder's tests from the files in deploy/ as they
ship: nginx (deploy/nginx.conf, TLS from a throwaway CA) in front of gunicorn
(deploy/gunicorn.conf.py, APP_ENV=production), Redis, `flask rq worker --with-scheduler`, and an
SMTP server on loopback that takes mail only over verified STARTTLS with a login. Chromium
reaches the site at https://www.watchbuyers.test:<port>, resolved to loopback by
--host-resolver-rules, and trusts the test's certificate.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

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

SMTP_LOGIN = ("relay-user", "relay-password-7c1f")


@dataclass
class Site:
    """The running production shape: its public URL, settings, mail and processes' logs."""

    url: str
    env: dict
    front: Front
    mail: SmtpInbox
    folder: Path

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
                   tls: Tls) -> dict:  # fmt: skip
    """Real-looking production settings, as an operator would export them."""
    instance = folder / "instance"
    return {
        **os.environ,
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
        # The relay's certificate is checked against the system's CAs; OpenSSL reads this.
        "SSL_CERT_FILE": str(tls.ca_file),
        "JOB_RETRY_INTERVALS": "1,2",
        # Two sellers, a staff member and the attack tests share one loopback address here.
        "SELL_RATELIMIT": "60 per minute",
        "STATUS_LINK_RATELIMIT": "30 per minute",
        "STATUS_ACTION_RATELIMIT": "60 per minute",
        "WEB_CONCURRENCY": "2",
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
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("production")
    tls = make_tls(folder)
    redis = RedisServer(folder)
    redis.start()
    mail, smtp = start_smtp(tls)
    https_port, app_port = free_port(), free_port()
    env = production_env(folder, https_port, redis, mail, tls)
    env["GUNICORN_BIND"] = f"127.0.0.1:{app_port}"
    (folder / "instance").mkdir()
    site = Site(f"https://{HOST}:{https_port}", env, None, mail, folder)
    for command in (("seed",), ("content", "check"), ("freeze",)):  # as docs/deployment.md says
        site.flask(*command)
    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        "deploy/gunicorn.conf.py",
        "app:create_app()",
    ]
    processes = [
        start_process(gunicorn, env, folder / "gunicorn.log"),
        start_process(
            [sys.executable, "-m", "flask", "rq", "worker", "--with-scheduler"],
            env,
            folder / "worker.log",
        ),  # fmt: skip
    ]
    wait_for_port(app_port, timeout=60)
    site.front = start_front(
        folder, instance=folder / "instance", app_server=f"127.0.0.1:{app_port}", tls=tls,
        https_port=https_port,
    )  # fmt: skip
    wait_until(lambda: site.front.request("GET", "/").status == 200, timeout=30)
    yield site
    site.front.stop()
    for process in processes:
        stop_process(process)
    smtp.stop()
    redis.stop()


@pytest.fixture(scope="session")
def site_browser(site, playwright):
    """Chromium that resolves the site's name to loopback and trusts its certificate."""
    args = [
        *CHROMIUM_ARGS,
        f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
        f"--ignore-certificate-errors-spki-list={site.front.tls.spki_sha256}",
    ]
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
    yield browser
    browser.close()


def pytest_collection_modifyitems(items) -> None:
    """Every production-shape test on one worker of the test command's (pytest-xdist, whose
    --dist loadgroup keeps a group together): the stack they share (nginx, gunicorn, Redis, the
    rq worker, the frozen pages) is then started once, not once per worker."""
    for item in items:
        if "production" in item.path.parts:
            item.add_marker(pytest.mark.xdist_group("production"))
