"""A bought label as the seller downloads it from the status page: the provider converts it to
PDF (4 x 6 inches, as a label printer takes it), fetched from the provider's file at each
download and never stored here; for letter paper the same page is placed at the top of a letter
sheet, to cut out. Nothing else on the site or in an e-mail carries a label.

The file's address comes in the provider's answer, so it is fetched only if it is https on one
of the provider's file hosts (EASYPOST_FILE_HOSTS), a redirect is never followed, and it is
read in chunks up to EASYPOST_LABEL_MAX_BYTES within EASYPOST_TIMEOUT: a compromised or
mistaken answer cannot point the site at another host, an internal address, or an endless file.
"""

from __future__ import annotations

import io
import time
from urllib.parse import urlsplit

import requests
from flask import current_app
from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.errors import PdfReadError

from app.shipping import easypost_api
from app.shipping.easypost_api import ProviderError

LETTER = (612, 792)  # points
MARGIN = 36  # half an inch from the sheet's top and left edges
SIZES = ("4x6", "letter")
CHUNK = 64 * 1024


def on_file_host(url: str) -> bool:
    """Whether `url` is https on one of EASYPOST_FILE_HOSTS (named by host for port 443, or
    host:port), with no user name or anything a parser could read two ways."""
    if not url.isascii() or not url.isprintable() or " " in url or "\\" in url:
        return False
    try:
        parts = urlsplit(url)
        port = parts.port or 443
    except ValueError:  # a port that is not a number
        return False
    if parts.scheme != "https" or "@" in parts.netloc or not parts.hostname:
        return False
    allowed = {host.lower() for host in current_app.config["EASYPOST_FILE_HOSTS"]}
    named = {f"{parts.hostname}:{port}"} | ({parts.hostname} if port == 443 else set())
    return bool(named & allowed)


def host_of(url: str) -> str:
    """The URL's host, for a message (never its path, which leads to the label)."""
    try:
        return urlsplit(url).hostname or "no host"
    except ValueError:
        return "an unreadable host"


def fetch_file(url: str) -> bytes:
    """The label's PDF at `url` (checked first), streamed and never over the limit; no
    redirect followed; ProviderError otherwise."""
    if not on_file_host(url):
        raise ProviderError(
            f"the label's PDF is not an https address on the provider's file hosts "
            f"({host_of(url)}): see EASYPOST_FILE_HOSTS"
        )
    config = current_app.config
    try:
        with requests.get(
            url, timeout=config["EASYPOST_TIMEOUT"], allow_redirects=False, stream=True
        ) as answer:
            if answer.status_code != 200:
                raise ProviderError(f"the label's PDF was not served ({answer.status_code})")
            data = read_within(
                answer, config["EASYPOST_LABEL_MAX_BYTES"], config["EASYPOST_TIMEOUT"]
            )
    except requests.RequestException as error:
        raise ProviderError(f"could not fetch the label's PDF: {type(error).__name__}") from error
    if not data.startswith(b"%PDF"):
        raise ProviderError("the label's file is not a PDF")
    return data


def read_within(answer: requests.Response, limit: int, seconds: float) -> bytes:
    """The answer's body, read in chunks: ProviderError once it passes `limit` bytes (a
    declared length over it is refused unread) or takes longer than `seconds` in all."""
    too_large = ProviderError(f"the label's PDF is larger than {limit:,} bytes")
    declared = answer.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    body, deadline = bytearray(), time.monotonic() + seconds
    for chunk in answer.iter_content(CHUNK):
        body += chunk
        if len(body) > limit:
            raise too_large
        if time.monotonic() > deadline:
            raise ProviderError(f"the label's PDF took more than {seconds:g} s")
    return bytes(body)


def provider_pdf(provider_shipment_id: str) -> bytes:
    """The label as the provider's PDF (converted on its side); ProviderError if it fails."""
    shipment = easypost_api.call(
        "convert the label",
        easypost_api.client().shipment.label,
        provider_shipment_id,
        file_format="PDF",
    )
    url = (shipment.get("postage_label") or {}).get("label_pdf_url")
    if not url or not isinstance(url, str):
        raise ProviderError("the provider gave no PDF of the label")
    return fetch_file(url)


def on_letter(label: bytes) -> bytes:
    """The label's first page at the top left of a letter sheet, at its own size."""
    try:
        page = PdfReader(io.BytesIO(label)).pages[0]
    except (PdfReadError, IndexError, ValueError) as error:
        raise ProviderError("the label's PDF does not open") from error
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    writer = PdfWriter()
    sheet = writer.add_blank_page(*LETTER)
    sheet.merge_transformed_page(
        page, Transformation().translate(MARGIN, LETTER[1] - MARGIN - height)
    )
    if width > LETTER[0] or height > LETTER[1]:
        raise ProviderError("the label is larger than a letter sheet")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def label_pdf(provider_shipment_id: str, size: str) -> bytes:
    """The label to print, as a PDF of `size` (4x6 or letter); ProviderError if the provider
    cannot give it now."""
    label = provider_pdf(provider_shipment_id)
    return label if size == "4x6" else on_letter(label)
