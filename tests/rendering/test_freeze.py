"""flask freeze and the documented nginx front: frozen pages from disk, the rest from the app."""

import gzip
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app.rendering.freeze import freeze, page_file
from tests.front import make_tls, start_front

# On one test worker: each worker that ran a test of this module would freeze the site again.
pytestmark = pytest.mark.xdist_group("freeze")


@pytest.fixture(scope="module")
def frozen_app(make_app, tmp_path_factory):
    """One app and its frozen pages for the module (a freeze renders and compresses every page);
    a test that freezes again leaves the folder as a freeze makes it."""
    app = make_app(PAGES_DIR=str(tmp_path_factory.mktemp("instance") / "pages"))
    freeze(app)
    return app


@pytest.mark.parametrize(
    "path, file",
    [
        ("/", "index.html"),
        ("/sell-watch-boston", "sell-watch-boston/index.html"),
        ("/blog/luxury-watch-market-usa", "blog/luxury-watch-market-usa/index.html"),
        ("/robots.txt", "robots.txt"),
    ],
)
def test_page_files_are_named_for_try_files(path, file):
    assert page_file(path) == file


def test_freeze_writes_every_anonymous_page_with_compressed_variants(frozen_app):
    pages = Path(frozen_app.config["PAGES_DIR"])
    assert (pages / "index.html").read_bytes() == frozen_app.test_client().get("/").get_data()
    assert (
        gzip.decompress((pages / "index.html.gz").read_bytes())
        == (pages / "index.html").read_bytes()
    )
    assert (pages / "index.html.br").exists()
    for name in ("sell-watch-seattle", "sell-cartier-watch", "blog", "terms", "privacy"):
        assert (pages / name / "index.html").exists(), name
    assert not (pages / "sell").exists()  # the form carries a CSRF token
    assert "csrf" not in (pages / "index.html").read_text()


def test_freeze_command_writes_each_page_as_a_request_would_render_it(frozen_app):
    frozen_app.test_cli_runner().invoke(args=["freeze"])
    pages = Path(frozen_app.config["PAGES_DIR"])
    for path in ("/sell-watch-boston", "/blog/luxury-watch-market-usa"):
        expected = frozen_app.test_client().get(path).get_data()
        assert (pages / page_file(path)).read_bytes() == expected, path


def test_freeze_writes_the_apps_headers_for_nginx(frozen_app):
    headers = (Path(frozen_app.config["PAGES_DIR"]).parent / "nginx-headers.conf").read_text()
    assert "add_header Content-Security-Policy" in headers
    assert "ETag" not in headers and "Content-Length" not in headers


def test_refreezing_replaces_the_folder_whole(frozen_app):
    pages = Path(frozen_app.config["PAGES_DIR"])
    (pages / "stale.html").write_text("old")
    freeze(frozen_app)
    assert not (pages / "stale.html").exists()
    assert sorted(p.name for p in pages.parent.iterdir()) == ["nginx-headers.conf", "pages"]


@pytest.fixture
def nginx_front(frozen_app, tmp_path):
    """The documented front, TLS included, pointed at this test's app and frozen files."""
    upstream = make_server("127.0.0.1", 0, frozen_app, threaded=True)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    instance = Path(frozen_app.config["PAGES_DIR"]).parent
    front = start_front(
        tmp_path, instance=instance, app_server=f"127.0.0.1:{upstream.server_port}",
        tls=make_tls(tmp_path),
    )  # fmt: skip
    yield front
    front.stop()
    upstream.shutdown()
    upstream.server_close()


def get(front, path, headers=None):
    response = front.request("GET", path, headers)
    return response, response.body


def test_nginx_serves_frozen_pages_and_passes_the_rest_to_the_app(nginx_front, frozen_app):
    pages = Path(frozen_app.config["PAGES_DIR"])
    (pages / "sell-watch-boston" / "index.html").write_text("<p>served from disk</p>")
    response, body = get(nginx_front, "/sell-watch-boston")
    assert response.status == 200 and body == b"<p>served from disk</p>"
    assert "default-src 'self'" in response.getheader("Content-Security-Policy")

    response, body = get(nginx_front, "/sell")
    assert response.status == 200 and b"csrf-token" in body  # rendered by the app

    response, body = get(nginx_front, "/blog?category=education")
    assert response.status == 200 and b"served from disk" not in body

    response, _body = get(nginx_front, "/no-such-page")
    assert response.status == 404


def test_nginx_sends_the_precompressed_variant(nginx_front, frozen_app):
    response, body = get(nginx_front, "/", {"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") == "gzip"
    expected = (Path(frozen_app.config["PAGES_DIR"]) / "index.html").read_bytes()
    assert gzip.decompress(body) == expected
