"""Built front-end assets: the bundler manifest, per-page script tags, and static serving.

Templates never name a built file. The manifest (Vite-shaped, written by Rollup) maps source
paths to hashed files; a page loads the hydration runtime plus only its own islands' modules.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
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


def use_island(name: str, hydrate: str) -> None:
    """Remember that this page has the island, and whether it hydrates at once."""
    used = g.setdefault("islands_used", {})
    if used.get(name) != "load":
        used[name] = hydrate


def imported_files(key: str, seen: set[str] | None = None) -> list[str]:
    """The entry's file and every chunk it statically imports, depth first, each once."""
    seen = set() if seen is None else seen
    if key in seen:
        return []
    seen.add(key)
    record = _record(key)
    files = [record["file"]]
    for imported in record.get("imports", []):
        files += imported_files(imported, seen)
    return files


def island_scripts() -> Markup:
    """The page's script tags: the runtime, plus modulepreload for islands hydrated on load.

    The runtime is asked for at low priority: it only schedules islands, so it must not share
    the connection with the HTML, the stylesheet and the LCP image before the first paint (at
    its default high priority, Lighthouse also counts a module script among what the first
    paint waits for)."""
    used = g.get("islands_used", {})
    if not used:
        return Markup("")
    preload: list[str] = []
    seen: set[str] = set()
    for name, hydrate in used.items():
        if hydrate == "load":
            preload += imported_files(island_key(name), seen)
    tags = [f'<link rel="modulepreload" href="{escape(BUILD_URL + file)}">' for file in preload]
    runtime = escape(url_for_entry(RUNTIME_ENTRY))
    tags.append(f'<script type="module" src="{runtime}" fetchpriority="low"></script>')
    return Markup("\n".join(tags))


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
