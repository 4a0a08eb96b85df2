"""Built front-end assets: the bundler manifest, per-page script tags, and static serving.

Templates never name a built file. The manifest (Vite-shaped, written by Rollup) maps source
paths to hashed files; a page loads the hydration runtime, which imports only its own islands'
modules.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import lru_cache
from itertools import dropwhile
from pathlib import Path

from flask import Flask, current_app, g
from markupsafe import Markup, escape
from whitenoise import WhiteNoise

RUNTIME_ENTRY = "components/runtime/hydrate.js"
STYLESHEET_ENTRY = "components/styles/site.css"
SERVER_ENTRY = "components/server.js"
ISLANDS_DIR = "components/islands"
STATIC_PREFIX = "/static/"
BUILD_URL = STATIC_PREFIX + "build/"
HASHED_NAME = re.compile(r"-[A-Za-z0-9_-]{8}\.(js|css)$")
BOOTSTRAP_FILE = Path(__file__).with_name("bootstrap.js")


def _bootstrap_script() -> str:
    """bootstrap.js without its leading comment lines: the text the page inlines."""
    lines = BOOTSTRAP_FILE.read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(dropwhile(lambda line: line.startswith("//"), lines))


BOOTSTRAP = _bootstrap_script()
# The CSP's source for the bootstrap, the one inline script it allows (app/security/headers.py).
BOOTSTRAP_CSP_HASH = (
    "'sha256-" + base64.b64encode(hashlib.sha256(BOOTSTRAP.encode()).digest()).decode() + "'"
)


class AssetsMissing(RuntimeError):
    """The front-end build has not been run."""


@lru_cache(maxsize=4)
def _load_manifest(path: str, mtime_ns: int) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def manifest() -> dict:
    """The bundler's manifest, reread whenever the file changes; AssetsMissing before a build."""
    path = current_app.config["ISLANDS_MANIFEST"]
    try:
        mtime_ns = Path(path).stat().st_mtime_ns
    except FileNotFoundError:
        raise AssetsMissing(f"{path} is missing: run `npm run build`.") from None
    return _load_manifest(path, mtime_ns)


def _record(key: str) -> dict:
    try:
        return manifest()[key]
    except KeyError:
        raise AssetsMissing(f"{key} is not in the asset manifest: run `npm run build`.") from None


def server_bundle_hash() -> str:
    """The sha256 of the server bundle this build's manifest was sealed with: islands are
    rendered by that bundle, so markup and hydrating scripts always come from one build."""
    return _record(SERVER_ENTRY)["sha256"]


def url_for_entry(key: str) -> str:
    """The URL of a source entry's hashed build file."""
    return BUILD_URL + _record(key)["file"]


def island_key(name: str) -> str:
    """An island's source path: its key in the manifest."""
    return f"{ISLANDS_DIR}/{name}.jsx"


def island_url(name: str) -> str:
    """The URL of an island's built module."""
    return url_for_entry(island_key(name))


def stylesheet_url() -> str:
    """The URL of the built site stylesheet."""
    return url_for_entry(STYLESHEET_ENTRY)


def use_island(name: str) -> None:
    """Remember that this page has an island, so it loads the runtime."""
    g.setdefault("islands_used", set()).add(name)


def island_scripts() -> Markup:
    """The page's one script: the bootstrap (bootstrap.js), inline, which imports the islands'
    runtime once the page has painted and loaded and the browser is idle, or at the visitor's
    first interaction; the runtime imports each island's code when its strategy says
    (components/runtime/hydrate.js).

    Nothing is preloaded and no script is fetched before the load event: the HTML, the
    stylesheet and the largest picture have the connection to themselves. A module script in
    the HTML, even at low priority, was fetched and run before the first paint, and Lighthouse
    then counted it among what the largest paint waits for (250 ms on a city page); on the sell
    page, a modulepreload of React and its form put 65 KB before the first paint."""
    if not g.get("islands_used"):
        return Markup("")
    runtime = escape(url_for_entry(RUNTIME_ENTRY))
    return Markup(f'<script data-src="{runtime}">{BOOTSTRAP}</script>')


def is_immutable(path: str, url: str) -> bool:
    """Hashed build files never change, so browsers may keep them for a year."""
    return url.startswith(BUILD_URL) and bool(HASHED_NAME.search(url))


def serve_static_files(app: Flask) -> None:
    """Serve app/static through WhiteNoise: precompressed variants, immutable hashed files."""
    app.wsgi_app = WhiteNoise(
        app.wsgi_app,
        root=app.static_folder,
        prefix=STATIC_PREFIX,
        max_age=3600,
        immutable_file_test=is_immutable,
        autorefresh=app.debug,
    )
