"""The stolen-watch register asked by API: the one module that knows the provider's request and
answer. The registers that give dealers API access (The Watch Register, the Art Loss Register)
do not publish their formats, so this is written to the shape below; for the provider the
business signs with, rewrite `ask()` and `certificate()` and keep what they return.

The request::

    POST {REGISTER_API_URL}/searches
    Authorization: Bearer {REGISTER_API_KEY}
    Content-Type: application/json
    {"serial_number": "7Z1234AB", "brand": "Rolex", "item": "watch"}

The answer (200)::

    {"result": "clear" | "flagged" | "unknown",
     "reference": "the register's own reference for this search",
     "certificate_url": "https://<the same host>/certificates/<reference>.pdf"}

`brand` is the brand staff read on the watch with the authentication's findings, never the one
the seller chose on /sell (which a thief could choose to miss the report); it is null for a
serial nobody has authenticated yet (the seller's, the arrival's), and the register then searches
the serial across every brand.

`unknown` means the register cannot say (for instance a serial it does not know the form of);
a clear or flagged answer comes with its certificate, fetched with the same key from the same
host, as a PDF or an image. Anything else (an HTTP error, a time-out, a redirect, an answer of
another shape, a certificate that is neither) is a RegisterError: never a result, so never
"clear". Nothing about the seller is sent: the serial number and the brand only.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import current_app

from app.sale.purchase import serials
from app.sale.purchase.stolen_register import CERTIFICATE_MAX_BYTES, certificate_type
from app.security.outbound import OPENER

RESULTS = ("clear", "flagged", "unknown")
ANSWER_MAX_BYTES = 64 * 1024
REFERENCE_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}")


class RegisterError(RuntimeError):
    """The register gave no usable answer; the message says why, in staff's words."""


@dataclass(frozen=True)
class Answer:
    """What the register said of one serial number."""

    result: str  # clear, flagged or unknown
    reference: str  # the register's own reference for the search
    certificate_url: str | None  # where its certificate is (None for unknown)


def configured() -> bool:
    """Whether the register is asked by API (otherwise staff record each check by hand)."""
    return bool(current_app.config["REGISTER_API_URL"])


def provider_name() -> str:
    """The register's name, as each check records it."""
    return current_app.config["REGISTER_PROVIDER_NAME"]


def call(request: urllib.request.Request, limit: int) -> bytes:
    """The body of one request to the register (at most `limit` bytes), or RegisterError."""
    try:
        with OPENER.open(request, timeout=current_app.config["REGISTER_API_TIMEOUT"]) as response:
            body = response.read(limit + 1)
    except urllib.error.HTTPError as error:
        if 300 <= error.code < 400:
            raise RegisterError(f"a redirect (HTTP {error.code}), not followed") from error
        raise RegisterError(f"HTTP {error.code} from the register") from error
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        late = "timed out" in str(error)
        raise RegisterError("no answer in time" if late else "no answer") from error
    if len(body) > limit:
        raise RegisterError("an answer larger than any the register sends")
    return body


def headers() -> dict[str, str]:
    """The key, as the register wants it with every request."""
    return {"Authorization": f"Bearer {current_app.config['REGISTER_API_KEY']}"}


def ask(serial: str, brand: str | None) -> Answer:
    """Search the register for one watch; RegisterError if it gave no usable answer."""
    body = json.dumps({"serial_number": serials.normal(serial), "brand": brand, "item": "watch"})
    request = urllib.request.Request(
        current_app.config["REGISTER_API_URL"].rstrip("/") + "/searches",
        data=body.encode(),
        headers=headers() | {"Content-Type": "application/json", "Accept": "application/json"},
        method="POST",
    )
    return parsed(call(request, ANSWER_MAX_BYTES))


def parsed(body: bytes) -> Answer:
    """The register's answer checked for its shape; RegisterError for any other."""
    try:
        answer = json.loads(body)
        result, reference = answer["result"], answer["reference"]
        certificate_url = answer.get("certificate_url")
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise RegisterError("an answer that is not a search result") from error
    if result not in RESULTS:
        raise RegisterError("an answer that is not a search result")
    if not isinstance(reference, str) or not REFERENCE_PATTERN.fullmatch(reference):
        raise RegisterError("an answer without the register's reference")
    if result != "unknown" and not same_host(certificate_url):
        raise RegisterError("a result without its certificate on the register's own host")
    return Answer(result, reference, certificate_url if result != "unknown" else None)


def same_host(url) -> bool:
    """Whether `url` is an https address on the register's own host (the key goes with it)."""
    if not isinstance(url, str):
        return False
    ours = urlsplit(current_app.config["REGISTER_API_URL"])
    theirs = urlsplit(url)
    return theirs.scheme == ours.scheme and theirs.netloc == ours.netloc


def certificate(answer: Answer) -> tuple[bytes, str]:
    """The answer's certificate and its media type, known by its bytes (a PDF or an image);
    RegisterError for anything else."""
    request = urllib.request.Request(answer.certificate_url, headers=headers())
    data = call(request, CERTIFICATE_MAX_BYTES)
    media_type = certificate_type(data)
    if media_type is None:
        raise RegisterError("a certificate that is neither a PDF nor an image")
    return data, media_type
