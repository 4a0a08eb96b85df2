"""The business's bank API, Increase, through its own library: one client per app, its base URL a
setting (INCREASE_API_BASE: the tests point it at a local fake), and the few calls a payout
makes: which rails a routing number takes, a transfer created needing approval (under an
idempotency key), read, approved or cancelled, and the bank's events verified.

The one module another bank's API would replace: what it hands back is plain data in the
payouts' own words (`Routing`, `Transfer`, a stage from STAGES), never the library's objects,
and the seller's account number, which the bank echoes in every transfer it answers with, never
leaves it (nor does it appear in a refusal's words). Every refusal or failure comes back as
BankError with the bank's own words; none is retried here (the jobs are).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from flask import current_app
from increase import APIError, APIStatusError, Increase
from standardwebhooks.webhooks import WebhookVerificationError

RAILS = ("rtp", "fednow", "ach", "wire")
# What the routing-number data calls each rail's support.
SUPPORT = {
    "rtp": "real_time_payments_transfers",
    "fednow": "fednow_transfers",
    "ach": "ach_transfers",
    "wire": "wire_transfers",
}
# Where a transfer stands, in the payouts' words: waiting for its approval, on its way, paid
# (complete; an ACH transfer once submitted), refused by the bank or the network, cancelled,
# or returned after it was paid.
STAGES = ("waiting", "sending", "paid", "rejected", "canceled", "returned")
# Each rail's statuses that are not "on its way".
STAGE_OF_STATUS = {
    "rtp": {"pending_approval": "waiting", "complete": "paid", "rejected": "rejected",
            "canceled": "canceled"},
    "fednow": {"pending_approval": "waiting", "complete": "paid", "rejected": "rejected",
               "canceled": "canceled", "returned": "returned"},
    "ach": {"pending_approval": "waiting", "submitted": "paid", "rejected": "rejected",
            "canceled": "canceled", "returned": "returned"},
    "wire": {"pending_approval": "waiting", "complete": "paid", "rejected": "rejected",
             "canceled": "canceled", "reversed": "returned"},
}  # fmt: skip


class BankError(RuntimeError):
    """The bank refused or failed a request; `status` is its HTTP status, if it answered."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class Unverified(ValueError):
    """A webhook's body that no configured secret signed (or signed too long ago)."""


class NotAnEvent(ValueError):
    """A signed webhook body that is not an event the payouts can read."""


@dataclass(frozen=True)
class Routing:
    """A routing number as the bank's data knows it: the bank's name and the rails it takes."""

    bank: str
    rails: frozenset[str]


@dataclass(frozen=True)
class Order:
    """What a transfer pays: the amount in cents, the seller's account, whom it names, and the
    words on the seller's statement."""

    amount_cents: int
    routing_number: str
    account_number: str
    creditor_name: str
    debtor_name: str
    note: str


@dataclass(frozen=True)
class Transfer:
    """A transfer as the bank holds it now: its id, amount in cents, stage (STAGES) and the
    bank's own status, the network's reference once sent, when it was paid, the bank's reason
    for a refusal or a return, and whether the bank expects it to reach the seller's bank only
    on a later day (an ACH transfer submitted after the day's last same-day cut-off)."""

    id: str
    rail: str
    amount_cents: int
    stage: str
    status: str
    reference: str | None
    paid_at: str | None
    reason: str | None
    settles_later: bool = False


def client() -> Increase:
    """This app's Increase client (made once per app), retrying nothing itself."""
    made = current_app.extensions.get("increase")
    if made is None:
        # The library's own debug log dumps each request, the seller's account number with it,
        # and httpx's names each URL, a routing number's lookup with it: neither logs below a
        # warning, whatever INCREASE_LOG or a logging set-up says.
        for name in ("increase", "httpx"):
            logging.getLogger(name).setLevel(logging.WARNING)
        config = current_app.config
        made = Increase(
            api_key=config["INCREASE_API_KEY"],
            base_url=config["INCREASE_API_BASE"].rstrip("/"),
            timeout=config["INCREASE_TIMEOUT"],
            max_retries=0,
        )
        current_app.extensions["increase"] = made
    return made


def resource(rail: str):
    """The library's transfers of one rail."""
    made = client()
    return {
        "rtp": made.real_time_payments_transfers,
        "fednow": made.fednow_transfers,
        "ach": made.ach_transfers,
        "wire": made.wire_transfers,
    }[rail]


def call(what: str, request, *args, secrets: tuple[str, ...] = (), **params) -> dict:
    """One request to the bank, its answer as plain data; BankError naming `what`, with any of
    `secrets` (the seller's numbers) blanked out of the bank's words."""
    try:
        return request(*args, **params).to_dict(mode="json", warnings=False)
    except APIError as error:
        status = error.status_code if isinstance(error, APIStatusError) else None
        words = bank_words(error)
        for secret in filter(None, secrets):
            words = words.replace(secret, "[the seller's number]")
        raise BankError(f"could not {what}: {words}", status) from error


def bank_words(error: APIError) -> str:
    """The bank's own words for a refusal: its title and detail, else the library's message."""
    body = error.body if isinstance(error.body, dict) else {}
    words = [str(body[key]) for key in ("title", "detail") if body.get(key)]
    return ": ".join(words) or str(error.message or error)


def routing(routing_number: str) -> Routing | None:
    """The bank and rails of a routing number; None if the bank's data does not know it."""
    found = call("look up the routing number", client().routing_numbers.list,
                 routing_number=routing_number, timeout=10)  # fmt: skip
    rows = found.get("data") or []
    if not rows:
        return None
    row = rows[0]
    rails = frozenset(rail for rail in RAILS if row.get(SUPPORT[rail]) == "supported")
    return Routing(bank=str(row.get("name") or ""), rails=rails)


def source_account_id() -> str:
    """The account behind INCREASE_ACCOUNT_NUMBER_ID, which ACH and wire transfers name."""
    known = current_app.extensions.get("increase_account_id")
    if known is None:
        number = call("read the business's account number", client().account_numbers.retrieve,
                      current_app.config["INCREASE_ACCOUNT_NUMBER_ID"])  # fmt: skip
        known = current_app.extensions["increase_account_id"] = number["account_id"]
    return known


def create_transfer(rail: str, order: Order, key: str) -> Transfer:
    """The transfer of `order` on `rail`, created needing approval under the idempotency key
    `key`: a second request with the same key is answered with the same transfer."""
    source = current_app.config["INCREASE_ACCOUNT_NUMBER_ID"]
    common = {
        "amount": order.amount_cents,
        "account_number": order.account_number,
        "routing_number": order.routing_number,
        "require_approval": True,
        "idempotency_key": key,
    }
    by_rail = {
        "rtp": lambda: {"creditor_name": order.creditor_name, "source_account_number_id": source,
                        "unstructured_remittance_information": order.note},
        "fednow": lambda: {"creditor_name": order.creditor_name, "debtor_name": order.debtor_name,
                           "source_account_number_id": source,
                           "unstructured_remittance_information": order.note},
        "ach": lambda: {"account_id": source_account_id(), "statement_descriptor": order.note,
                        "individual_name": order.creditor_name,
                        "destination_account_holder": "individual",
                        "standard_entry_class_code": "prearranged_payments_and_deposit",
                        "preferred_effective_date": {"settlement_schedule": "same_day"}},
        "wire": lambda: {"account_id": source_account_id(), "source_account_number_id": source,
                         "creditor": {"name": order.creditor_name},
                         "remittance": {"category": "unstructured",
                                        "unstructured": {"message": order.note}}},
    }  # fmt: skip
    secrets = (order.account_number, order.routing_number)
    made = call("create the transfer", resource(rail).create, secrets=secrets,
                **common, **by_rail[rail]())  # fmt: skip
    return transfer_of(rail, made)


def retrieve_transfer(rail: str, transfer_id: str) -> Transfer:
    """A transfer as the bank holds it now."""
    return transfer_of(rail, call("read the transfer", resource(rail).retrieve, transfer_id))


def approve_transfer(rail: str, transfer_id: str) -> Transfer:
    """Release a transfer that waits for approval: the bank sends it."""
    return transfer_of(rail, call("approve the transfer", resource(rail).approve, transfer_id))


def cancel_transfer(rail: str, transfer_id: str) -> Transfer:
    """Call off a transfer that still waits for approval."""
    return transfer_of(rail, call("cancel the transfer", resource(rail).cancel, transfer_id))


def transfer_of(rail: str, answer: dict) -> Transfer:
    """The bank's answer in the payouts' words (its account number left behind)."""
    status = str(answer.get("status") or "")
    submission = answer.get("submission") or {}
    acknowledged = (answer.get("acknowledgement") or {}).get("acknowledged_at")
    reference = {
        "rtp": submission.get("transaction_identification"),
        "fednow": submission.get("message_identification"),
        "ach": submission.get("trace_number"),
        "wire": submission.get("input_message_accountability_data"),
    }[rail]
    return Transfer(
        id=str(answer["id"]),
        rail=rail,
        amount_cents=int(answer["amount"]),
        stage=STAGE_OF_STATUS[rail].get(status, "sending"),
        status=status,
        reference=str(reference) if reference else None,
        paid_at=acknowledged or submission.get("submitted_at"),
        reason=reason_of(answer, status),
        settles_later=submission.get("expected_settlement_schedule") == "future_dated",
    )


def reason_of(answer: dict, status: str) -> str | None:
    """The bank's reason for a refusal, a return or a reversal, in its own words."""
    rejection = answer.get("rejection") or {}
    returned = answer.get("return") or (answer.get("returns") or [{}])[-1]
    reversal = answer.get("reversal") or {}
    words = (
        rejection.get("reject_reason_additional_information")
        or rejection.get("reject_reason_code")
        or returned.get("return_reason_code")
        or reversal.get("description")
    )
    if words:
        return str(words).replace("_", " ")
    return status.replace("_", " ") if status in ("rejected", "canceled", "returned") else None


def verified_event(body: bytes, headers) -> dict:
    """The event the body holds, if INCREASE_WEBHOOK_SECRET or, during a rotation, its previous
    one signed it within the last minutes (the library's helper, Standard Webhooks): its id,
    category and the object it is about. Unverified for a body no secret signed, or signed too
    long ago; NotAnEvent for a signed body that is not an event."""
    config = current_app.config
    secrets = [config["INCREASE_WEBHOOK_SECRET"], config["INCREASE_WEBHOOK_SECRET_PREVIOUS"]]
    try:
        text = body.decode()
    except UnicodeDecodeError:
        raise Unverified("The body is not text.") from None
    for secret in filter(None, secrets):
        try:
            event = client().events.unwrap(text, headers=dict(headers), key=secret.encode())
        except (json.JSONDecodeError, RecursionError):
            raise NotAnEvent("The body is not JSON.") from None
        except (WebhookVerificationError, ValueError):
            continue
        if hasattr(event, "to_dict"):  # the library makes an object of a JSON object only
            event = event.to_dict(mode="json", warnings=False)
        return event_fields(event)
    raise Unverified("The signature is missing, does not match, or is too old.")


def event_fields(event) -> dict:
    """What the payouts read of an event: its id, category and the object it is about."""
    if not isinstance(event, dict) or not all(
        isinstance(event.get(key), str) for key in ("id", "category")
    ):
        raise NotAnEvent("The event has no id or category.")
    about = event.get("associated_object_id")
    return {
        "id": event["id"],
        "category": event["category"],
        "object_id": about if isinstance(about, str) else None,
    }
