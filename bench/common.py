"""What the benchmark scripts share: the site's production settings, gunicorn under the
documented config, processes that are always stopped, HTTP fetches, tables and target records.

Used as a module by bench/lighthouse.py, bench/load.py and bench/cold_start.py, and as a small
command by bench/run (`free-port`, `serve-site`, `wait`, `summary`), so the gunicorn command
line is written once.
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, contextmanager, suppress
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
VENV_BIN = ROOT / ".venv" / "bin"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
NGINX_FRONT_CONF = ROOT / "deploy" / "nginx.conf"
SITE_APP = "app:create_app()"
BENCH_HOSTS = "bench.example,127.0.0.1,localhost"


# ---------------------------------------------------------------- settings and paths


def site_env() -> dict[str, str]:
    """Production settings for a loopback run.

    APP_ENV=production refuses a guessable SECRET_KEY and a non-https SITE_URL, and answers
    only SITE_URL's host unless TRUSTED_HOSTS says more: the benchmark talks to 127.0.0.1.
    bench/run exports these once so every process of a run shares them.
    """
    env = dict(os.environ)
    env["APP_ENV"] = "production"
    env.setdefault("SECRET_KEY", secrets.token_hex(32))
    env.setdefault("STAFF_TOTP_KEY", secrets.token_hex(32))
    env.setdefault("SITE_URL", "https://bench.example")
    env["TRUSTED_HOSTS"] = BENCH_HOSTS
    return env


@cache
def work_dir() -> Path:
    """The run's scratch directory: bench/run's BENCH_TMP (which bench/run removes), or for a
    script run alone a temporary directory removed when it exits."""
    if os.environ.get("BENCH_TMP"):
        return Path(os.environ["BENCH_TMP"])
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


# ---------------------------------------------------------------- gunicorn


def gunicorn_config_args() -> tuple[list[str], str]:
    """The documented config when it exists, else a plain two-worker stand-in (and why)."""
    if GUNICORN_CONF.exists():
        return ["-c", str(GUNICORN_CONF)], f"-c {GUNICORN_CONF.relative_to(ROOT)}"
    return ["-w", "2"], "-w 2 (deploy/gunicorn.conf.py missing: plain stand-in)"


def _supports_control_socket() -> bool:
    """gunicorn >= 24 opens a control socket at one fixed path per user: two masters at once
    (site and bare app) would fight over it, so each gets its own in the scratch dir."""
    out = subprocess.run(
        [str(VENV_BIN / "gunicorn"), "--help"], capture_output=True, text=True, check=False
    ).stdout
    return "--control-socket" in out


def gunicorn_command(app_spec: str, port: int, name: str, extra: list[str] | None = None) -> list:
    """gunicorn under the documented config, bound to a loopback port of our own.

    Command-line options override the config file's, so only the address, the pid file and
    the control socket change; workers, threads, timeouts and logging stay as documented.
    """
    config, _ = gunicorn_config_args()
    scratch = work_dir()
    command = [str(VENV_BIN / "gunicorn"), *config, "-b", f"127.0.0.1:{port}"]
    command += ["--pid", str(scratch / f"{name}.gunicorn.pid")]
    if _supports_control_socket():
        command += ["--control-socket", str(scratch / f"{name}.gunicorn.ctl")]
    return [*command, *(extra or []), app_spec]


# ---------------------------------------------------------------- processes


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name: [state, ppid, ..., starttime at index 19]."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _descendants(pid: int) -> list[tuple[int, str]]:
    """Every process below pid, with its start time (so a reused pid is never killed)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        fields = _stat(int(entry.name))
        if fields:
            children.setdefault(int(fields[1]), []).append((int(entry.name), fields[19]))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def stop_process(process: subprocess.Popen, grace: float = 10) -> None:
    """SIGTERM the process's own group (gunicorn master and workers, nginx master and workers),
    SIGKILL it after the grace period, then anything that was below it and is still there
    (Chrome, started by Lighthouse in a session of its own)."""
    below = _descendants(process.pid)
    if process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    for pid, started in below:
        fields = _stat(pid)
        if fields and fields[19] == started:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def start(command: list[str], log: Path, env: dict | None = None) -> subprocess.Popen:
    """Start a server in its own session (so one killpg stops all of it), output to log."""
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
    return process


@contextmanager
def running(command: list[str], log: Path, ready_url: str, env: dict | None = None):
    """A server for the duration of a with-block: started, waited for, always stopped."""
    process = start(command, log, env)
    try:
        wait_for(ready_url, process=process, log=log)
        yield process
    finally:
        stop_process(process)


def site_for(stack: ExitStack, given: str | None) -> str:
    """The site to measure: the one given, or the site under gunicorn started for the with-block
    that `stack` belongs to (its log is results/site.log)."""
    if given:
        return given
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    command = gunicorn_command(SITE_APP, port, "site")
    stack.enter_context(running(command, results_dir() / "site.log", site + "/"))
    return site


def exit_on_sigterm() -> None:
    """Turn bench/run's SIGTERM into SystemExit so with-blocks stop their servers."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


# ---------------------------------------------------------------- HTTP


def fetch(url: str, headers: dict | None = None, timeout: float = 10):
    """(status, headers, body) of one GET, body as sent (not decompressed)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def _gone(pid: int) -> bool:
    fields = _stat(pid)
    return fields is None or fields[0] in ("Z", "X")


def wait_for(
    url: str,
    timeout: float = 60,
    process: subprocess.Popen | None = None,
    log: Path | None = None,
    pid: int | None = None,
) -> float:
    """Poll until url answers 200; return the seconds waited. Fail early if the server died
    (our child `process`, or bench/run's server `pid`)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process is not None and process.poll() is not None:
            tail = log.read_text()[-2000:] if log else ""
            raise RuntimeError(f"server exited with {process.returncode} before {url}\n{tail}")
        if pid is not None and _gone(pid):
            raise RuntimeError(f"server {pid} exited before {url} answered")
        try:
            if fetch(url, timeout=2)[0] == 200:
                return time.monotonic() - started
        except OSError:
            pass
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


def verdict(passed: bool | str | None) -> str:
    return VERDICTS[passed]


def record_target(section_name: str, target: str, value: str, passed: bool | str | None) -> None:
    """One line of the final summary (bench/run prints them all at the end).

    passed: True/False for a target of issue 5, None when it could not be measured (SKIP),
    "info" for a number printed without a target.
    """
    path = Path(os.environ.get("BENCH_TARGETS") or work_dir() / "targets.jsonl")
    with path.open("a") as out:
        out.write(
            json.dumps(
                {"section": section_name, "target": target, "value": value, "passed": passed}
            )
            + "\n"
        )


def summary(path: Path) -> int:
    """The closing table: every target of issue 5 with its measured value and PASS/MISS."""
    rows = []
    if path.exists():
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    section("Targets of issue 5 (floors)")
    if not rows:
        print("no targets were measured")
        return 0
    print(
        table(
            ["part", "target", "measured", "result"],
            [[r["section"], r["target"], r["value"], verdict(r["passed"])] for r in rows],
            right=set(),
        )
    )
    counts = {v: sum(1 for r in rows if r["passed"] is v) for v in (True, False, None)}
    print(f"\n{counts[True]} PASS, {counts[False]} MISS, {counts[None]} SKIP (not measured)")
    return 0


# ---------------------------------------------------------------- command line for bench/run


def main(argv: list[str]) -> int:
    command, *args = argv or ["help"]
    if command == "free-port":
        print(free_port())
    elif command == "serve-site":  # serve-site PORT: become gunicorn serving the site
        gunicorn = gunicorn_command(SITE_APP, int(args[0]), "site")
        os.execve(gunicorn[0], gunicorn, site_env())
    elif command == "wait":  # wait URL SECONDS [PID]
        pid = int(args[2]) if len(args) > 2 else None
        try:
            print(f"{wait_for(args[0], float(args[1]), pid=pid):.1f}")
        except RuntimeError as error:
            print(error, file=sys.stderr)
            return 1
    elif command == "config":
        print(gunicorn_config_args()[1])
    elif command == "summary":
        return summary(Path(args[0]))
    else:
        print(
            "usage: common.py free-port | serve-site PORT | wait URL SECONDS [PID] | config | "
            "summary FILE",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
