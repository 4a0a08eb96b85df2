"""React islands, rendered on the server by React itself and hydrated in the browser.

`island(name, props)` (a Jinja global) returns the island's wrapper element with React's own
server markup inside and its props beside it as JSON data. The markup comes from the Rollup
server bundle running in an embedded V8 (mini-racer), so no island is ever written twice.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from functools import lru_cache
from pathlib import Path

from flask import current_app, g
from markupsafe import Markup, escape
from py_mini_racer import MiniRacer

from app.rendering import assets

HYDRATE_STRATEGIES = ("load", "idle", "visible", "interaction")


class IslandError(RuntimeError):
    """An island could not be rendered; the message names it."""


def bundle_hash(source: bytes) -> str:
    """As components/build/seal-manifest.js writes it: sha256, base64url without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(source).digest()).decode().rstrip("=")


def new_v8_context() -> MiniRacer:
    """A MiniRacer made on a thread of its own, so it runs its own event loop.

    MiniRacer adopts the asyncio loop running in the thread that creates it, if any. Made in a
    thread whose loop runs only now and then (Playwright's, in the browser tests; any async
    caller), its calls from every other thread would wait for that loop and hang.
    """
    made: list[MiniRacer] = []
    maker = threading.Thread(target=lambda: made.append(MiniRacer()), name="v8-context")
    maker.start()
    maker.join()
    if not made:
        raise IslandError("The embedded V8 (mini-racer) could not be started.")
    return made[0]


class IslandRenderer:
    """One V8 context per process and build, created on first use (so never before a server
    forks). With `expected_hash`, it refuses a bundle that is not the one the manifest names."""

    def __init__(self, bundle_path: str, expected_hash: str | None = None):
        self.bundle_path = Path(bundle_path)
        self.expected_hash = expected_hash
        self._context = None
        self._lock = threading.Lock()

    def _read_bundle(self) -> str:
        if not self.bundle_path.exists():
            raise IslandError(
                f"The island server bundle {self.bundle_path} is missing: run `npm run build`."
            )
        source = self.bundle_path.read_bytes()
        if self.expected_hash and bundle_hash(source) != self.expected_hash:
            raise IslandError(
                f"The island server bundle {self.bundle_path} is not the one the asset manifest "
                "names (a build is under way or was interrupted): run `npm run build`."
            )
        return source.decode("utf-8")

    def _load(self):
        source = self._read_bundle()
        context = new_v8_context()
        try:
            context.eval(source)
        except Exception as error:
            raise IslandError(f"The island server bundle failed to load: {error}") from error
        return context

    def call(self, function: str, name: str, *args: str) -> str:
        """Call a server bundle function, loading the bundle on first use; one call at a time."""
        with self._lock:
            if self._context is None:
                self._context = self._load()
            try:
                return self._context.call(function, name, *args)
            except Exception as error:
                raise IslandError(f"Island {name!r} failed to render: {error}") from error

    def render(self, name: str, props_json: str, island_id: str) -> str:
        """An island's server markup, to be hydrated under `island_id`."""
        return self.call("renderIsland", name, props_json, island_id)

    def render_static(self, name: str, props_json: str) -> str:
        """A shared component's markup, never hydrated."""
        return self.call("renderStatic", name, props_json)


@lru_cache(maxsize=2)
def renderer_for(bundle_path: str, build: str) -> IslandRenderer:
    """One renderer per build: a rebuild gets a fresh V8 context, the old one is let go."""
    return IslandRenderer(bundle_path, build)


@lru_cache(maxsize=1024)
def _render_cached(bundle_path: str, build: str, name: str, props_json: str, island_id: str):
    return renderer_for(bundle_path, build).render(name, props_json, island_id)


@lru_cache(maxsize=1024)
def _render_static_cached(bundle_path: str, build: str, name: str, props_json: str) -> str:
    return renderer_for(bundle_path, build).render_static(name, props_json)


def current_build() -> tuple[str, str]:
    """The server bundle and the hash the current manifest names it by."""
    return current_app.config["ISLANDS_SERVER_BUNDLE"], assets.server_bundle_hash()


def render_static(name: str, props: dict) -> Markup:
    """A shared component's markup with no hydration (e.g. Picture in a Jinja page)."""
    props_json = json.dumps(props, sort_keys=True, separators=(",", ":"))
    return Markup(_render_static_cached(*current_build(), name, props_json))


def render_island(name: str, props: dict, island_id: str) -> str:
    """React's server markup for one island, memoised per (build, island, props, id)."""
    props_json = json.dumps(props, sort_keys=True, separators=(",", ":"))
    return _render_cached(*current_build(), name, props_json, island_id)


def next_island_id(name: str) -> str:
    """Ids numbered per page in render order, so the same page always gets the same ids."""
    counts = g.setdefault("island_counts", {})
    counts[name] = counts.get(name, 0) + 1
    return f"{name.lower()}-{counts[name]}"


def props_script(island_id: str, props: dict) -> Markup:
    """Props as inert JSON data (never executed, so a strict CSP allows it)."""
    data = json.dumps(props, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    data = data.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return Markup(
        f'<script type="application/json" data-island-props="{escape(island_id)}">{data}</script>'
    )


def island(name: str, props: dict | None = None, hydrate: str = "load") -> Markup:
    """The island's wrapper, server markup and props; records it so its script is loaded."""
    if hydrate not in HYDRATE_STRATEGIES:
        raise IslandError(f"Island {name!r}: hydrate must be one of {HYDRATE_STRATEGIES}.")
    props = props or {}
    island_id = next_island_id(name)
    html = render_island(name, props, island_id)
    url = assets.island_url(name)
    assets.use_island(name)
    wrapper = (
        f'<div class="contents" data-island="{escape(name)}" id="{escape(island_id)}" '
        f'data-hydrate="{hydrate}" data-component-url="{escape(url)}">{html}</div>'
    )
    return Markup(wrapper) + props_script(island_id, props)
