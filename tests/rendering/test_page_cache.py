"""The page cache: one render per page and content version, ETags, compressed variants."""

import gzip
import os
import shutil
from pathlib import Path

import brotli
import pytest
from flask import template_rendered

from app.content.loader import seed
from app.rendering import page_cache


@pytest.fixture
def app(make_app):
    """An app of each test's own: one serves its pictures from a folder of its own, and the page
    cache's view of them must start afresh."""
    return make_app()


@pytest.fixture
def renders(app):
    """The templates rendered while the test runs (a cache hit renders none)."""
    rendered = []

    def record(_sender, template, context, **_extra):
        rendered.append(template.name)

    template_rendered.connect(record, app)
    yield rendered
    template_rendered.disconnect(record, app)


def test_second_request_is_served_without_rendering(client, renders):
    first = client.get("/sell-watch-boston")
    assert "pages/city.html" in renders
    renders.clear()
    second = client.get("/sell-watch-boston")
    assert renders == []
    assert second.get_data() == first.get_data()


def test_conditional_request_answers_304(client):
    etag = client.get("/blog").headers["ETag"]
    assert etag.startswith('W/"')
    response = client.get("/blog", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.get_data() == b""


@pytest.mark.parametrize("encoding, decode", [("br", brotli.decompress), ("gzip", gzip.decompress)])
def test_cached_pages_are_served_precompressed(client, encoding, decode):
    plain = client.get("/").get_data()
    response = client.get("/", headers={"Accept-Encoding": encoding})
    assert response.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    assert decode(response.get_data()) == plain
    assert len(response.get_data()) < len(plain) / 4


@pytest.fixture
def compressions(monkeypatch):
    """The encodings the page cache compresses a body in, in order, while the test runs."""
    made = []

    def counted(body, encoding, best):
        made.append(encoding)
        return original(body, encoding, best)

    original = page_cache.encode
    monkeypatch.setattr(page_cache, "encode", counted)
    return made


def test_a_page_is_compressed_once_per_encoding_and_only_once_a_client_asks_for_it(
    client, compressions
):
    plain = client.get("/").get_data()  # rendered and kept: nobody asked for an encoding yet
    assert compressions == []
    brotli_body = client.get("/", headers={"Accept-Encoding": "br"}).get_data()
    client.get("/?utm_source=mail", headers={"Accept-Encoding": "br"})  # another address
    client.get("/", headers={"Accept-Encoding": "gzip"})
    client.get("/", headers={"Accept-Encoding": "gzip, br"})
    assert compressions == ["br", "gzip"]
    assert brotli.decompress(brotli_body) == plain


def test_sell_form_is_never_cached_but_is_compressed(client, renders):
    client.get("/sell")
    renders.clear()
    response = client.get("/sell", headers={"Accept-Encoding": "gzip"})
    assert "sell/form.html" in renders
    assert "ETag" not in response.headers
    assert "no-store" in response.headers["Cache-Control"]
    assert b"csrf-token" in gzip.decompress(response.get_data())


def test_unknown_query_arguments_share_one_cache_entry(client, renders):
    client.get("/?utm_source=a")
    renders.clear()
    client.get("/?utm_source=b&x=1")
    assert renders == []


def test_blog_category_is_part_of_the_key(client):
    all_posts = client.get("/blog").get_data()
    filtered = client.get("/blog?category=education").get_data()
    assert all_posts != filtered


def test_not_found_pages_are_not_cached(client, renders):
    client.get("/no-such-page")
    renders.clear()
    assert client.get("/no-such-page").status_code == 404
    assert "errors/404.html" in renders


def test_reseeding_content_is_seen_at_once(make_app, tmp_path):
    database = tmp_path / "content.db"
    first = make_app(CONTENT_DB=str(database))
    seed(first)
    assert b"US Watch Buyers" in first.test_client().get("/terms").get_data()
    renamed = make_app(CONTENT_DB=str(database), SITE_NAME="Renamed Buyers")
    seed(renamed)
    html = first.test_client().get("/terms").get_data()
    assert b"Renamed Buyers" in html


def test_rederived_images_are_seen_at_once(app, renders, tmp_path):
    """`flask images` rewrites its manifest last; pages must not keep pointing at old files."""
    art = tmp_path / "static" / "img" / "art"
    shutil.copytree(Path(app.static_folder) / "img" / "art", art)
    app.static_folder = str(tmp_path / "static")
    client = app.test_client()
    client.get("/sell-rolex-watch")
    renders.clear()
    client.get("/sell-rolex-watch")
    assert renders == []
    redrawn = art / "manifest.json.new"
    redrawn.write_bytes((art / "manifest.json").read_bytes())
    os.replace(redrawn, art / "manifest.json")
    client.get("/sell-rolex-watch")
    assert "pages/brand.html" in renders


def test_cache_hits_still_refuse_untrusted_hosts(make_app):
    app = make_app(TRUSTED_HOSTS="watches.example")
    client = app.test_client()
    assert client.get("/", headers={"Host": "watches.example"}).status_code == 200
    assert client.get("/", headers={"Host": "watches.example"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_head_request_for_a_cached_page_has_headers_and_no_body(client):
    client.get("/terms")
    response = client.head("/terms")
    assert response.status_code == 200
    assert response.headers["ETag"]
    assert response.get_data() == b""


def test_a_hit_answers_with_the_same_headers_as_the_render(client):
    sent = {"Accept-Encoding": "gzip, deflate, br"}
    rendered = client.get("/sell-watch-miami", headers=sent)
    hit = client.get("/sell-watch-miami", headers=sent)
    assert hit.get_data() == rendered.get_data()
    assert sorted(hit.headers.items()) == sorted(rendered.headers.items())


def test_a_hit_on_a_new_query_string_keeps_only_the_keyed_arguments(client):
    client.get("/blog?category=selling-guides")
    filtered = client.get("/blog?category=selling-guides&utm_source=x").get_data()
    assert filtered == client.get("/blog?category=selling-guides").get_data()
    assert filtered != client.get("/blog").get_data()
