"""The documented nginx front (deploy/nginx.conf) rendered for loopback ports, with TLS from a
throwaway CA made by the test: how tests start the production shape. Nothing in the file is
edited; only its placeholders are filled, as envsubst would fill them."""

from __future__ import annotations

import base64
import getpass
import hashlib
import http.client
import re
import shutil
import ssl
import string
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import trustme
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.helpers import ROOT, free_port, wait_for_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PLACEHOLDER = re.compile(r"\$\{(\w+)\}")  # ${NAME}; nginx's own variables are $name
HOST = "www.watchbuyers.test"  # .test is reserved: it can only ever resolve where we say


@dataclass
class Tls:
    """A CA, and a certificate it signed for HOST and 127.0.0.1 (the SMTP server uses it too)."""

    ca_file: Path
    cert_file: Path
    key_file: Path
    spki_sha256: str  # base64, for Chromium's --ignore-certificate-errors-spki-list

    def client_context(self) -> ssl.SSLContext:
        """A context that trusts this CA only, as a client that checks certificates."""
        return ssl.create_default_context(cafile=str(self.ca_file))

    def server_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(str(self.cert_file), str(self.key_file))
        return context


def make_tls(folder: Path) -> Tls:
    """Write a throwaway CA and a server certificate into `folder`."""
    ca = trustme.CA(organization_name="Watch buyers test CA")
    cert = ca.issue_cert(HOST, "127.0.0.1")
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    cert.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    for pem in cert.cert_chain_pems[1:]:
        pem.write_to_path(str(folder / "cert.pem"), append=True)
    cert.private_key_pem.write_to_path(str(folder / "key.pem"))
    public_key = x509.load_pem_x509_certificate(cert.cert_chain_pems[0].bytes()).public_key()
    spki = public_key.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    spki_sha256 = base64.b64encode(hashlib.sha256(spki).digest()).decode()
    return Tls(folder / "ca.pem", folder / "cert.pem", folder / "key.pem", spki_sha256)


@dataclass
class Front:
    """A running nginx: the HTTPS and the redirecting HTTP ports, and its access log."""

    process: subprocess.Popen
    https_port: int
    http_port: int
    access_log: Path
    tls: Tls

    def request(self, method: str, path: str, headers=None, body=None):
        """One request over HTTPS to 127.0.0.1, certificate checked, as for HOST; the response
        (already read: `.body`)."""
        connection = http.client.HTTPSConnection(
            "127.0.0.1", self.https_port, timeout=30, context=self.tls.client_context()
        )
        try:
            sent = {"Host": f"{HOST}:{self.https_port}", **(headers or {})}
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            response.body = response.read()
            return response
        finally:
            connection.close()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def render_front(folder: Path, *, instance: Path, app_server: str, tls: Tls, https_port: int = 0):
    """deploy/nginx.conf with every placeholder filled for loopback, inside the smallest
    nginx.conf that runs it in the foreground from `folder`; (conf, https, http, access log)."""
    https_port, http_port = https_port or free_port(), free_port()
    access_log = folder / "access.log"
    template = string.Template((ROOT / "deploy" / "nginx.conf").read_text())
    values = {
        "CHECKOUT": ROOT,
        "INSTANCE": instance,
        "LISTEN": f"127.0.0.1:{https_port}",
        "REDIRECT_LISTEN": f"127.0.0.1:{http_port}",
        "SERVER_NAME": HOST,
        "APP_SERVER": app_server,
        "TLS_CERT": tls.cert_file,
        "TLS_KEY": tls.key_file,
        "ACCESS_LOG": access_log,
    }
    missing = set(PLACEHOLDER.findall(template.template)) - set(values)
    assert not missing, f"deploy/nginx.conf has placeholders the tests do not fill: {missing}"
    conf = folder / "nginx.conf"
    conf.write_text(
        # Workers read this test's private temp folders, so they run as the test's own user.
        f"daemon off; user {getpass.getuser()}; pid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log;\n"
        "events {}\nhttp { include /etc/nginx/mime.types;\n"
        f"client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;\n"
        f"{template.safe_substitute(values)}\n}}\n"
    )
    return conf, https_port, http_port, access_log


def start_front(folder: Path, *, instance: Path, app_server: str, tls: Tls, https_port: int = 0):
    """Render the documented front and start nginx on it (a Front); the caller stops it."""
    conf, https_port, http_port, access_log = render_front(
        folder, instance=instance, app_server=app_server, tls=tls, https_port=https_port
    )
    process = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(folder)])
    wait_for_port(https_port)
    return Front(process, https_port, http_port, access_log, tls)


class HttpsClient:
    """A client without a browser over the front's HTTPS: keeps cookies, sends no Referer
    unless told to (as a browser does on a page with `Referrer-Policy: no-referrer`)."""

    def __init__(self, front: Front):
        self.front = front
        self.cookies: dict[str, str] = {}
        self.set_cookie_headers: list[str] = []

    def request(self, method: str, path: str, form: dict | None = None, headers=None, body=None):
        """One request with the cookies kept so far; `form` is sent url-encoded, else `body`."""
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        response = self.front.request(method, path, sent, body)
        for header in response.headers.get_all("Set-Cookie") or []:
            self.set_cookie_headers.append(header)
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return response

    def get(self, path: str, headers=None):
        return self.request("GET", path, headers=headers)

    def post(self, path: str, form: dict, headers=None):
        return self.request("POST", path, form, headers)

    def form_token(self, path: str) -> str:
        """The CSRF token of the first form on the page at `path`."""
        html = self.get(path).body.decode()
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)
