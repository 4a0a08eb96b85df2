"""A bare Flask app answering with responses saved from the real site: the framework's ceiling.

bench/load.py fetches each benchmarked page from the running site (Accept-Encoding: gzip) and
saves status, headers and body under BENCH_BARE_DIR; this app replays them byte for byte from
one view with a dict lookup. Run under the same gunicorn config as the site, its requests/s
are what Flask and gunicorn can do at all for those bytes, so site/bare shows what the site's
own code (page cache, middleware, headers) costs on top.

    BENCH_BARE_DIR=DIR .venv/bin/gunicorn -c deploy/gunicorn.conf.py --pythonpath bench \
        "bare_app:create_app()"
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from flask import Flask, Response

# Headers the server itself writes (or that describe the connection, not the content).
SERVER_HEADERS = {
    "content-length",
    "date",
    "server",
    "connection",
    "keep-alive",
    "transfer-encoding",
}


def save_response(directory: Path, path: str, status: int, headers, body: bytes) -> None:
    """Store one response for the bare app (called by bench/load.py)."""
    directory.mkdir(parents=True, exist_ok=True)
    name = path.strip("/").replace("/", "__") or "index"
    (directory / f"{name}.body").write_bytes(body)
    kept = [(k, v) for k, v in headers.items() if k.lower() not in SERVER_HEADERS]
    meta = {"path": path, "status": status, "headers": kept, "body": f"{name}.body"}
    (directory / f"{name}.json").write_text(json.dumps(meta))


def load_responses(directory: Path) -> dict[str, tuple[int, list, bytes]]:
    responses = {}
    for meta_file in directory.glob("*.json"):
        meta = json.loads(meta_file.read_text())
        body = (directory / meta["body"]).read_bytes()
        responses[meta["path"]] = (meta["status"], meta["headers"], body)
    return responses


def create_app(directory: str | None = None) -> Flask:
    app = Flask(__name__)
    responses = load_responses(Path(directory or os.environ["BENCH_BARE_DIR"]))

    @app.route("/", defaults={"path": ""})
    @app.route("/<path:path>")
    def replay(path: str):
        saved = responses.get("/" + path)
        if saved is None:
            return Response("not saved", status=404)
        status, headers, body = saved
        return Response(body, status=status, headers=headers)

    return app
