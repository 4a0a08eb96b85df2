"""Whole-page cache for anonymous pages, with ETags and precompressed HTML.

Pages identical for every visitor (everything but the sell form) are rendered once per content
version and kept with their gzip and brotli bodies. A hit is answered by a small WSGI layer in
front of Flask: a route match and a cache lookup, no request context, no render and no
compression, so a cached page costs about what a bare WSGI app returning bytes costs. The key
carries the content database's and the asset manifest's identity: a re-seed or a new build is
seen by every process at once, even with the per-process SimpleCache. Conditional requests
answer 304.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass

import brotli
from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request

from app.extensions import cache

MIN_COMPRESS_BYTES = 512
ENCODINGS = ("br", "gzip")


def cache_page(view: Callable | None = None, *, query: tuple[str, ...] = ()) -> Callable:
    """Mark a view whose response is the same for every visitor.

    Only the query arguments named in `query` take part in the key, so random query strings
    cannot fill the cache with copies of one page.
    """

    def mark(function: Callable) -> Callable:
        function.cache_page = True
        function.cache_query = query
        return function

    return mark(view) if view else mark


@dataclass
class CachedPage:
    body: bytes
    encoded: dict[str, bytes]
    content_type: str
    etag: str


def encode(body: bytes, encoding: str, best: bool) -> bytes:
    """Best compression for bodies kept in the cache; quick compression for one-off pages."""
    if encoding == "br":
        return brotli.compress(body, quality=11 if best else 5, mode=brotli.MODE_TEXT)
    return gzip.compress(body, compresslevel=9 if best else 6, mtime=0)


def compress(body: bytes) -> dict[str, bytes]:
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


def is_cacheable(view: Callable | None, method: str) -> bool:
    return method in ("GET", "HEAD") and getattr(view, "cache_page", False)


def page_key(config, req: Request, view: Callable) -> str:
    version = f"{_version(config['CONTENT_DB'])}:{_version(config['ISLANDS_MANIFEST'])}"
    query = "&".join(f"{name}={req.args.get(name, '')[:64]}" for name in view.cache_query)
    return f"page:{version}:{req.path}?{query}"


def preferred_encoding(req: Request, available) -> str | None:
    accepted = req.accept_encodings
    for encoding in ENCODINGS:
        if encoding in available and accepted[encoding]:
            return encoding
    return None


def page_response(page: CachedPage, req: Request) -> Response:
    """The cached page in the encoding the client prefers, or 304 when it already has it."""
    encoding = preferred_encoding(req, page.encoded)
    response = Response(page.encoded[encoding] if encoding else page.body)
    response.content_type = page.content_type
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(page.etag, weak=True)
    response.cache_control.public = True
    response.cache_control.max_age = 0
    response.cache_control.must_revalidate = True
    return response.make_conditional(req)


class CachedPageServer:
    """WSGI layer answering cache hits before Flask; everything else passes through.

    Hits are also kept in a small per-process memo, which saves unpickling (SimpleCache) or a
    round trip (Redis) on every request; keys carry the content version, so it is never stale.
    """

    MEMO_SIZE = 256

    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.memo: dict[str, CachedPage] = {}

    def cached(self, key: str) -> CachedPage | None:
        page = self.memo.get(key)
        if page is None:
            page = self.app.extensions["cache"][cache].get(key)
            if page is not None:
                if len(self.memo) >= self.MEMO_SIZE:
                    self.memo.clear()
                self.memo[key] = page
        return page

    def lookup(self, req: Request) -> CachedPage | None:
        try:
            req.host  # noqa: B018 - checks TRUSTED_HOSTS; a bad Host is Flask's to refuse
            endpoint, _args = self.app.url_map.bind_to_environ(req.environ).match()
        except HTTPException:
            return None
        view = self.app.view_functions.get(endpoint)
        if not is_cacheable(view, req.method):
            return None
        return self.cached(page_key(self.app.config, req, view))

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            req = Request(environ)
            req.trusted_hosts = self.app.config["TRUSTED_HOSTS"]
            page = self.lookup(req)
            if page is not None:
                return page_response(page, req)(environ, start_response)
        return self.wsgi_app(environ, start_response)


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
        encoded=compress(body),
        content_type=response.content_type,
        etag=hashlib.sha256(body).hexdigest()[:32],
    )
    cache.set(page_key(current_app.config, request, view), page)
    cached = page_response(page, request)
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
    encoding = preferred_encoding(request, ENCODINGS) if len(body) >= MIN_COMPRESS_BYTES else None
    if encoding:
        response.set_data(encode(body, encoding, best=False))
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    return response


def register(app: Flask) -> None:
    # after_request hooks run last-registered first: store the page before compressing.
    app.after_request(compress_html)
    app.after_request(store_in_cache)
    app.wsgi_app = CachedPageServer(app, app.wsgi_app)
