"""Server load on loopback with wrk: the site beside what it is measured against, in one run.

For each page (a cached page, /, and a city page, /sell-watch-boston), four targets answer the
same bytes, each loaded with `wrk -t2 -c32 -d10s --latency -H "Accept-Encoding: gzip"` after a
short warm-up:

  site        the site under gunicorn with the documented config
  bare        bench/bare_app.py replaying the site's saved response under the same config
              (the ceiling of Flask + gunicorn for those bytes)
  nginx-file  nginx serving the same HTML saved to disk (gzip_static; no app at all)
  front       the site behind the documented nginx front (deploy/nginx.conf rendered for
              loopback ports), which serves `flask freeze`'s files

and the ratios site/bare and front/nginx-file are checked against the targets in
docs/performance.md. Everything runs on this machine's two cores, wrk included, so absolute
numbers are for comparison only.

    .venv/bin/python bench/load.py [--site http://127.0.0.1:PORT] [--duration 10]
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
from contextlib import ExitStack
from pathlib import Path

import bare_app
import common

PAGES = {"/": "cached page /", "/sell-watch-boston": "city /sell-watch-boston"}
WRK_OPTIONS = ["-t2", "-c32", "--latency", "-H", "Accept-Encoding: gzip"]
WRK_SHOWN = 'wrk -t2 -c32 -d{}s --latency -H "Accept-Encoding: gzip"'
WRK_SCRIPT = common.BENCH / "wrk-json.lua"
WARMUP_SECONDS = 2
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
BROTLI_MODULES = [
    Path("/usr/lib/nginx/modules") / f"ngx_http_brotli_{kind}_module.so"
    for kind in ("filter", "static")
]
RATIOS = [("site", "bare", 0.80), ("front", "nginx-file", 0.90)]  # over/under >= floor
P99_MS = 20.0


# ---------------------------------------------------------------- wrk


def run_wrk(url: str, duration: int, label: str) -> dict:
    """A short unmeasured warm-up, then the measured run; wrk's text is kept in results/.

    Requests/s, latency percentiles and errors come from wrk's own figures (wrk-json.lua)."""
    wrk = ["wrk", *WRK_OPTIONS, "-s", str(WRK_SCRIPT)]
    subprocess.run([*wrk, f"-d{WARMUP_SECONDS}s", url], capture_output=True, check=True,
                   timeout=WARMUP_SECONDS + 30)  # fmt: skip
    done = subprocess.run([*wrk, f"-d{duration}s", url], capture_output=True, text=True,
                          check=True, timeout=duration + 30)  # fmt: skip
    (common.results_dir() / f"wrk-{label}.txt").write_text(done.stdout)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    errors = [f"{k} {figures[k]}" for k in ("connect", "read", "write", "timeout") if figures[k]]
    errors += [f"non-2xx {figures['status']}"] if figures["status"] else []
    return {
        "rps": figures["requests"] / (figures["duration_us"] / 1e6),
        "p50_ms": figures["p50_us"] / 1000,
        "p99_ms": figures["p99_us"] / 1000,
        "errors": ", ".join(errors),
    }


# ---------------------------------------------------------------- what each target serves


def open_to_nginx(folder: Path) -> None:
    """nginx workers run as nobody: make every file readable."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


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
    open_to_nginx(files_dir)
    return sizes


def freeze_pages() -> Path:
    """`flask freeze` with the run's settings, so the front serves the bytes the site renders.

    PAGES_DIR points it at the scratch dir: the checkout's instance/pages (maybe a real
    deploy's) is left alone. Returns the folder holding pages/ and nginx-headers.conf.
    """
    frozen = common.work_dir() / "frozen"
    env = common.site_env() | {"PAGES_DIR": str(frozen / "pages")}
    flask = [str(common.VENV_BIN / "flask"), "--app", "app", "freeze"]
    done = subprocess.run(flask, cwd=common.ROOT, env=env, capture_output=True, text=True,
                          check=False, timeout=600)  # fmt: skip
    (common.results_dir() / "freeze.log").write_text(done.stdout + done.stderr)
    if done.returncode:
        raise RuntimeError(f"`flask freeze` failed:\n{(done.stdout + done.stderr)[-2000:]}")
    open_to_nginx(frozen)
    print(done.stdout.strip() or f"flask freeze wrote {frozen}")
    return frozen


def nginx(stack: ExitStack, name: str, server_template: Path, values: dict) -> str:
    """A foreground nginx for the with-block around one server block rendered from its
    template (rendered configs are kept in results/); its URL."""
    port = common.free_port()
    scratch = common.work_dir() / name
    scratch.mkdir()
    scratch.chmod(0o755)
    results = common.results_dir()
    tls = {key: value for key, value in common.tls_files().items() if key != "CA"}
    listen = {"LISTEN": f"127.0.0.1:{port}", "REDIRECT_LISTEN": f"127.0.0.1:{common.free_port()}",
              "ACCESS_LOG": scratch / "access.log"}  # fmt: skip
    server = common.render(server_template, values | listen | tls,
                           results / f"{name}.server.conf")  # fmt: skip
    modules = "".join(f"load_module {m};\n" for m in BROTLI_MODULES if m.exists())
    conf = common.render(common.BENCH / "nginx.conf",
                         {"MODULES": modules, "SCRATCH": scratch, "SERVER": server},
                         results / f"{name}.conf")  # fmt: skip
    command = [NGINX, "-p", str(scratch), "-e", str(scratch / "error.log"), "-c", str(conf)]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    if checked.returncode:
        raise RuntimeError(f"nginx -t refused {conf}:\n{checked.stderr.strip()}")
    url = f"https://127.0.0.1:{port}"  # both nginx targets speak TLS, as the front must
    stack.enter_context(common.server(command, results / f"{name}.log", url + "/"))
    return url


def start_servers(stack: ExitStack, site: str) -> tuple[dict[str, str], dict[str, str]]:
    """Bring up bare, nginx-file and front (the site is already up); say why any is skipped."""
    scratch = common.work_dir()
    bare_dir, files_dir = scratch / "bare", scratch / "files"
    sizes = save_site_responses(site, bare_dir, files_dir)
    print("saved from the site (gzip): " + ", ".join(f"{p} {n:,} B" for p, n in sizes.items()))

    port = common.free_port()
    bare = f"http://127.0.0.1:{port}"
    command = common.gunicorn_command("bare_app:create_app()", port,
                                      "--pythonpath", str(common.BENCH))  # fmt: skip
    env = common.site_env() | {"BENCH_BARE_DIR": str(bare_dir)}
    stack.enter_context(common.server(command, common.results_dir() / "bare.log", bare + "/", env))

    targets = {"site": site, "bare": bare}
    targets["nginx-file"] = nginx(stack, "nginx-file", common.BENCH / "nginx-files.conf",
                                  {"ROOT": files_dir})  # fmt: skip
    skipped = {}
    try:
        frozen = freeze_pages()
        front = {"CHECKOUT": common.ROOT, "INSTANCE": frozen, "SERVER_NAME": "_",
                 "APP_SERVER": site.removeprefix("http://")}  # fmt: skip
        targets["front"] = nginx(stack, "nginx-front", common.ROOT / "deploy" / "nginx.conf", front)
    except (OSError, RuntimeError) as why:
        targets["front"] = ""
        skipped["front"] = str(why)
    return targets, skipped


# ---------------------------------------------------------------- the run


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
                status, _, body = common.fetch(base + path, {"Accept-Encoding": "gzip"})
                if status != 200:
                    raise RuntimeError(f"{base + path} answered {status}")
                results[target, path] = run_wrk(base + path, duration, label) | {"size": len(body)}
            except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as error:
                skipped[f"{target} {path}"] = str(error).strip().splitlines()[0]
    return results


def print_results(results: dict, skipped: dict[str, str], targets: list[str]) -> None:
    rows = []
    for path, page in PAGES.items():
        for target in targets:
            r = results.get((target, path))
            rows.append(
                [page, target, f"{r['rps']:,.0f}", f"{r['p50_ms']:.2f}", f"{r['p99_ms']:.2f}",
                 f"{r['size']:,}", r["errors"] or "-"]
                if r else [page, target, "-", "-", "-", "-", "skipped"]
            )  # fmt: skip
    headers = ["page", "target", "req/s", "p50 ms", "p99 ms", "body B", "errors"]
    print(common.table(headers, rows, right={2, 3, 4, 5}))
    for name, why in skipped.items():
        print(f"  {name}: skipped: {why}")


def target_rows(results: dict) -> list[list]:
    """The ratios and the site's p99 per page, each recorded as a target (SKIP if a side of
    it was not measured)."""
    rows = []
    for path, page in PAGES.items():
        for over, under, floor in RATIOS:
            target = f"{over}/{under} {page} >= {floor:.0%}"
            if (over, path) in results and (under, path) in results:
                ratio = results[over, path]["rps"] / results[under, path]["rps"]
                value = f"{ratio:.0%}"
                verdict = common.record_target("load", target, value, ratio >= floor)
            else:
                value = "-"
                verdict = common.record_target("load", target, "not measured", None)
            rows.append([page, f"{over}/{under}", value, f">= {floor:.0%}", verdict])
        if ("site", path) in results:
            p99 = results["site", path]["p99_ms"]
            target = f"site p99 {page} < {P99_MS:.0f} ms"
            verdict = common.record_target("load", target, f"{p99:.2f} ms", p99 < P99_MS)
            rows.append([page, "site p99", f"{p99:.2f} ms", f"< {P99_MS:.0f} ms", verdict])
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", help="a running site (default: start one here)")
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    args = parser.parse_args()
    common.exit_on_sigterm()

    common.section(f"Server load on loopback: {WRK_SHOWN.format(args.duration)}")
    print("gunicorn -c deploy/gunicorn.conf.py for both site and bare")
    print(common.machine_note())
    with ExitStack() as stack:
        targets, skipped = start_servers(stack, common.site_for(stack, args.site))
        results = measure(targets, args.duration, skipped)
    print()
    print_results(results, skipped, list(targets))
    print(f"  after the runs: {common.machine_note()}")
    print()
    print(common.table(["page", "measure", "value", "target", "result"], target_rows(results),
                       right={2}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
