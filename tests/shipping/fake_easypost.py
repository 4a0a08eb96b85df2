"""A local stand-in for the EasyPost API, served on loopback for the label tests: shipments
(create, retrieve, buy, refund) and addresses, with the few fields the app reads, as EasyPost's
own library sends and reads them. It records every request and fails on purpose when told:
`plan("buy", 500)` answers the next buy with a 500, `plan("buy", "slow")` buys the label but
answers only after the client has given up (a time-out the label survives), `plan("create",
"garbage")` answers with something that is not JSON.

Addresses (`POST /v2/addresses` with `verify`) are verified as EasyPost verifies them: the
address back in capitals with its own id, and `verifications.delivery` saying whether a carrier
can deliver there. A street with a typo the fake knows ("Mian St") comes back corrected (a
suggestion), one on "Nowhere" cannot be delivered to; `plan("address", "corrected")` or
`"undeliverable"` answer the next one so whatever it says. A bought shipment's label converts to
PDF (`GET /v2/shipments/<id>/label?file_format=PDF`), served as a real small PDF from the fake's
file host: a server of its own, always over HTTPS as the provider's file hosts are
(`files_host`, which the app's EASYPOST_FILE_HOSTS names; `label_url_base` points the label's
URL elsewhere, a lookalike host say). `plan("file", ...)` answers the next download with a
status, a "redirect" (to the same file, on the same host), or `("size", n)` / `("unsized", n)`
for a PDF of n bytes with or without its Content-Length.

Given a server TLS context (`FakeEasyPost(tls=...)`), it answers over HTTPS, as the real API
does: the production shape refuses an `http://` API base, and trusts the fake's certificate
through the CA bundle its processes are given (REQUESTS_CA_BUNDLE). Without one, the file host
has a certificate from a CA of the fake's own, `ca_file`, which the `easypost` fixture has
`requests` trust."""

from __future__ import annotations

import contextlib
import re
import ssl
import tempfile
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import trustme

from tests.local_fake import JsonAnswer, LocalFake, fresh

CARRIER_ACCOUNT = "ca_ups_business"
RATES = (("GroundSaver", "14.20"), ("2ndDayAir", "38.75"), ("NextDayAir", "71.10"))
ERRORS = {
    401: ("APIKEY.INVALID", "Invalid or missing API key."),
    422: ("ADDRESS.VERIFY.FAILURE", "Address not found"),
    500: ("INTERNAL_SERVER_ERROR", "We're sorry, something went wrong."),
}


@pytest.fixture(scope="module")
def easypost_server():
    """The fake for one test module (import it with `easypost` where a folder needs it)."""
    fake = FakeEasyPost()
    yield fake
    fake.stop()


@pytest.fixture
def easypost(easypost_server, monkeypatch):
    """The module's fake, with no request recorded and no failure planned yet, its file host's
    CA trusted by `requests`; the test's jobs done before the next test resets it."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", easypost_server.ca_file)
    with fresh(easypost_server) as fake:
        yield fake


class FakeEasyPost(LocalFake):
    """The fake, on a free port; `api_base` is what the app's EASYPOST_API_BASE points at. Its
    actions: create, retrieve, buy, refund, address, label, file; their planned answers: a
    status, "slow", "garbage", for an address "corrected" or "undeliverable", for a file
    "redirect" or ("size", n) or ("unsized", n)."""

    def __init__(self, slow_seconds: float = 3.0, tls: ssl.SSLContext | None = None):
        super().__init__(Answer, "/v2", slow_seconds, tls)
        self.api_base = self.url
        self.folder = tempfile.TemporaryDirectory()
        self.ca_file = str(Path(self.folder.name) / "ca.pem")
        self.files = FileHost(self, tls or own_ca_context(self.ca_file))
        self.files_host = f"127.0.0.1:{self.files.server_port}"
        self.label_url_base = f"https://{self.files_host}"
        self.shipments: dict[str, dict] = {}
        self.pickups: dict[str, dict] = {}
        self.addresses: dict[str, dict] = {}
        self.start()

    def track(self, shipment_id: str, status: str) -> None:
        """What the carrier says of a bought shipment now (its tracker's status)."""
        with self.lock:
            self.shipments[shipment_id]["tracker"]["status"] = status

    def reset(self) -> None:
        """Forget the requests and the failures planned (the shipments stay, as ids are kept);
        the labels' URLs on the file host again."""
        with self.lock:
            self.requests.clear()
            self.planned.clear()
            self.label_url_base = f"https://{self.files_host}"

    def booked_pickups(self) -> int:
        """How many pickups were booked (a 200 to a pickup's buy)."""
        return sum(1 for request in self.requests if request["action"] == "pickup_buy"
                   and request.get("answered") == 200)  # fmt: skip

    def bought(self) -> int:
        """How many labels were bought."""
        return sum(1 for request in self.requests if request["action"] == "buy"
                   and request.get("answered") == 200)  # fmt: skip

    def downloads(self) -> int:
        """How many times the file host was asked for a label's PDF."""
        return sum(1 for request in self.requests if request["action"] == "file")

    def stop(self) -> None:
        """Shut the fake and its file host down; forget its CA."""
        super().stop()
        self.files.stop()
        self.folder.cleanup()


def own_ca_context(ca_file: str) -> ssl.SSLContext:
    """A server context for 127.0.0.1 from a throwaway CA, whose certificate goes to `ca_file`."""
    authority = trustme.CA(organization_name="Fake label provider's CA")
    authority.cert_pem.write_to_path(ca_file)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    return context


class FileHost(LocalFake):
    """The provider's file host: a bought label's PDF at /files/labels/<shipment>.pdf, over
    HTTPS; its requests recorded (as "file") with the fake's, as planned there."""

    def __init__(self, fake: FakeEasyPost, tls: ssl.SSLContext):
        super().__init__(FileAnswer, tls=tls)
        self.fake = fake
        self.start()


class FileAnswer(BaseHTTPRequestHandler):
    server: FileHost

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        return

    def do_GET(self):
        fake = self.server.fake
        found = re.fullmatch(r"/files/labels/(shp_\w+)\.pdf", self.path)
        with fake.lock:
            shipment = fake.shipments.get(found.group(1)) if found else None
            fake.requests.append({"action": "file", "path": self.path})
            planned = fake.next_plan("file")
        if shipment is None or not shipment["postage_label"]:
            return self.send(404, b"Not found", "text/plain")
        if isinstance(planned, int):
            return self.send(planned, b"Refused", "text/plain")
        if planned == "redirect":
            self.send_response(302)
            self.send_header("Location", f"https://{fake.files_host}{self.path}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        data = label_pdf(shipment["tracking_code"])
        if isinstance(planned, tuple):  # the PDF padded after its end to exactly n bytes
            kind, size = planned
            data += b"%" * (size - len(data))
            return self.send(200, data, "application/pdf", sized=kind == "size")
        return self.send(200, data, "application/pdf")

    def send(self, status: int, data: bytes, media_type: str, sized: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        if sized:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(OSError):  # a client that stopped reading, past its limit
            self.wfile.write(data)


def new_shipment(number: int, body: dict) -> dict:
    given = body.get("shipment", {})
    rates = [
        {"id": f"rate_{number}_{index}", "carrier": "UPS", "service": service, "rate": price,
         "carrier_account_id": CARRIER_ACCOUNT, "object": "Rate"}
        for index, (service, price) in enumerate(RATES)
    ]  # fmt: skip
    return {
        "id": f"shp_{number:04d}", "object": "Shipment", "rates": rates,
        "reference": given.get("reference"), "options": given.get("options", {}),
        "from_address": given.get("from_address"), "to_address": given.get("to_address"),
        "parcel": given.get("parcel"), "postage_label": None, "tracking_code": None,
        "selected_rate": None, "refund_status": None, "tracker": None,
    }  # fmt: skip


class Answer(JsonAnswer):
    server: FakeEasyPost

    def route(self) -> None:
        body = self.json_body()
        action, shipment_id = self.action_of(self.command, self.path)
        record = {"action": action, "path": self.path, "body": body,
                  "authorization": self.headers.get("Authorization")}  # fmt: skip
        with self.server.lock:
            self.server.requests.append(record)
            planned = self.server.next_plan(action)
        if planned == "garbage":  # a proxy's error page, say: not JSON at all
            record["answered"] = 200
            self.answer_raw(200, b"<html>Bad gateway</html>", "application/json")
            return
        if isinstance(planned, int):
            record["answered"] = planned
            code, message = ERRORS[planned]
            self.answer(planned, {"error": {"code": code, "message": message, "errors": []}})
            return
        if action == "address":
            status, answer = self.verify_address(body, planned)
        elif action.startswith("pickup_"):
            status, answer = self.pickup(action, shipment_id, body)
        else:
            status, answer = self.do(action, shipment_id, body)
        record["answered"] = status
        if planned == "slow":
            time.sleep(self.server.slow_seconds)
        self.answer(status, answer)

    @staticmethod
    def action_of(method: str, path: str) -> tuple[str, str | None]:
        bare = path.split("?")[0]
        if bare == "/v2/addresses" and method == "POST":
            return "address", None
        if found := re.fullmatch(r"/v2/pickups(?:/(pickup_\w+)(?:/(buy|cancel))?)?", bare):
            pickup_id, verb = found.groups()
            if verb:
                return f"pickup_{verb}", pickup_id
            return ("pickup_retrieve" if method == "GET" else "pickup_create"), pickup_id
        found = re.fullmatch(r"/v2/shipments(?:/(shp_\w+)(?:/(buy|refund|label))?)?", bare)
        if found:
            shipment_id, verb = found.groups()
            if verb:
                return verb, shipment_id
            return ("retrieve" if method == "GET" else "create"), shipment_id
        return "unknown", None

    def do(self, action: str, shipment_id: str | None, body: dict) -> tuple[int, dict]:
        server = self.server
        with server.lock:
            if action == "create":
                shipment = new_shipment(len(server.shipments) + 1, body)
                server.shipments[shipment["id"]] = shipment
                return 201, shipment
            shipment = server.shipments.get(shipment_id or "")
            if shipment is None:
                return 404, {"error": {"code": "NOT_FOUND", "message": "Not found", "errors": []}}
            if action == "buy":
                return self.buy(shipment, body)
            if action == "refund":
                shipment["refund_status"] = "submitted"
            if action == "label" and shipment["postage_label"]:
                shipment["postage_label"]["label_pdf_url"] = (
                    f"{server.label_url_base}/files/labels/{shipment_id}.pdf"
                )
            return 200, shipment

    def verify_address(self, body: dict, planned) -> tuple[int, dict]:
        given = body.get("address", {})
        street = (given.get("street1") or "").upper()
        if planned is None and "MIAN ST" in street:
            planned = "corrected"
        if planned is None and "NOWHERE" in street:
            planned = "undeliverable"
        with self.server.lock:
            number = len(self.server.addresses) + 1
            address = {
                "id": f"adr_{number:04d}", "object": "Address", "country": "US",
                **{key: (given.get(key) or "").upper() or None
                   for key in ("name", "street1", "street2", "city", "state", "zip")},
                "phone": given.get("phone"),
                "verifications": {"delivery": {"success": True, "errors": []}},
            }  # fmt: skip
            if planned == "corrected":
                address["street1"] = street.replace("MIAN ST", "MAIN ST") + (
                    "" if "MIAN ST" in street else " APT 2"
                )
                address["zip"] = f"{(given.get('zip') or '')[:5]}-1234"
            if planned == "undeliverable":
                address["verifications"]["delivery"] = {"success": False, "errors": [
                    {"code": "E.ADDRESS.NOT_FOUND", "field": "address",
                     "message": "Address not found"}]}  # fmt: skip
            self.server.addresses[address["id"]] = address
        return 201, address

    def pickup(self, action: str, pickup_id: str | None, body: dict) -> tuple[int, dict]:
        """Pickups: created with the carrier's rates, read, booked once, cancelled."""
        pickups = self.server.pickups
        with self.server.lock:
            if action == "pickup_create":
                pickup_id = f"pickup_{len(pickups) + 1:04d}"
                pickups[pickup_id] = body.get("pickup", {}) | {
                    "id": pickup_id, "object": "Pickup", "status": "unknown", "confirmation": None,
                    "pickup_rates": [{"id": f"pickuprate_{pickup_id}", "carrier": "UPS",
                                      "service": "Same-day Pickup", "rate": "6.50"}],
                }  # fmt: skip
                return 201, pickups[pickup_id]
            pickup = pickups.get(pickup_id or "")
            if pickup is None:
                return 404, {"error": {"code": "NOT_FOUND", "message": "Not found", "errors": []}}
            if action == "pickup_buy":
                if pickup["status"] == "scheduled":
                    return 422, {
                        "error": {
                            "code": "PICKUP.ALREADY_BOOKED",
                            "message": "Pickup already scheduled.",
                            "errors": [],
                        }
                    }
                pickup["status"], pickup["confirmation"] = "scheduled", f"WTC{pickup_id[-4:]}"
            if action == "pickup_cancel":
                pickup["status"] = "canceled"
            return 200, pickup

    @staticmethod
    def buy(shipment: dict, body: dict) -> tuple[int, dict]:
        if shipment["postage_label"]:
            return 422, {"error": {"code": "SHIPMENT.POSTAGE.EXISTS",
                                   "message": "Postage already exists for this shipment.",
                                   "errors": []}}  # fmt: skip
        wanted = body.get("rate", {}).get("id")
        [rate] = [rate for rate in shipment["rates"] if rate["id"] == wanted]
        number = shipment["id"].removeprefix("shp_")
        shipment["selected_rate"] = rate
        shipment["tracking_code"] = f"1Z999AA1{number:0>10}"
        shipment["tracker"] = {"object": "Tracker", "status": "pre_transit"}
        shipment["postage_label"] = {"label_url": label_url(shipment["id"]), "label_pdf_url": None}
        return 200, shipment


def label_url(shipment_id: str) -> str:
    """Where the provider keeps a bought label's image (the seller's name and address on it)."""
    return f"https://easypost-files.example/labels/{shipment_id}.pdf"


def label_pdf(tracking_code: str) -> bytes:
    """A real, small 4x6 inch PDF label naming its tracking code, as the provider's files are."""
    text = f"BT /F1 18 Tf 24 380 Td (SAMPLE LABEL) Tj 0 -30 Td ({tracking_code}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
