"""First page of a fresh clone: seconds from `bin/run` to the first 200 on /.

What a new developer waits for: the repository cloned into a temp dir with nothing built (no
.venv, node_modules, asset build, derived pictures or content database; the system packages and
the pip and npm caches of this machine are there), then `bin/run` on a free port (PORT), timed
until http://127.0.0.1:PORT/ answers 200. Each phase `bin/setup` announces (its "==>" lines)
is timed by when its line appeared, and the last one runs until `flask run` says it is serving;
the npm install and asset build, which bin/setup runs beside the virtualenv and pip, by the
seconds it prints for them (the phase "Waiting for..." is how long they held up the rest).
The target (docs/performance.md): at most 60 s. Then the page is checked as a browser would
load it: every /static/ URL it names (every <picture> source at every width, scripts, styles)
must answer 200, so a page pointing at a missing picture does not pass for a fast one. Last the
server is stopped and the temp dir removed.

It clones the committed HEAD of this repository: uncommitted changes are not in it. To measure
the working tree as it is, --from-worktree copies the files git would commit (tracked and
untracked, not ignored, so nothing built) instead.

--tests runs `bin/test` (bin/setup, then the whole pytest suite, browser tests included: many
minutes, and all of this machine's cores) in the fresh copy instead, and prints the setup phases
and pytest's wall time; arguments after it go to pytest.

    .venv/bin/python bench/first_page.py [--from-worktree] [--keep] [--tests [PYTEST_ARGS...]]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import common

TARGET = 60.0  # seconds (docs/performance.md)
SERVING = " * Serving Flask app"  # flask run's first line once bin/setup is done
ALONGSIDE = ", alongside "  # in bin/setup's line for the steps it runs in the background
BACKGROUND = re.compile(r"npm install and build: ([\d.]+) s$")  # printed when they are done


def fresh_copy(destination: Path, from_worktree: bool) -> str:
    """The repository at destination as a new developer gets it; says what was copied."""
    root = common.ROOT
    if not from_worktree:
        subprocess.run(["git", "clone", "--quiet", str(root), str(destination)], check=True)
        head = subprocess.run(
            ["git", "-C", str(destination), "rev-parse", "--short", "HEAD"],
            check=True,
            capture_output=True,
            text=True,
        )
        return f"git clone of {root} at {head.stdout.strip()} (committed HEAD only)"
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    copied = 0
    for name in filter(None, (os.fsdecode(entry) for entry in listed)):
        source, target = root / name, destination / name
        if not source.is_symlink() and not source.is_file():
            continue  # deleted in the working tree, not yet committed
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
        copied += 1
    return f"copy of the working tree of {root} ({copied} files, uncommitted changes included)"


class Output:
    """A process's output, each line stamped with the seconds since `begun` when it arrived,
    and kept in a log."""

    def __init__(self, process: subprocess.Popen, log: Path, begun: float):
        self.lines: list[tuple[float, str]] = []
        self.begun = begun
        self._thread = threading.Thread(target=self._read, args=(process, log), daemon=True)
        self._thread.start()

    def _read(self, process: subprocess.Popen, log: Path) -> None:
        with log.open("w") as out:
            for line in process.stdout:
                self.lines.append((time.monotonic() - self.begun, line.rstrip("\n")))
                out.write(line)
                out.flush()

    def seen(self, start: str) -> float | None:
        """When the first line starting with `start` arrived, if one has."""
        return next((at for at, line in list(self.lines) if line.startswith(start)), None)

    def join(self) -> None:
        self._thread.join(10)

    def phases(self, end: float, until: str | None = None) -> list[tuple[str, float]]:
        """Each "==>" phase of bin/setup with its seconds: to the next one, to the first line
        starting with `until` (the command run after setup), or to `end`. The npm install and
        asset build run in the background beside the Python steps: their seconds are the ones
        bin/setup prints once they are done (BACKGROUND), and bin/setup's "Waiting" phase is
        how long the Python steps then waited for them."""
        marks = [(at, line[4:]) for at, line in self.lines if line.startswith("==> ")]
        finish = self.seen(until) if until else None
        stops = [at for at, _ in marks[1:]] + [finish if finish is not None else end]
        background = next(
            (float(m[1]) for _, line in self.lines if (m := BACKGROUND.match(line))), None
        )
        return [
            (name, background if ALONGSIDE in name and background is not None else stop - at)
            for (at, name), stop in zip(marks, stops, strict=True)
        ]

    def tail(self, count: int = 40) -> str:
        return "\n".join(line for _, line in self.lines[-count:])


def launch(command: list[str], cwd: Path, env: dict) -> subprocess.Popen:
    """The command in a session of its own (common.stop ends it with all it started)."""
    return subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def child_env(**extra: str) -> dict[str, str]:
    """This environment without the benchmark's own virtualenv, so the copy uses its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    venv_bin = str(common.VENV_BIN)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env | extra


def first_200(url: str, process: subprocess.Popen, output: Output, timeout: float) -> float:
    """Seconds from the launch to the first 200 on url: polled every 0.1 s while bin/setup runs
    (the poll must not take CPU from it), every 5 ms once flask run is starting."""
    while time.monotonic() - output.begun < timeout:
        if process.poll() is not None:
            output.join()
            raise RuntimeError(f"bin/run exited with {process.returncode}\n{output.tail()}")
        try:
            status = common.fetch(url, timeout=5)[0]
        except OSError:
            status = None
        if status == 200:
            return time.monotonic() - output.begun
        if status is not None:
            raise RuntimeError(f"{url} answered {status} first\n{output.tail()}")
        time.sleep(0.005 if output.seen(SERVING) is not None else 0.1)
    raise RuntimeError(f"no 200 from {url} within {timeout:.0f} s\n{output.tail()}")


def broken_static_urls(site: str) -> tuple[int, list[str]]:
    """Every /static/ URL the home page names (src, srcset, href) and those not answering 200."""
    html = common.fetch(site + "/")[2].decode()
    urls = set(re.findall(r'(/static/[^\s"\',)]+)', html))
    return len(urls), sorted(url for url in urls if common.fetch(site + url)[0] != 200)


def measure_first_page(folder: Path, timeout: float) -> int:
    port = common.free_port()
    site = f"http://127.0.0.1:{port}"
    log = common.results_dir() / "first-page.log"
    print(f"bin/run output, as it comes: {log}", flush=True)
    begun = time.monotonic()
    process = launch(["bin/run"], folder, child_env(PORT=str(port)))
    output = Output(process, log, begun)
    try:
        seconds = first_200(site + "/", process, output, timeout)
        checked, broken = broken_static_urls(site)
    finally:
        common.stop(process)
        output.join()
    phases = output.phases(seconds, until=SERVING)
    served = output.seen(SERVING)
    rows = [[name, f"{took:.1f}"] for name, took in phases]
    if served is not None:
        rows.append(["flask run: start, first render of /", f"{seconds - served:.1f}"])
    rows.append(["bin/run to first 200 on /", f"{seconds:.1f}"])
    print(common.table(["phase", "seconds"], rows))
    verdict = "PASS" if seconds <= TARGET and not broken else "MISS"
    print(f"\nfirst page in {seconds:.1f} s (target <= {TARGET:.0f} s): {verdict}")
    print(f"{checked} /static/ URLs named by / checked: " + (", ".join(broken) or "all 200"))
    common.record_target(
        "first page",
        "fresh clone, bin/run to first 200 on /",
        f"{seconds:.1f} s",
        seconds <= TARGET and not broken,
    )
    return 0 if not broken else 1


def measure_tests(folder: Path, pytest_args: list[str]) -> int:
    log = common.results_dir() / "first-tests.log"
    print(f"bin/test output, as it comes: {log}", flush=True)
    begun = time.monotonic()
    process = launch(["bin/test", *pytest_args], folder, child_env())
    output = Output(process, log, begun)
    try:
        code = process.wait()
    finally:
        common.stop(process)
        output.join()
    total = time.monotonic() - begun
    session = "=" * 5  # pytest's first line: "==== test session starts ===="
    started = next(
        (at for at, line in output.lines if line.startswith(session) and "session starts" in line),
        None,
    )
    rows = [[name, f"{took:.1f}"] for name, took in output.phases(total, until=session)]
    if started is not None:
        rows.append(["pytest (wall)", f"{total - started:.1f}"])
    rows.append(["bin/test in all", f"{total:.1f}"])
    print(common.table(["phase", "seconds"], rows))
    summary = next(
        (line for _, line in reversed(output.lines) if re.search(r" in [\d.]+s", line)), ""
    )
    print(f"\nbin/test exited with {code}; pytest: {summary.strip('= ') or '(no summary line)'}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--from-worktree",
        action="store_true",
        help="copy the working tree's files (uncommitted changes included) instead of cloning HEAD",
    )
    parser.add_argument("--keep", action="store_true", help="leave the temp dir in place")
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for the page")
    parser.add_argument(
        "--tests",
        nargs=argparse.REMAINDER,
        metavar="PYTEST_ARGS",
        help="run bin/test (every test, many minutes) instead, with these pytest arguments",
    )
    args = parser.parse_args()
    common.exit_on_sigterm()

    folder = Path(tempfile.mkdtemp(prefix="first-page-")) / "watchbuyers"
    try:
        what = "bin/test" if args.tests is not None else "bin/run"
        common.section(
            f"Fresh copy: {what} "
            + ("to the end" if args.tests is not None else "to the first 200 on /")
        )
        print(fresh_copy(folder, args.from_worktree))
        print(f"in {folder}; {common.machine_note()}", flush=True)
        if args.tests is not None:
            return measure_tests(folder, args.tests)
        return measure_first_page(folder, args.timeout)
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder.parent, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
