"""A gateway in front of the tests' S3 server that refuses reads as S3 does for objects stored
with a customer key (SSE-C): moto stores the key's headers but hands the object back to anyone,
so without this a restore that forgot the key, or an upload that forgot to encrypt, would pass
every test. Each object's key digest is noted as it is written through the gateway; a read
(GET, HEAD, or a copy's source) must then carry the same digest, or none for an object written
without one. Everything else is passed through to moto unchanged, Host header included. A
test may also have it refuse writes under a path for a while (`refused_writes`), as a storage
that refuses one kind of upload would, or answer every write only after a delay
(`write_delay`), as a slow storage does.
"""

from __future__ import annotations

import http.client
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

KEY_MD5 = "x-amz-server-side-encryption-customer-key-md5"
COPY_KEY_MD5 = "x-amz-copy-source-server-side-encryption-customer-key-md5"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "te", "trailer"}
REFUSALS = {
    "missing": (400, "InvalidRequest", "The object was stored using a form of Server Side "
                "Encryption. The correct parameters must be provided to retrieve the object."),
    "wrong": (403, "AccessDenied", "Access Denied"),
    "not_encrypted": (400, "InvalidRequest", "The encryption parameters are not applicable to "
                      "this object."),
    "writes_refused": (403, "AccessDenied", "Access Denied (refused on purpose by the test)"),
}  # fmt: skip


class ObjectKeys:
    """The key digest (or None: no key) each object was last written with."""

    def __init__(self):
        self.digests: dict[tuple[str, str], str | None] = {}
        self.lock = threading.Lock()

    def refusal(self, bucket: str, key: str, sent: str | None) -> str | None:
        """Why a read of bucket/key carrying the digest `sent` is refused, if it is."""
        with self.lock:
            if (bucket, key) not in self.digests:
                return None  # not written through the gateway: moto answers for itself
            stored = self.digests[(bucket, key)]
        if stored is None:
            return "not_encrypted" if sent else None
        if not sent:
            return "missing"
        return "wrong" if sent != stored else None

    def note(self, bucket: str, key: str, digest: str | None) -> None:
        with self.lock:
            self.digests[(bucket, key)] = digest


def object_of(path: str) -> tuple[str, str]:
    """The bucket and object key of a path-style request ('' for a bucket's own requests)."""
    bucket, _, key = unquote(urlsplit(path).path).lstrip("/").partition("/")
    return bucket, key


class Forward(BaseHTTPRequestHandler):
    """One request: refused as S3 would, or passed to moto and its answer passed back."""

    protocol_version = "HTTP/1.1"
    server: SseCustomerGateway

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        return

    def do_GET(self):
        self.forward()

    do_HEAD = do_PUT = do_POST = do_DELETE = do_GET

    def forward(self) -> None:
        body = self.read_body()
        bucket, key = object_of(self.path)
        query = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        why = self.refusal(bucket, key, query)
        if why:
            self.refuse(why)
            return
        if self.command == "PUT" and key:
            time.sleep(self.server.write_delay)
        status, headers, answer = self.ask_moto(body)
        if 200 <= status < 300 and key:
            self.note_write(bucket, key, query)
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in HOP_BY_HOP:
                self.send_header(name, value)
        length = dict((n.lower(), v) for n, v in headers).get("content-length", len(answer))
        self.send_header("Content-Length", str(length if self.command == "HEAD" else len(answer)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer)

    def refusal(self, bucket: str, key: str, query: dict) -> str | None:
        """Why S3 would refuse this request for want of the right key, if it would."""
        keys = self.server.keys
        refused = self.server.refused_writes
        if refused and self.command == "PUT" and refused in f"/{bucket}/{key}":
            return "writes_refused"
        source = self.headers.get("x-amz-copy-source")
        if self.command == "PUT" and source:
            return keys.refusal(*object_of("/" + source.split("?")[0]),
                                self.headers.get(COPY_KEY_MD5))  # fmt: skip
        if self.command in ("GET", "HEAD") and key and not query.keys() - {"versionId"}:
            return keys.refusal(bucket, key, self.headers.get(KEY_MD5))
        return None

    def note_write(self, bucket: str, key: str, query: dict) -> None:
        """Remember the key an object was just written with (a whole object, a copy, or the
        start of a multipart upload, whose parts carry the same key)."""
        whole = self.command == "PUT" and not query
        started = self.command == "POST" and "uploads" in query
        if whole or started:
            self.server.keys.note(bucket, key, self.headers.get(KEY_MD5))

    def read_body(self) -> bytes:
        """The request's body, whether sized or sent in HTTP chunks."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                continue  # trailers
            return b"".join(chunks)
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def ask_moto(self, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        """The request as moto answers it (hangs while moto is paused, as the storage would)."""
        headers = {n: v for n, v in self.headers.items() if n.lower() not in HOP_BY_HOP}
        headers["Content-Length"] = str(len(body))
        moto = http.client.HTTPConnection("127.0.0.1", self.server.moto_port, timeout=300)
        try:
            moto.request(self.command, self.path, body=body, headers=headers)
            response = moto.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            moto.close()

    def refuse(self, why: str) -> None:
        status, code, message = REFUSALS[why]
        body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
                f"<Message>{message}</Message></Error>").encode()  # fmt: skip
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class SseCustomerGateway(ThreadingHTTPServer):
    """The gateway on a free loopback port, serving from a thread of the test process."""

    daemon_threads = True

    def __init__(self, moto_port: int):
        super().__init__(("127.0.0.1", 0), Forward)
        self.moto_port = moto_port
        self.keys = ObjectKeys()
        self.refused_writes = ""  # a part of the path whose writes are refused (403), if any
        self.write_delay = 0.0  # seconds each object write waits before it is done
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def handle_error(self, request, client_address) -> None:
        """A client that gave up (its time-out while moto was paused) is not an error here."""

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
