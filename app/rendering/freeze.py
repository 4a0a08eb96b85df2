"""`flask freeze`: every anonymous page written to instance/pages/ for nginx to serve directly.

Each page is rendered through the app itself (so it is byte-for-byte what gunicorn would send),
written with its gzip and brotli variants, and the whole folder is swapped in at once. The
response headers the app adds to every page (security policy and the like) are written to
instance/nginx-headers.conf, so frozen pages carry exactly the same headers.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import click
from flask import Flask
from flask.cli import ScriptInfo, pass_script_info

from app.content import queries
from app.rendering.page_cache import compress

EXTRA_PATHS = ("/sitemap.xml", "/robots.txt")
PER_RESPONSE_HEADERS = {
    "content-type",
    "content-length",
    "content-encoding",
    "etag",
    "vary",
    "cache-control",
    "date",
    "last-modified",
    "set-cookie",
}


class FreezeError(RuntimeError):
    """A page did not render as a 200; nothing is swapped in."""


def page_file(path: str) -> str:
    """/ -> index.html, /sell-watch-boston -> sell-watch-boston/index.html, /robots.txt as is."""
    name = path.strip("/")
    if not name:
        return "index.html"
    return name if "." in name.rsplit("/", 1)[-1] else f"{name}/index.html"


def write_variants(target: Path, body: bytes) -> None:
    """Write the page to `target` and, unless it is too small to gain, its .br and .gz beside it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(body)
    for encoding, data in compress(body).items():
        suffix = ".br" if encoding == "br" else ".gz"
        target.with_name(target.name + suffix).write_bytes(data)


def nginx_headers(headers) -> str:
    """nginx `add_header` lines for the headers every page carries (not per-response ones)."""
    lines = [
        f'add_header {name} "{value}" always;'
        for name, value in headers.items()
        if name.lower() not in PER_RESPONSE_HEADERS
    ]
    return "# Written by `flask freeze`: the headers the app adds to every page.\n" + "\n".join(
        lines
    )


def is_anonymous_page(app: Flask, path: str) -> bool:
    """Only pages the page cache may keep (so never the sell form and its CSRF token)."""
    endpoint, _args = app.url_map.bind("localhost").match(path)
    return getattr(app.view_functions[endpoint], "cache_page", False)


def frozen_paths(app: Flask) -> list[str]:
    """The sitemap's pages, sitemap.xml and robots.txt: those the page cache may keep."""
    with app.app_context():
        paths = [page["path"] for page in queries.indexable_pages()] + list(EXTRA_PATHS)
    return [path for path in paths if is_anonymous_page(app, path)]


def freeze(app: Flask) -> int:
    """Render every page into a fresh folder, then swap it in; return the page count."""
    pages = Path(app.config["PAGES_DIR"])
    building = pages.with_name("pages.building")
    shutil.rmtree(building, ignore_errors=True)
    client = app.test_client()
    paths = frozen_paths(app)
    headers = None
    for path in paths:
        # As the site's own address: production answers no other host (TRUSTED_HOSTS).
        response = client.get(path, base_url=app.config["SITE_URL"])
        if response.status_code != 200:
            raise FreezeError(f"{path} answered {response.status_code}; nothing was changed.")
        write_variants(building / page_file(path), response.get_data())
        headers = headers or response.headers
    (pages.parent / "nginx-headers.conf").write_text(nginx_headers(headers) + "\n")
    retired = pages.with_name("pages.old")
    shutil.rmtree(retired, ignore_errors=True)
    if pages.exists():
        os.replace(pages, retired)
    os.replace(building, pages)
    shutil.rmtree(retired, ignore_errors=True)
    return len(paths)


@click.command("freeze")
@pass_script_info
def freeze_command(script_info: ScriptInfo) -> None:
    """Write every anonymous page (and its .gz/.br) to instance/pages/ for nginx."""
    # No app context around the renders: each page must get its own, as a real request does
    # (per-request state such as island ids lives in `g`).
    app = script_info.load_app()
    count = freeze(app)
    click.echo(f"Froze {count} pages into {app.config['PAGES_DIR']}.")
