"""What the benchmark scripts share: the site's production settings, the one way a server (or
any long-running tool) is started and stopped, HTTP fetches, tables and the targets summary.

Every process a script starts goes through `started`: it gets a process group of its own, so
one `os.killpg` stops it with everything it forked (gunicorn's workers, nginx's), and the
with-block stops it whatever happens. `python bench/common.py summary FILE` prints the
closing table of bench/run.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import secrets
import shutil
import signal
import socket
import ssl
import string
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager, suppress
from functools import cache
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
VENV_BIN = ROOT / ".venv" / "bin"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
SITE_APP = "app:create_app()"
SECRET_KEY = secrets.token_hex(32)
REPLICA_KEY = base64.b64encode(secrets.token_bytes(32)).decode()


# ---------------------------------------------------------------- settings and paths


def site_env() -> dict[str, str]:
    """Production settings for a loopback run, the same for every process of a script.

    APP_ENV=production refuses a guessable SECRET_KEY and a non-https SITE_URL, and answers
    only SITE_URL's host unless TRUSTED_HOSTS says more: the benchmark talks to 127.0.0.1.
    """
    return os.environ | {
        "APP_ENV": "production",
        "SECRET_KEY": SECRET_KEY,
        "STAFF_TOTP_KEY": SECRET_KEY,
        "PURCHASE_DATA_KEY": SECRET_KEY,
        "SITE_URL": "https://bench.example",
        "TRUSTED_HOSTS": "bench.example,127.0.0.1,localhost",
        "SITE_EMAIL": "offers@uswatchbuyers.com",  # not example.com: production refuses it
        "SITE_PHONE": "(212) 908-4417",  # nor a 555-01xx number
        "SITE_PHONE_E164": "+12129084417",
        "BUSINESS_LEGAL_NAME": "US Watch Buyers LLC",  # production requires the buyer's
        "BUSINESS_ADDRESS": "41 Orchard Street, Floor 3; New York, NY 10002",
        # Production refuses per-process limit counters (no REDIS_URL) unless told; the
        # benchmark runs without Redis on purpose and measures pages, not the limiter.
        "RATELIMIT_SINGLE_PROCESS": "1",
        # Production requires an off-site replica; the pages measured never reach it, and no
        # file is written, so none is started.
        "REPLICA_URL": "s3://bench-replica/site",
        "REPLICA_ENCRYPTION_KEY": REPLICA_KEY,
    }


@cache
def work_dir() -> Path:
    """The script's scratch directory, removed when it exits."""
    path = Path(tempfile.mkdtemp(prefix="bench-"))
    path.chmod(0o755)  # nginx workers (nobody) read the files saved here
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def results_dir() -> Path:
    """Raw outputs kept for reading after the run (Lighthouse JSON, wrk text, logs)."""
    path = Path(os.environ.get("BENCH_RESULTS") or BENCH / "results" / "latest")
    path.mkdir(parents=True, exist_ok=True)
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ConfTemplate(string.Template):
    """`${NAME}` placeholders in upper case, as envsubst fills them; nginx's own lower-case
    variables ($uri, $host) are left as they are."""

    idpattern = r"[A-Z][A-Z0-9_]*"
    flags = 0


def render(template: Path, values: dict[str, object], output: Path) -> Path:
    """Write `template` with its placeholders filled; every one of them must be given."""
    text = ConfTemplate(template.read_text())
    missing = set(text.get_identifiers()) - set(values)
    if missing:
        raise RuntimeError(f"{template.name}: no value for {', '.join(sorted(missing))}")
    output.write_text(text.safe_substitute(values))
    return output


# ---------------------------------------------------------------- processes


def gunicorn_command(app_spec: str, port: int, *extra: str) -> list[str]:
    """gunicorn under the documented config, bound to a loopback port of our own.

    Command-line options override the config file's, so only the address changes (and, from
    gunicorn 24, the control socket, one fixed path per user, is left off so that two masters
    can run at once); workers, threads, timeouts and logging stay as documented.
    """
    command = [str(VENV_BIN / "gunicorn"), "-c", str(GUNICORN_CONF), "-b", f"127.0.0.1:{port}"]
    if int(version("gunicorn").split(".")[0]) >= 24:
        command.append("--no-control-socket")
    return [*command, *extra, app_spec]


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM, grace: float = 10) -> None:
    """Signal the process's group, SIGKILL the group if it is still there after `grace`."""
    if process.poll() is not None:
        return
    with suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


@contextmanager
def started(command: list[str], log: Path, env: dict | None = None, stop_signal=signal.SIGTERM):
    """A process in a session of its own for the with-block, output to log, always stopped.

    stop_signal: Lighthouse is stopped with SIGINT, on which it closes the Chrome it launched
    (Chrome runs in a process group of its own).
    """
    with log.open("ab") as out:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env or site_env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        stop(process, stop_signal)


@contextmanager
def server(command: list[str], log: Path, ready_url: str, env: dict | None = None):
    """A server for the with-block: started, answering 200 on ready_url, always stopped."""
    with started(command, log, env) as process:
        wait_for(ready_url, process, log)
        yield process


def site_for(
    stack: ExitStack, given: str | None, app_spec: str = SITE_APP, extra: tuple[str, ...] = ()
) -> str:
    """The site to measure: the one given, or the site under gunicorn for the with-block that
    `stack` belongs to (its log is results/site.log). app_spec and extra (gunicorn options)
    name a wrapper around the site instead, such as bench/noscripts_app.py."""
    if given:
        return given
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    command = gunicorn_command(app_spec, port, *extra)
    stack.enter_context(server(command, results_dir() / "site.log", site + "/"))
    return site


def exit_on_sigterm() -> None:
    """Turn SIGTERM (bench/run passes Ctrl-C on as one) into SystemExit, so with-blocks stop
    their servers."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


# ---------------------------------------------------------------- HTTP


@cache
def tls_files() -> dict[str, Path]:
    """A throwaway CA and a certificate it signed for 127.0.0.1, for the nginx targets (the
    documented front is HTTPS only); TLS_CERT, TLS_KEY and the CA file clients trust."""
    import trustme  # the test extra, installed by bin/setup

    folder = work_dir() / "tls"
    folder.mkdir()
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    cert.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    cert.private_key_pem.write_to_path(str(folder / "key.pem"))
    return {"TLS_CERT": folder / "cert.pem", "TLS_KEY": folder / "key.pem", "CA": folder / "ca.pem"}


def fetch(url: str, headers: dict | None = None, timeout: float = 10):
    """(status, headers, body) of one GET, body as sent (not decompressed); https:// URLs are
    checked against tls_files()' CA."""
    request = urllib.request.Request(url, headers=headers or {})
    context = None
    if url.startswith("https://"):
        context = ssl.create_default_context(cafile=str(tls_files()["CA"]))
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def wait_for(url: str, process: subprocess.Popen, log: Path, timeout: float = 120) -> float:
    """Poll every 5 ms until url answers 200; the seconds waited. Fails at once if the server
    exits first, with the end of its log."""
    begun = time.monotonic()
    while time.monotonic() - begun < timeout:
        if process.poll() is not None:
            tail = log.read_text()[-2000:]
            raise RuntimeError(f"server exited with {process.returncode} before {url}\n{tail}")
        with suppress(OSError):
            if fetch(url, timeout=2)[0] == 200:
                return time.monotonic() - begun
        time.sleep(0.005)
    raise RuntimeError(f"no 200 from {url} within {timeout:.0f} s")


def warm(url: str, times: int = 16) -> None:
    """Render the page into every worker's cache first: the targets are for a warm site."""
    for _ in range(times):
        fetch(url, {"Accept-Encoding": "gzip"})


# ---------------------------------------------------------------- output


def table(headers: list[str], rows: list[list], right: set[int] | None = None) -> str:
    """A plain-text table; columns in `right` are right-aligned (numbers)."""
    right = right if right is not None else set(range(1, len(headers)))
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(row) for row in cells[1:])])


def machine_note() -> str:
    """Cores and load average: other work on the machine shows up in every number here."""
    load = os.getloadavg()[0]
    note = f"{os.cpu_count()} cores, load average {load:.2f}"
    if load > 0.5:
        note += " (machine busy: numbers are lower and noisier than on an idle machine)"
    return note


def section(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 76 - len(title)), flush=True)


VERDICTS = {True: "PASS", False: "MISS", None: "SKIP", "info": "info"}


def record_target(part: str, target: str, value: str, passed: bool | str | None) -> str:
    """Keep one line for the closing summary (bench/run sets BENCH_TARGETS); its verdict.

    passed: True/False for a target (issues 5 and 13), None when it could not be measured (SKIP),
    "info" for a number printed without a target.
    """
    if os.environ.get("BENCH_TARGETS"):
        line = {"section": part, "target": target, "value": value, "passed": passed}
        with open(os.environ["BENCH_TARGETS"], "a") as out:
            out.write(json.dumps(line) + "\n")
    return VERDICTS[passed]


def summary(path: Path) -> int:
    """The closing table: every target with its measured value and PASS/MISS."""
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    section("Targets of issues 5, 13 and 23 (floors)")
    if not rows:
        print("no targets were measured")
        return 0
    cells = [[r["section"], r["target"], r["value"], VERDICTS[r["passed"]]] for r in rows]
    print(table(["part", "target", "measured", "result"], cells, right=set()))
    counts = {v: sum(1 for r in rows if r["passed"] is v) for v in (True, False, None)}
    print(f"\n{counts[True]} PASS, {counts[False]} MISS, {counts[None]} SKIP (not measured)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] != ["summary"] or len(sys.argv) != 3:
        sys.exit("usage: common.py summary FILE")
    sys.exit(summary(Path(sys.argv[2])))
