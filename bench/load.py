"""Server load on loopback with wrk: the site beside what it is measured against, in one run.

For each page (a cached page, /, and a city page, /sell-watch-boston), four targets answer the
same bytes, each loaded with `wrk -t2 -c32 -d10s --latency -H "Accept-Encoding: gzip"` after a
short warm-up:

  site        the site under gunicorn with the documented config
  bare        bench/bare_app.py replaying the site's saved response under the same config
              (the ceiling of Flask + gunicorn for those bytes)
  nginx-file  nginx serving the same HTML saved to disk (gzip_static; no app at all)
  front       the site behind the documented nginx front (deploy/nginx.conf, adapted to
              loopback ports in a temporary copy), which serves `flask freeze`'s files

and the ratios site/bare and front/nginx-file are checked against issue 5's targets. Everything
runs on this machine's two cores, wrk included, so absolute numbers are for comparison only.

    .venv/bin/python bench/load.py [--site http://127.0.0.1:PORT] [--duration 10]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import subprocess
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import bare_app
import common

PAGES = ("/", "/sell-watch-boston")
PAGE_NAMES = {"/": "cached page /", "/sell-watch-boston": "city /sell-watch-boston"}
WRK_OPTIONS = ["-t2", "-c32", "--latency", "-H", "Accept-Encoding: gzip"]
WRK_SHOWN = 'wrk -t2 -c32 -d{}s --latency -H "Accept-Encoding: gzip"'
WARMUP_SECONDS = 2
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NGINX_MODULES = Path("/usr/lib/nginx/modules")
BROTLI_MODULES = ("ngx_http_brotli_filter_module.so", "ngx_http_brotli_static_module.so")
SITE_OVER_BARE = 0.80
FRONT_OVER_FILE = 0.90
P99_MS = 20.0


@dataclass
class WrkResult:
    requests_per_s: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: str  # "" when every response was 2xx/3xx and no socket error


# ---------------------------------------------------------------- wrk

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0, "h": 3600000.0}


def parse_duration_ms(text: str) -> float:
    """wrk prints latencies as 812.00us, 1.23ms, 2.01s, 1.00m."""
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text)
    if not match:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match.group(1)) * UNITS_MS[match.group(2)]


def parse_wrk(output: str) -> WrkResult:
    """Requests/sec, the 50 % and 99 % lines of --latency, the request count and any errors."""
    rps = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.M)
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.M)
    total = re.search(r"^\s+(\d+) requests in", output, re.M)
    if not (rps and p50 and p99 and total):
        raise ValueError("unexpected wrk output:\n" + output)
    errors = []
    socket_errors = re.search(r"Socket errors: (.*)", output)
    if socket_errors:
        counts = dict(re.findall(r"(\w+) (\d+)", socket_errors.group(1)))
        errors += [f"{k} {v}" for k, v in counts.items() if int(v)]
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non_2xx:
        errors.append(f"non-2xx {non_2xx.group(1)}")
    return WrkResult(
        float(rps.group(1)),
        parse_duration_ms(p50.group(1)),
        parse_duration_ms(p99.group(1)),
        int(total.group(1)),
        ", ".join(errors),
    )


def run_wrk(url: str, duration: int, label: str) -> WrkResult:
    """A short unmeasured warm-up, then the measured run; wrk's text is kept in results/."""
    subprocess.run(
        ["wrk", *WRK_OPTIONS, f"-d{WARMUP_SECONDS}s", url],
        capture_output=True,
        check=True,
        timeout=WARMUP_SECONDS + 30,
    )
    done = subprocess.run(
        ["wrk", *WRK_OPTIONS, f"-d{duration}s", url],
        capture_output=True,
        text=True,
        check=True,
        timeout=duration + 30,
    )
    (common.results_dir() / f"wrk-{label}.txt").write_text(done.stdout)
    return parse_wrk(done.stdout)


# ---------------------------------------------------------------- what each target serves


def save_site_responses(site: str, bare_dir: Path, files_dir: Path) -> dict[str, int]:
    """Fetch each page from the warm site, keep the response for the bare app and the page as
    files for nginx (index.html, and index.html.gz holding the site's exact gzip bytes)."""
    sizes = {}
    for path in PAGES:
        common.warm(site + path)
        status, headers, body = common.fetch(site + path, {"Accept-Encoding": "gzip"})
        if status != 200:
            raise RuntimeError(f"site answered {status} for {path}")
        bare_app.save_response(bare_dir, path, status, headers, body)
        gzipped = headers.get("Content-Encoding") == "gzip"
        target = files_dir / path.strip("/") / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(gzip.decompress(body) if gzipped else body)
        if gzipped:
            target.with_name("index.html.gz").write_bytes(body)
        sizes[path] = len(body)
    for path in [files_dir, *files_dir.rglob("*")]:  # nginx workers run as nobody
        path.chmod(0o755 if path.is_dir() else 0o644)
    return sizes


def module_lines(http_body: str) -> str:
    """brotli_static needs Debian's dynamic module: loaded only when the config turns it on."""
    if not re.search(r"(?m)^\s*brotli", http_body):
        return ""
    return "".join(
        f"load_module {NGINX_MODULES / name};\n"
        for name in BROTLI_MODULES
        if (NGINX_MODULES / name).exists()
    )


def nginx_main_conf(name: str, http_body: str) -> Path:
    """A whole nginx config for a foreground nginx whose every file lives in the scratch dir.

    Both nginx targets share these http-level settings, so their ratio compares the front's
    routing with plain file serving and nothing else.
    """
    scratch = common.work_dir() / name
    scratch.mkdir(exist_ok=True)
    scratch.chmod(0o755)
    modules = module_lines(http_body)
    temp = "\n".join(
        f"    {kind}_temp_path {scratch}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf = scratch / "nginx.conf"
    conf.write_text(f"""{modules}worker_processes auto;
daemon off;
pid {scratch}/nginx.pid;
error_log {scratch}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
{temp}
{http_body}
}}
""")
    return conf


def nginx_file_conf(port: int, files_dir: Path) -> Path:
    server = f"""
    server {{
        listen 127.0.0.1:{port};
        root {files_dir};
        gzip_static on;
        location = / {{ try_files /index.html =404; }}
        location / {{ try_files $uri/index.html =404; }}
    }}"""
    return nginx_main_conf("nginx-file", server)


def adapt_front(text: str, port: int, site_port: int, frozen: Path) -> str:
    """deploy/nginx.conf on loopback: our listen port, our gunicorn, this checkout's paths.

    Done as its header comment says (replace the placeholder path with the checkout's), with
    the frozen pages and their headers file taken from this run's `flask freeze`. Locations,
    try_files, compression and headers stay as documented; logs go to the scratch dir.
    """
    scratch = common.work_dir() / "nginx-front"
    said = re.search(r"Replace (/\S+) with the checkout's path", text)
    placeholder = said.group(1) if said else "/srv/watchbuyers"
    text = text.replace(f"{placeholder}/instance/pages", str(frozen / "pages"))
    text = text.replace(
        f"{placeholder}/instance/nginx-headers.conf", str(frozen / "nginx-headers.conf")
    )
    text = text.replace(placeholder, str(common.ROOT))
    text = re.sub(r"(?m)^\s*(ssl_\w+|http2|listen\s+[^;]*\bssl\b)[^;]*;\s*$", "", text)
    listens = iter([f"listen 127.0.0.1:{port};"])
    text = re.sub(r"(?m)^(\s*)listen\s+[^;]+;", lambda m: m.group(1) + next(listens, ""), text)
    text = re.sub(r"\b(127\.0\.0\.1|localhost):8000\b", f"127.0.0.1:{site_port}", text)
    text = re.sub(
        r"\b(access_log|error_log)\s+(?!off\b)[^\s;]+",
        lambda m: f"{m.group(1)} {scratch}/{m.group(1)}.log",
        text,
    )
    return text


def nginx_front_conf(port: int, site_port: int, frozen: Path) -> Path:
    text = common.NGINX_FRONT_CONF.read_text()
    if re.search(r"(?m)^\s*http\s*\{", text):
        raise RuntimeError("deploy/nginx.conf is a whole config, not a server block")
    return nginx_main_conf("nginx-front", adapt_front(text, port, site_port, frozen))


def nginx_command(conf: Path) -> list[str]:
    """Foreground nginx (daemon off in the config) with its own prefix and startup error log."""
    return [NGINX, "-p", str(conf.parent), "-e", str(conf.parent / "error.log"), "-c", str(conf)]


def check_nginx(conf: Path) -> None:
    done = subprocess.run([*nginx_command(conf), "-t"], capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"nginx -t refused {conf}:\n{done.stderr.strip()}")


# ---------------------------------------------------------------- flask freeze


def freeze_pages() -> Path:
    """`flask freeze` with the run's settings, so the front serves the bytes the site renders.

    PAGES_DIR points it at the scratch dir: the checkout's instance/pages (maybe a real
    deploy's) is left alone. Returns the folder holding pages/ and nginx-headers.conf.
    """
    frozen = common.work_dir() / "frozen"
    env = common.site_env() | {"PAGES_DIR": str(frozen / "pages")}
    flask = [str(common.VENV_BIN / "flask"), "--app", "app", "freeze"]
    done = subprocess.run(
        flask, cwd=common.ROOT, env=env, capture_output=True, text=True, check=False, timeout=600
    )
    (common.results_dir() / "freeze.log").write_text(done.stdout + done.stderr)
    if done.returncode:
        raise RuntimeError(f"`flask freeze` failed:\n{(done.stdout + done.stderr)[-2000:]}")
    for path in [frozen, *frozen.rglob("*")]:  # nginx workers run as nobody
        path.chmod(0o755 if path.is_dir() else 0o644)
    print(done.stdout.strip() or f"flask freeze wrote {frozen}")
    return frozen


# ---------------------------------------------------------------- the run


def body_size(url: str) -> int:
    """The bytes a gzip-accepting client gets; also proves the target answers 200."""
    status, _, body = common.fetch(url, {"Accept-Encoding": "gzip"})
    if status != 200:
        raise RuntimeError(f"{url} answered {status}")
    return len(body)


def measure(targets: dict[str, str], duration: int, skipped: dict[str, str]) -> dict:
    """wrk against every (target, page) whose server is up; results keyed by (target, page).
    A target that fails on a page is noted in `skipped` and the run goes on."""
    results = {}
    for path in PAGES:
        for target, base in targets.items():
            if target in skipped:
                continue
            label = f"{target}-{path.strip('/') or 'index'}"
            try:
                size = body_size(base + path)
                results[target, path] = (run_wrk(base + path, duration, label), size)
            except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as error:
                skipped[f"{target} {path}"] = str(error).strip().splitlines()[0]
    return results


def print_results(results: dict, skipped: dict[str, str], targets: list[str]) -> None:
    rows = []
    for path in PAGES:
        for target in targets:
            if (target, path) in results:
                r, size = results[target, path]
                rows.append(
                    [
                        PAGE_NAMES[path],
                        target,
                        f"{r.requests_per_s:,.0f}",
                        f"{r.p50_ms:.2f}",
                        f"{r.p99_ms:.2f}",
                        f"{size:,}",
                        r.errors or "-",
                    ]
                )
            else:
                rows.append([PAGE_NAMES[path], target, "-", "-", "-", "-", "skipped"])
    print(
        common.table(
            ["page", "target", "req/s", "p50 ms", "p99 ms", "body B", "errors"],
            rows,
            right={2, 3, 4, 5},
        )
    )
    for name, why in skipped.items():
        print(f"  {name}: skipped: {why}")


def ratio_row(results, path, over, under, floor, label) -> list:
    """One ratio line, recorded as a target; missing measurements are SKIP, not MISS."""
    if (over, path) not in results or (under, path) not in results:
        common.record_target(
            "load", f"{label} {PAGE_NAMES[path]} >= {floor:.0%}", "not measured", None
        )
        return [PAGE_NAMES[path], f"{over}/{under}", "-", f">= {floor:.0%}", "SKIP"]
    ratio = results[over, path][0].requests_per_s / results[under, path][0].requests_per_s
    passed = ratio >= floor
    common.record_target(
        "load", f"{label} {PAGE_NAMES[path]} >= {floor:.0%}", f"{ratio:.0%}", passed
    )
    return [
        PAGE_NAMES[path],
        f"{over}/{under}",
        f"{ratio:.0%}",
        f">= {floor:.0%}",
        common.verdict(passed),
    ]


def print_targets(results: dict) -> None:
    rows = []
    for path in PAGES:
        rows.append(ratio_row(results, path, "site", "bare", SITE_OVER_BARE, "site/bare"))
        rows.append(
            ratio_row(results, path, "front", "nginx-file", FRONT_OVER_FILE, "front/nginx-file")
        )
        if ("site", path) in results:
            p99 = results["site", path][0].p99_ms
            common.record_target(
                "load",
                f"site p99 {PAGE_NAMES[path]} < {P99_MS:.0f} ms",
                f"{p99:.2f} ms",
                p99 < P99_MS,
            )
            rows.append(
                [
                    PAGE_NAMES[path],
                    "site p99",
                    f"{p99:.2f} ms",
                    f"< {P99_MS:.0f} ms",
                    common.verdict(p99 < P99_MS),
                ]
            )
    print()
    print(common.table(["page", "measure", "value", "target", "result"], rows, right={2}))


def start_servers(stack: ExitStack, site: str) -> tuple[dict[str, str], dict[str, str]]:
    """Bring up bare, nginx-file and front (the site is already up); say why any is skipped."""
    scratch = common.work_dir()
    logs = common.results_dir()
    targets = {"site": site, "bare": "", "nginx-file": "", "front": ""}
    skipped: dict[str, str] = {}
    bare_dir, files_dir = scratch / "bare", scratch / "files"
    sizes = save_site_responses(site, bare_dir, files_dir)
    print("saved from the site (gzip): " + ", ".join(f"{p} {n:,} B" for p, n in sizes.items()))

    port = common.free_port()
    env = common.site_env() | {"BENCH_BARE_DIR": str(bare_dir)}
    command = common.gunicorn_command(
        "bare_app:create_app()", port, "bare", ["--pythonpath", str(common.BENCH)]
    )
    targets["bare"] = f"http://127.0.0.1:{port}"
    stack.enter_context(common.running(command, logs / "bare.log", targets["bare"] + "/", env))

    port = common.free_port()
    conf = nginx_file_conf(port, files_dir)
    check_nginx(conf)
    targets["nginx-file"] = f"http://127.0.0.1:{port}"
    stack.enter_context(
        common.running(nginx_command(conf), logs / "nginx-file.log", targets["nginx-file"] + "/")
    )

    try:
        targets["front"] = start_front(stack, site)
    except RuntimeError as why:
        skipped["front"] = str(why)
    return targets, skipped


def start_front(stack: ExitStack, site: str) -> str:
    """The documented front on a loopback port, passing to the running site, or why not."""
    if not common.NGINX_FRONT_CONF.exists():
        raise RuntimeError("deploy/nginx.conf is missing")
    frozen = freeze_pages()
    port = common.free_port()
    site_port = int(site.rsplit(":", 1)[1])
    conf = nginx_front_conf(port, site_port, frozen)
    (common.results_dir() / "nginx-front.conf").write_text(conf.read_text())
    check_nginx(conf)
    url = f"http://127.0.0.1:{port}"
    stack.enter_context(
        common.running(nginx_command(conf), common.results_dir() / "nginx-front.log", url + "/")
    )
    return url


def worker_restarts(log: Path) -> int | None:
    """Workers gunicorn recycled (max_requests) while serving: a new worker starts with an
    empty per-process cache, which shows in the site's tail latency."""
    if not log.exists():
        return None
    return len(set(re.findall(r"\[(\d+)\] \[INFO\] Autorestarting worker", log.read_text())))


def print_restarts() -> None:
    counts = {
        name: worker_restarts(common.results_dir() / f"{name}.log") for name in ("site", "bare")
    }
    shown = [f"{name} {n}" for name, n in counts.items() if n is not None]
    if shown:
        print(f"  gunicorn workers recycled (max_requests) so far: {', '.join(shown)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", help="a running site (default: start one here)")
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    args = parser.parse_args()
    common.exit_on_sigterm()

    common.section(f"Server load on loopback: {WRK_SHOWN.format(args.duration)}")
    print(f"gunicorn {common.gunicorn_config_args()[1]} for both site and bare")
    print(common.machine_note())
    with ExitStack() as stack:
        targets, skipped = start_servers(stack, common.site_for(stack, args.site))
        results = measure(targets, args.duration, skipped)
    print()
    print_results(results, skipped, list(targets))
    print_restarts()
    print(f"  after the runs: {common.machine_note()}")
    print_targets(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
