"""A local stand-in for the bank API, Increase, served on loopback for the payout tests: routing
numbers, the business's account number, and transfers on the four rails (Real-Time Payments,
FedNow, ACH, wire), each created, read, approved or cancelled at the paths and in the shapes the
`increase` library sends and reads, with its idempotency keys honoured as the bank documents
them (the same key and arguments: the same transfer again, marked `Idempotent-Replayed`; the
same key with other arguments: 409). It records every request and fails on purpose when told:

- `plan("create", 500)` answers the next create with a 500 and makes nothing;
- `plan("create", "slow")` makes the transfer but answers only after the client gave up (a
  time-out after the transfer was made); the same for "approve", "retrieve", "routing"...;
- `plan("create", 400)` refuses it as the bank refuses an account it cannot pay;
- `plan("approve", "rejected")`: the network refuses the transfer once released (the seller's
  bank answers `account_closed`); `plan("approve", "pending")`: it stays on its way;
- `advance(transfer_id, "returned", "insufficient_fund")`: what the bank says later (an ACH
  return), as `settle(transfer_id)` completes a transfer still on its way;
- `ach_schedule = "future_dated"`: an ACH transfer submitted after the day's last same-day
  cut-off, which the bank expects to settle on the next business day.

Released, a transfer completes at once (RTP, FedNow, wire: `complete`; ACH: `submitted`), or,
given `network_seconds`, as the real networks answer: submitted half-way, done at the end.
Every change is an event the fake keeps; given a site to deliver to (`deliver_to(send,
secret)`), it sends each, signed as the bank signs them (Standard Webhooks: `webhook-id`,
`webhook-timestamp`, `webhook-signature`), from a thread of its own; `signed(event)` gives the
same for a test to post itself.

Given a server TLS context (`FakeIncrease(tls=...)`), it answers over HTTPS, as the real API does
(the production shape refuses an `http://` INCREASE_API_BASE)."""

from __future__ import annotations

import json
import re
import ssl
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook

from tests.local_fake import JsonAnswer, LocalFake, fresh

ACCOUNT_NUMBER_ID = "account_number_v18nkfqm6afpsrvy82b2"
ACCOUNT_ID = "account_in71c4amph0vgo2qllky"
# Routing numbers the fake's data knows (each passes the ABA checksum): a bank on every rail, one
# on FedNow but not RTP, one with neither instant network.
BANKS = {
    "021000021": ("JPMORGAN CHASE BANK, NA", ("rtp", "fednow", "ach", "wire")),
    "263181368": ("HARBOR FEDERAL CREDIT UNION", ("fednow", "ach", "wire")),
    "211274450": ("GRANITE STATE SAVINGS BANK", ("ach", "wire")),
}
KINDS = {
    "real_time_payments_transfers": "rtp",
    "fednow_transfers": "fednow",
    "ach_transfers": "ach",
    "wire_transfers": "wire",
}
OBJECT_TYPES = {
    "rtp": "real_time_payments_transfer",
    "fednow": "fednow_transfer",
    "ach": "ach_transfer",
    "wire": "wire_transfer",
}
# Where a released transfer goes: on its way, then done.
ON_ITS_WAY = {"rtp": "pending_submission", "fednow": "pending_submitting",
              "ach": "pending_submission", "wire": "pending_creating"}  # fmt: skip
DONE = {"rtp": "complete", "fednow": "complete", "ach": "submitted", "wire": "complete"}
ERRORS = {
    400: ("invalid_parameters_error", "Invalid parameters",
          "account_number {account}: the receiving bank has no open account with this number."),
    404: ("object_not_found_error", "Object not found", "No such object."),
    409: ("invalid_operation_error", "Invalid operation", "The transfer is not pending approval."),
    500: ("internal_server_error", "Internal server error", "Something went wrong on our end."),
}  # fmt: skip


@pytest.fixture(scope="module")
def increase_server():
    """The fake for one test module (import it with `bank` where a folder needs it)."""
    fake = FakeIncrease()
    yield fake
    fake.stop()


@pytest.fixture
def bank(increase_server):
    """The module's fake, with no request recorded and no failure planned yet."""
    with fresh(increase_server) as fake:
        yield fake


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def sign(secret: str, body: bytes, message_id: str, at: datetime | None = None) -> dict:
    """The headers the bank signs a webhook with (Standard Webhooks, the secret's bytes as key)."""
    at = at or datetime.now(UTC)
    signature = Webhook(secret.encode()).sign(message_id, at, body.decode())
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
        "Content-Type": "application/json",
    }


class FakeIncrease(LocalFake):
    """The fake, on a free port; `api_base` is what the app's INCREASE_API_BASE points at. Its
    actions: routing, account, create, retrieve, approve, cancel; their planned answers: a
    status, "slow", "garbage", or for approve "rejected" or "pending"."""

    def __init__(self, slow_seconds: float = 3.0, tls: ssl.SSLContext | None = None,
                 network_seconds: float = 0.0):  # fmt: skip
        super().__init__(Answer, "", slow_seconds, tls)
        self.api_base = self.url
        self.network_seconds = network_seconds
        self.ach_schedule = "same_day"
        self.transfers: dict[str, dict] = {}
        self.keys: dict[tuple[str, str], tuple[dict, str]] = {}
        self.events: list[dict] = []
        self.delivery: tuple[Callable[[bytes, dict], int], str] | None = None
        self.deliveries: list[tuple[str, int]] = []
        self.start()

    def deliver_to(self, send: Callable[[bytes, dict], int], secret: str) -> None:
        """Deliver every event from now on, signed with `secret`, by `send(body, headers)` (a
        POST to the site's webhook: through nginx, say), which answers the status."""
        self.delivery = (send, secret)

    def reset(self) -> None:
        """Forget the requests, the failures planned and where events go (transfers stay)."""
        with self.lock:
            self.requests.clear()
            self.planned.clear()
            self.delivery = None
            self.ach_schedule = "same_day"

    def made(self) -> int:
        """How many transfers were created (a replayed key makes none)."""
        return sum(1 for r in self.requests if r["action"] == "create" and r.get("created"))

    def approved(self) -> int:
        """How many transfers were released (approved while waiting for it)."""
        return sum(1 for r in self.requests if r["action"] == "approve" and r.get("released"))

    def settle(self, transfer_id: str) -> None:
        """The network completes a transfer still on its way."""
        rail = self.transfers[transfer_id]["rail"]
        self.advance(transfer_id, DONE[rail])

    def advance(self, transfer_id: str, status: str, reason: str | None = None) -> None:
        """What the bank says of a transfer now: its status, with the reason of a rejection or
        a return, as an event (delivered if a site is given)."""
        with self.lock:
            transfer = self.transfers[transfer_id]
            apply_status(transfer, status, reason, self.ach_schedule)
            event = self.new_event(transfer)
        self.deliver(event)

    def later(self, transfer_id: str, planned) -> None:
        """As the real networks answer: a released transfer submitted half-way through
        `network_seconds`, then done (or rejected, if planned) at the end, each an event."""
        rail = self.transfers[transfer_id]["rail"]
        steps = [("submitted" if rail != "fednow" else "pending_response", 0.5),
                 ("rejected" if planned == "rejected" else DONE[rail], 1.0)]  # fmt: skip
        for status, share in steps:
            timer = threading.Timer(
                self.network_seconds * share, self.advance, [transfer_id, status]
            )
            timer.daemon = True
            timer.start()

    def new_event(self, transfer: dict) -> dict:
        """Inside the lock: an `<object>.updated` event about the transfer."""
        event = {
            "id": f"event_{len(self.events) + 1:06d}",
            "type": "event",
            "created_at": now_iso(),
            "category": f"{OBJECT_TYPES[transfer['rail']]}.updated",
            "associated_object_type": OBJECT_TYPES[transfer["rail"]],
            "associated_object_id": transfer["id"],
        }
        self.events.append(event)
        return event

    def signed(self, event: dict, secret: str, at: datetime | None = None) -> tuple[bytes, dict]:
        """An event's body and the headers that sign it, as the bank would deliver it."""
        body = json.dumps(event).encode()
        return body, sign(secret, body, f"msg_{event['id']}", at)

    def deliver(self, event: dict) -> None:
        """Send the event to the site given, from a thread (the bank does not wait on us)."""
        if self.delivery is None:
            return
        send, secret = self.delivery

        def post():
            status = send(*self.signed(event, secret))
            with self.lock:
                self.deliveries.append((event["id"], status))

        threading.Thread(target=post, daemon=True).start()


def apply_status(
    transfer: dict, status: str, reason: str | None, ach_schedule: str = "same_day"
) -> None:
    """A transfer's new status, with what the bank's objects carry for it (an ACH transfer's
    submission, the settlement the bank expects: `ach_schedule`, "same_day" or "future_dated"
    for one submitted after the day's last same-day cut-off)."""
    rail = transfer["rail"]
    transfer["status"] = status
    if status in (DONE[rail], "submitted", "pending_response") and not transfer["submission"]:
        transfer["submission"] = {
            "rtp": {"transaction_identification": f"20261203091000019B1XINC{transfer['n']:08d}",
                    "submitted_at": now_iso()},
            "fednow": {"message_identification": f"20261203FDN{transfer['n']:010d}",
                       "submitted_at": now_iso()},
            "ach": {"trace_number": f"0210000{transfer['n']:08d}", "submitted_at": now_iso(),
                    "expected_settlement_schedule": ach_schedule},
            "wire": {"input_message_accountability_data": f"20261203MMQFMP{transfer['n']:06d}",
                     "submitted_at": now_iso()},
        }[rail]  # fmt: skip
    if status == "complete":
        transfer["acknowledgement"] = {"acknowledged_at": now_iso()}
    if status == "rejected":
        transfer["rejection"] = {"reject_reason_code": reason or "account_closed",
                                 "rejected_at": now_iso()}  # fmt: skip
    if status == "returned" and rail == "ach":
        transfer["return"] = {"return_reason_code": reason or "insufficient_fund",
                              "created_at": now_iso()}  # fmt: skip
    if status == "returned" and rail == "fednow":
        transfer["returns"] = [{"return_reason_code": reason or "account_closed",
                                "amount": transfer["amount"]}]  # fmt: skip
    if status == "reversed":
        transfer["reversal"] = {"description": reason or "Returned by the beneficiary's bank"}


class Answer(JsonAnswer):
    server: FakeIncrease

    def route(self) -> None:
        body = self.json_body()
        action, kind, transfer_id = self.action_of(self.command, self.path)
        record = {"action": action, "path": self.path, "body": body,
                  "key": self.headers.get("Idempotency-Key"),
                  "authorization": self.headers.get("Authorization")}  # fmt: skip
        with self.server.lock:
            self.server.requests.append(record)
            planned = self.server.next_plan(action)
        if planned == "garbage":  # a proxy's error page, say: not JSON at all
            record["answered"] = 502
            self.answer_raw(502, b"<html>Bad gateway</html>", "text/html")
            return
        if isinstance(planned, int):  # a refusal that echoes the number it refuses, as some do
            record["answered"] = planned
            status, answer = error_body(planned)
            answer["detail"] = answer["detail"].format(account=body.get("account_number"))
            self.answer(status, answer)
            return
        status, answer, headers = self.do(action, kind, transfer_id, body, record, planned)
        record["answered"] = status
        if planned == "slow":
            time.sleep(self.server.slow_seconds)
        self.answer(status, answer, headers)

    @staticmethod
    def action_of(method: str, path: str) -> tuple[str, str | None, str | None]:
        bare = path.split("?")[0]
        if bare == "/routing_numbers":
            return "routing", None, None
        if re.fullmatch(r"/account_numbers/\w+", bare):
            return "account", None, bare.rsplit("/", 1)[1]
        found = re.fullmatch(r"/(\w+_transfers)(?:/(\w+?)(?:/(approve|cancel))?)?", bare)
        if found and found.group(1) in KINDS:
            kind, transfer_id, verb = found.groups()
            if verb:
                return verb, kind, transfer_id
            return ("retrieve" if method == "GET" else "create"), kind, transfer_id
        return "unknown", None, None

    def do(self, action, kind, transfer_id, body, record, planned):
        server = self.server
        if action == "routing":
            number = re.search(r"routing_number=(\d+)", self.path)
            return 200, {"data": routing_rows(number.group(1) if number else ""),
                         "next_cursor": None}, {}  # fmt: skip
        if action == "account":
            if transfer_id != ACCOUNT_NUMBER_ID:
                return *error_body(404), {}
            return 200, {"id": ACCOUNT_NUMBER_ID, "account_id": ACCOUNT_ID,
                         "type": "account_number", "status": "active"}, {}  # fmt: skip
        if action == "create":
            return self.create(KINDS[kind], body, record)
        events = []
        with server.lock:
            transfer = server.transfers.get(transfer_id or "")
            if transfer is None or transfer["rail"] != KINDS.get(kind):
                return *error_body(404), {}
            if action == "approve":
                if transfer["status"] != "pending_approval":
                    return *error_body(409), {}
                record["released"] = True
                transfer["approval"] = {"approved_at": now_iso(), "approved_by": "api"}
                apply_status(transfer, ON_ITS_WAY[transfer["rail"]], None)
                events.append(server.new_event(transfer))
                if planned != "pending" and server.network_seconds:
                    server.later(transfer["id"], planned)
                elif planned != "pending":
                    outcome = "rejected" if planned == "rejected" else DONE[transfer["rail"]]
                    apply_status(transfer, outcome, None, server.ach_schedule)
                    events.append(server.new_event(transfer))
            if action == "cancel":
                if transfer["status"] != "pending_approval":
                    return *error_body(409), {}
                transfer["cancellation"] = {"canceled_at": now_iso(), "canceled_by": "api"}
                apply_status(transfer, "canceled", None)
                events.append(server.new_event(transfer))
            shown = public(transfer)
        for event in events:
            server.deliver(event)
        return 200, shown, {}

    def create(self, rail: str, body: dict, record: dict):
        server = self.server
        key = record["key"]
        with server.lock:
            if key and (rail, key) in server.keys:
                earlier, transfer_id = server.keys[(rail, key)]
                if earlier != body:
                    status, answer = error_body(409)
                    answer |= {"type": "idempotency_key_already_used_error",
                               "title": "Idempotency key already used",
                               "resource_id": transfer_id}  # fmt: skip
                    return status, answer, {}
                return 200, public(server.transfers[transfer_id]), {"Idempotent-Replayed": "true"}
            number = len(server.transfers) + 1
            transfer_id = f"{OBJECT_TYPES[rail]}_{number:06d}fk"
            transfer = {
                "id": transfer_id, "rail": rail, "n": number, "type": OBJECT_TYPES[rail],
                "amount": body["amount"], "currency": "USD", "created_at": now_iso(),
                "account_number": body.get("account_number"),
                "routing_number": body.get("routing_number"),
                "creditor_name": body.get("creditor_name")
                or body.get("individual_name") or (body.get("creditor") or {}).get("name"),
                "idempotency_key": key, "status": "pending_approval" if body.get(
                    "require_approval") else ON_ITS_WAY[rail],
                "submission": None, "acknowledgement": None, "rejection": None,
                "approval": None, "cancellation": None,
            }  # fmt: skip
            server.transfers[transfer_id] = transfer
            if key:
                server.keys[(rail, key)] = (body, transfer_id)
            record["created"] = True
            event = server.new_event(transfer)
            shown = public(transfer)
        server.deliver(event)
        return 200, shown, {}


def error_body(status: int) -> tuple[int, dict]:
    kind, title, detail = ERRORS[status]
    return status, {"type": kind, "title": title, "detail": detail, "status": status}


def routing_rows(number: str) -> list[dict]:
    if number not in BANKS:
        return []
    name, rails = BANKS[number]
    support = {rail: "supported" if rail in rails else "not_supported" for rail in KINDS.values()}
    return [{
        "type": "routing_number", "routing_number": number, "name": name,
        "real_time_payments_transfers": support["rtp"], "fednow_transfers": support["fednow"],
        "ach_transfers": support["ach"], "wire_transfers": support["wire"],
        "real_time_payments_request_for_payment": "not_supported",
    }]  # fmt: skip


def public(transfer: dict) -> dict:
    """A transfer as the API answers it (the fake's own bookkeeping left out)."""
    return {key: value for key, value in transfer.items() if key not in ("rail", "n")}
