"""The site with a "no scripts" variant of every page beside it, for bench/lighthouse.py.

A page asked for with the query flag `noscripts` (`/blog?noscripts`) is the site's own answer
to the same request without the flag, with every `<script>...</script>` (island modules, the
islands' props, JSON-LD) and every `<link rel="modulepreload">` removed: the HTML and CSS a
browser would paint with no JavaScript at all. Lighthouse measures each page and its variant
from the same server in the same run, so the ratio of their paint times is what the islands
cost the first paint, whatever the machine's load.

Everything else passes through untouched, so the real pages are served exactly as by the site.
The variant never goes into the site's page cache (the inner request is the plain page's, and
the stripped copy is kept here); it is compressed as the site compresses that page (best for a
cached page, quick for the sell form, which is rendered per request) and carries its own ETag.

    .venv/bin/gunicorn -c deploy/gunicorn.conf.py --pythonpath bench "noscripts_app:create_app()"
"""

from __future__ import annotations

import hashlib
import re

from werkzeug.test import run_wsgi_app

from app import create_app as create_site
from app.rendering.page_cache import ENCODINGS, MIN_COMPRESS_BYTES, encode, preferred_encoding

FLAG = "noscripts"
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.IGNORECASE | re.DOTALL)
MODULEPRELOAD = re.compile(r"""<link\b[^>]*\brel=["']?modulepreload\b[^>]*>""", re.IGNORECASE)
# Headers of the page that no longer describe the variant's bytes.
REPLACED = {"content-length", "content-encoding", "etag"}


def strip_scripts(html: bytes) -> bytes:
    text = html.decode()
    return MODULEPRELOAD.sub("", SCRIPT.sub("", text)).encode()


def without_flag(query: str) -> str | None:
    """The query string without the flag, or None if the flag is not there."""
    parts = query.split("&") if query else []
    if FLAG not in parts and f"{FLAG}=1" not in parts:
        return None
    return "&".join(part for part in parts if part.split("=", 1)[0] != FLAG)


class NoScripts:
    """WSGI wrapper: the flag's requests get the stripped page, all others the site itself."""

    def __init__(self, site):
        self.site = site
        self.memo: dict[tuple, dict[str | None, bytes]] = {}  # by address and the page's ETag

    def __call__(self, environ, start_response):
        query = without_flag(environ.get("QUERY_STRING", ""))
        if query is None or environ.get("REQUEST_METHOD") != "GET":
            return self.site(environ, start_response)
        # The page as the site answers it: uncompressed, never a 304.
        inner = dict(environ, QUERY_STRING=query, HTTP_ACCEPT_ENCODING="identity")
        inner.pop("HTTP_IF_NONE_MATCH", None)
        body_iter, status, headers = run_wsgi_app(self.site, inner, buffered=True)
        body = b"".join(body_iter)
        if not status.startswith("200") or headers.get("Content-Type", "")[:9] != "text/html":
            start_response(status, list(headers.items()))
            return [body]
        bodies = self.variant(environ, query, headers.get("ETag"), body)
        encoding = preferred_encoding(environ.get("HTTP_ACCEPT_ENCODING"), bodies)
        out = bodies[encoding]
        kept = [(k, v) for k, v in headers.items() if k.lower() not in REPLACED]
        kept += [("Content-Length", str(len(out))),
                 ("ETag", f'W/"{hashlib.sha256(bodies[None]).hexdigest()[:32]}"')]  # fmt: skip
        if encoding:
            kept.append(("Content-Encoding", encoding))
        start_response(status, kept)
        return [out]

    def variant(self, environ, query: str, etag: str | None, page: bytes) -> dict:
        """The stripped page, uncompressed (None) and in each encoding. A cached page (it has
        an ETag) is stripped and compressed once, best, as the site's cache does; a page made
        per request (the sell form, with its CSRF token) each time, quickly, as the site does."""
        key = (environ.get("HTTP_HOST"), environ.get("PATH_INFO"), query, etag)
        if etag and key in self.memo:
            return self.memo[key]
        stripped = strip_scripts(page)
        bodies = {None: stripped}
        if len(stripped) >= MIN_COMPRESS_BYTES:
            bodies |= {e: encode(stripped, e, best=bool(etag)) for e in ENCODINGS}
        if etag:
            self.memo[key] = bodies
        return bodies


def create_app():
    return NoScripts(create_site())
