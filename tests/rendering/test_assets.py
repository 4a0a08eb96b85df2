"""Built assets: hashed files cached for a year, served precompressed."""

import re

import pytest

from tests.helpers import ROOT

BUILD_DIR = ROOT / "app" / "static" / "build"
# 70 KB of gzip per content page (docs/performance.md), as Lighthouse counts KB.
JS_BUDGET_BYTES = 70 * 1024
# The web-vitals logger (components/runtime/vitals.js) is imported only after the load event,
# once the browser is idle: nothing a visitor waits for, so it has a budget of its own.
AFTER_IDLE = re.compile(r"vitals-[\w-]+\.js")
AFTER_IDLE_BUDGET_BYTES = 4 * 1024


def fetch(client, url, **kwargs):
    """GET a static file and close it (WhiteNoise streams from an open file)."""
    response = client.get(url, **kwargs)
    response.get_data()
    response.close()
    return response


def built_urls(client):
    html = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/build/site-[\w-]+\.css)"', html).group(1)
    runtime = re.search(r'src="(/static/build/runtime-[\w-]+\.js)"', html).group(1)
    return css, runtime


def test_hashed_assets_are_immutable_for_a_year(client):
    for url in built_urls(client):
        response = fetch(client, url)
        assert response.status_code == 200
        assert "max-age=31536000" in response.headers["Cache-Control"]
        assert "immutable" in response.headers["Cache-Control"]


def test_assets_are_served_precompressed(client):
    css, _runtime = built_urls(client)
    brotli = fetch(client, css, headers={"Accept-Encoding": "br"})
    assert brotli.headers.get("Content-Encoding") == "br"
    gzip = fetch(client, css, headers={"Accept-Encoding": "gzip"})
    assert gzip.headers.get("Content-Encoding") == "gzip"
    plain = fetch(client, css)
    assert "Content-Encoding" not in plain.headers
    assert len(brotli.data) < len(plain.data) / 3


def test_unhashed_static_files_are_not_immutable(client):
    response = fetch(client, "/static/img/logo.svg")
    assert response.status_code == 200
    assert "immutable" not in response.headers["Cache-Control"]


def javascript_of(html: str) -> set[str]:
    """Every built JS file a page can load: its scripts, preloads and island modules, and
    everything those import, statically or lazily."""
    pending = set(re.findall(r"/static/build/([\w.-]+\.js)", html))
    found: set[str] = set()
    while pending:
        name = pending.pop()
        found.add(name)
        code = (BUILD_DIR / name).read_text()
        pending |= set(re.findall(r'"\./([\w.-]+\.js)"', code)) - found
    return found


@pytest.mark.parametrize(
    "path", ["/", "/sell-watch-boston", "/sell-rolex-watch", "/watch-authentication", "/blog",
             "/blog/complete-guide-watch-condition-grading", "/terms"],
)  # fmt: skip
def test_content_pages_ship_at_most_70_kb_of_javascript_gzip(client, path):
    files = javascript_of(client.get(path).get_data(as_text=True))
    assert any(name.startswith("react-") for name in files)
    after_idle = {name for name in files if AFTER_IDLE.fullmatch(name)}
    assert len(after_idle) == 1, sorted(files)  # the one file left out is the logger's
    total = sum((BUILD_DIR / f"{name}.gz").stat().st_size for name in files - after_idle)
    assert total <= JS_BUDGET_BYTES, f"{path}: {total:,} B of JS gzip in {sorted(files)}"


def test_web_vitals_logger_is_small_and_only_imported_lazily(client):
    html = client.get("/").get_data(as_text=True)
    (logger,) = {name for name in javascript_of(html) if AFTER_IDLE.fullmatch(name)}
    assert logger not in html  # no script tag, no modulepreload
    runtime = (BUILD_DIR / built_urls(client)[1].rsplit("/", 1)[1]).read_text()
    assert f'import("./{logger}")' in runtime
    assert f'from"./{logger}"' not in runtime.replace(" ", "")
    size = (BUILD_DIR / f"{logger}.gz").stat().st_size
    assert size <= AFTER_IDLE_BUDGET_BYTES, f"{logger}: {size:,} B gzip"
