"""Whole-page cache for anonymous pages, with ETags and precompressed HTML.

Pages identical for every visitor (everything but the sell form) are rendered once per content
version and kept with their gzip and brotli bodies, each made the first time a client asks for
that encoding (brotli at its best quality costs more than the render: a client that takes only
gzip, or none, never pays for it). A hit is answered by a small WSGI layer in
front of Flask: no request context, no render and no compression, so a cached page costs less
than a bare Flask view returning the same bytes. The key carries the identity of the content
database, the islands' asset manifest and the images' manifest: a re-seed, a new build or
re-derived pictures are seen by every process at once, even with the per-process SimpleCache.
Conditional requests answer 304.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache, partial

import brotli
from flask import Flask, Response, current_app, request
from redis.exceptions import RedisError
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header, parse_etags
from werkzeug.wrappers import Request

from app.extensions import cache
from app.pictures.images import art_manifest
from app.redis_guard import rest, resting

MIN_COMPRESS_BYTES = 512
ENCODINGS = ("br", "gzip")

INSTANT_VALUATION_FLAG = "instant-valuation.flag"


def cache_page(view: Callable | None = None, *, query: tuple[str, ...] = ()) -> Callable:
    """Mark a view whose response is the same for every visitor.

    Only the query arguments named in `query` take part in the key, so random query strings
    cannot fill the cache with copies of one page.
    """

    def mark(function: Callable) -> Callable:
        """Mark the view cacheable, with the query arguments its key keeps."""
        function.cache_page = True
        function.cache_query = query
        return function

    return mark(view) if view else mark


CACHE_CONTROL = "public, max-age=0, must-revalidate"


@dataclass
class CachedPage:
    """A rendered page as kept in the cache: its body, ETag and the compressed bodies clients
    have asked for so far."""

    body: bytes
    content_type: str
    etag: str
    encoded: dict[str, bytes] = field(default_factory=dict)

    def validators(self) -> list[tuple[str, str]]:
        """The headers a 304 repeats: enough for a browser or CDN to keep using its copy."""
        return [
            ("Vary", "Accept-Encoding"),
            ("ETag", f'W/"{self.etag}"'),
            ("Cache-Control", CACHE_CONTROL),
        ]

    def variant(self, encoding: str | None) -> tuple[list[tuple[str, str]], bytes]:
        """Headers and body of the page in one encoding (None: uncompressed)."""
        body = self.encoded[encoding] if encoding else self.body
        headers = [("Content-Type", self.content_type), ("Content-Length", str(len(body)))]
        if encoding:
            headers.append(("Content-Encoding", encoding))
        return headers + self.validators(), body

    def is_known_to(self, if_none_match: str | None) -> bool:
        """The client already holds this version (weak comparison, as for any GET)."""
        return bool(if_none_match) and parse_etags(if_none_match).contains_weak(self.etag)

    def encoding_for(self, environ) -> str | None:
        """The encoding a request is answered in: the client's best of ours, none for a body
        too small to gain."""
        offered = ENCODINGS if len(self.body) >= MIN_COMPRESS_BYTES else ()
        return preferred_encoding(environ.get("HTTP_ACCEPT_ENCODING"), offered)

    def answer(
        self, environ, keep: Callable[[CachedPage], None] = lambda page: None
    ) -> tuple[str, list[tuple[str, str]], bytes]:
        """Status, headers and body for a request: 304 when the client already holds this
        version, else the page in the encoding the client prefers. The first request for an
        encoding compresses the body in it, at best quality, and hands the grown page to
        `keep`, which puts it back in the shared cache: no other process or address compresses
        it again."""
        if self.is_known_to(environ.get("HTTP_IF_NONE_MATCH")):
            return "304 Not Modified", self.validators(), b""
        encoding = self.encoding_for(environ)
        if encoding is not None and encoding not in self.encoded:
            self.encoded[encoding] = encode(self.body, encoding, best=True)
            keep(self)
        headers, body = self.variant(encoding)
        return "200 OK", headers, body


def encode(body: bytes, encoding: str, best: bool) -> bytes:
    """Best compression for bodies kept in the cache; quick compression for one-off pages."""
    if encoding == "br":
        return brotli.compress(body, quality=11 if best else 5, mode=brotli.MODE_TEXT)
    return gzip.compress(body, compresslevel=9 if best else 6, mtime=0)


def compress(body: bytes) -> dict[str, bytes]:
    """The body in each of ENCODINGS at best quality, none for a body too small to gain: for
    the frozen files nginx serves (app/rendering/freeze.py)."""
    if len(body) < MIN_COMPRESS_BYTES:
        return {}
    return {encoding: encode(body, encoding, best=True) for encoding in ENCODINGS}


def _version(path: str) -> str:
    """Changes whenever the file is rewritten or swapped in (seed replaces it by rename)."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return "-"
    return f"{stat.st_ino}.{stat.st_mtime_ns}"


def version_files(app: Flask) -> tuple[str, ...]:
    """What a rendered page depends on besides the code: content, islands build and images.
    Worked out on first use and kept: building paths on every hit doubled its cost."""
    files = app.extensions.get("page_cache_files")
    if files is None:
        config = app.config
        files = (config["CONTENT_DB"], config["ISLANDS_MANIFEST"], str(art_manifest(app)))
        app.extensions["page_cache_files"] = files
    return files


def instant_valuation_flag(app: Flask) -> str:
    """The file saying whether the home page may promise an instant valuation (written by
    app/prices/coverage.py beside leads.db, which tests move from test to test)."""
    return os.path.join(os.path.dirname(app.config["LEADS_DB"]), INSTANT_VALUATION_FLAG)


def content_version(app: Flask) -> str:
    """The identity of the content, islands build, images and the instant-valuation flag now:
    part of every page key."""
    paths = (*version_files(app), instant_valuation_flag(app))
    return ":".join(_version(path) for path in paths)


def is_cacheable(view: Callable | None, method: str) -> bool:
    """Whether the view is marked with cache_page and the request is a GET or HEAD."""
    return method in ("GET", "HEAD") and getattr(view, "cache_page", False)


def page_key(app: Flask, req: Request, view: Callable) -> str:
    """Samples on or off is part of the key: a shared Redis cache must not hand a process that
    hides sample reviews a page rendered by one that showed them."""
    query = "&".join(f"{name}={req.args.get(name, '')[:64]}" for name in view.cache_query)
    samples = int(bool(app.config["SHOW_SAMPLE_CONTENT"]))
    return f"page:{content_version(app)}:s{samples}:{req.path}?{query}"


@lru_cache(maxsize=64)
def accepted_encodings(accept_encoding: str) -> tuple[str, ...]:
    """Our encodings the client takes, best first; browsers send a handful of distinct
    Accept-Encoding values, so each is parsed once."""
    accepted = parse_accept_header(accept_encoding)
    return tuple(encoding for encoding in ENCODINGS if accepted[encoding])


def preferred_encoding(accept_encoding: str | None, available) -> str | None:
    """The client's best accepted encoding among those available; None for the plain body."""
    for encoding in accepted_encodings(accept_encoding or ""):
        if encoding in available:
            return encoding
    return None


def shared_cache(app: Flask, method: str, *args):
    """The shared cache's `method` called with `args`, or None while Redis rests or when it
    fails (then it rests, app/redis_guard.py): the page is rendered and answered as if the
    cache were empty, never an error or a wait (here Redis only saves work)."""
    if resting(app):
        return None
    try:
        return getattr(app.extensions["cache"][cache], method)(*args)
    except RedisError as error:
        rest(app, error, "the page cache not used")
        return None


class CachedPageServer:
    """WSGI layer answering cache hits before Flask; everything else passes through.

    A hit costs three stat() calls, a dict lookup and prepared headers. The first request for an
    address (Host, path and query as sent) goes the long way: Werkzeug checks the Host against
    TRUSTED_HOSTS, the URL map finds the view, the shared cache gives the page. Hits are then
    remembered per address in a small per-process memo, which also saves unpickling
    (SimpleCache) or a round trip (Redis); entries carry the content version, so none is
    served once the content or the build changes.
    """

    MEMO_SIZE = 256

    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.memo: dict[tuple, tuple[str, CachedPage]] = {}

    def lookup(self, environ) -> tuple[str, CachedPage | None] | None:
        """The cache key of this request's page and the page the cache holds under it (None),
        if its view is cacheable."""
        req = Request(environ)
        req.trusted_hosts = self.app.config["TRUSTED_HOSTS"]
        try:
            req.host  # noqa: B018 - checks TRUSTED_HOSTS; a bad Host is Flask's to refuse
            endpoint, _args = self.app.url_map.bind_to_environ(environ).match()
        except HTTPException:
            return None
        view = self.app.view_functions.get(endpoint)
        if not is_cacheable(view, req.method):
            return None
        key = page_key(self.app, req, view)
        return key, shared_cache(self.app, "get", key)

    def cached(self, environ) -> tuple[str, CachedPage] | None:
        """The key and cached page for this request, from the per-process memo while its
        version holds."""
        version = content_version(self.app)
        address = (
            environ.get("HTTP_HOST") or environ.get("SERVER_NAME"),
            environ.get("PATH_INFO"),
            environ.get("QUERY_STRING"),
        )
        remembered = self.memo.get(address)
        if remembered and remembered[0] == version:
            return remembered[1]
        found = self.lookup(environ)
        if found is None or found[1] is None:
            return None
        if len(self.memo) >= self.MEMO_SIZE:
            self.memo.clear()
        self.memo[address] = (version, found)
        return found

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        found = self.cached(environ) if method in ("GET", "HEAD") else None
        if found is None:
            return self.wsgi_app(environ, start_response)
        key, page = found
        keep = partial(shared_cache, self.app, "set", key)
        status, headers, body = page.answer(environ, keep=keep)
        start_response(status, headers)
        return [] if method == "HEAD" else [body]


def store_in_cache(response: Response) -> Response:
    """Keep a freshly rendered anonymous 200 page, then answer as a hit would."""
    view = current_app.view_functions.get(request.endpoint)
    if not is_cacheable(view, request.method) or response.status_code != 200:
        return response
    if response.direct_passthrough or response.headers.get("Content-Encoding"):
        return response
    body = response.get_data()
    page = CachedPage(
        body=body,
        content_type=response.content_type,
        etag=hashlib.sha256(body).hexdigest()[:32],
    )
    status, headers, body = page.answer(request.environ)  # compressed, if asked, before it is kept
    shared_cache(current_app, "set", page_key(current_app, request, view), page)
    cached = Response(body, status=status, headers=headers)
    for name, value in response.headers.items():
        if name not in cached.headers:
            cached.headers[name] = value
    return cached


def compress_html(response: Response) -> Response:
    """Pages that cannot be cached (the sell form, errors) are compressed as they go out."""
    is_html = response.mimetype == "text/html"
    if not is_html or response.direct_passthrough or "Content-Encoding" in response.headers:
        return response
    body = response.get_data()
    encoding = None
    if len(body) >= MIN_COMPRESS_BYTES:
        encoding = preferred_encoding(request.headers.get("Accept-Encoding"), ENCODINGS)
    if encoding:
        response.set_data(encode(body, encoding, best=False))
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    return response


def register(app: Flask) -> None:
    """Cache anonymous pages, compress the others, and answer cache hits ahead of Flask."""
    # after_request hooks run last-registered first: store the page before compressing.
    app.after_request(compress_html)
    app.after_request(store_in_cache)
    app.wsgi_app = CachedPageServer(app, app.wsgi_app)
