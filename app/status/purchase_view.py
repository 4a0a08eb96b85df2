"""What the seller's status page shows of the purchase on record: the final offer and what it
rests on, the paperwork to sign or signed, and once paid the payment and the documents. Read
by the page (app/status/pages.py) and by the purchase's own views (app/status/views.py);
nothing here shows more of an ID or bank number, or of the serial number, than its last 4
characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from app.leads.display import business_today, local_time, quote_amount, usd, watch_name
from app.leads.history import latest_change, latest_change_id
from app.leads.state import State
from app.payouts import seller_words
from app.rendering.dates import display_date
from app.sale.purchase import files, paperwork, payment, record
from app.status import messages

# The documents a seller downloads, by the name in their address.
DOCUMENTS = {"bill-of-sale": "bill_of_sale", "receipt": "receipt"}
DOCUMENT_TITLES = {"bill-of-sale": "Bill of sale", "receipt": "Receipt"}


@dataclass
class FinalOffer:
    """The final offer as the seller reads it, with the preliminary quote beside it and each
    difference explained when they differ."""

    amount: str
    valid_until: str
    expired: bool
    findings: list[tuple[str, str]]
    shown: int  # the offer's event id, which the answer names
    quote: str = ""
    differences: list[dict] = field(default_factory=list)


def ending(value: str | None) -> str:
    """A number shown only by its last 4 characters: 'ending 6789'."""
    return f"ending {(value or '')[-4:]}"


def has_expired(change: dict | None) -> bool:
    """Whether a quote or offer is missing or past its valid-until date."""
    return change is None or date.fromisoformat(change["valid_until"]) < business_today()


def quote_expired(events: list[dict]) -> bool:
    """Whether the latest preliminary quote is missing or past its valid-until date."""
    return has_expired(latest_change(events, State.QUOTED))


def offer_expired(events: list[dict]) -> bool:
    """Whether the latest final offer is missing or past its valid-until date."""
    return has_expired(latest_change(events, State.OFFERED))


def findings(purchase: dict | None) -> list[tuple[str, str]]:
    """What the authentication found, as far as it is on record (the serial by its end)."""
    purchase = purchase or {}
    facts = [
        ("Model reference", purchase.get("model_reference")),
        ("Serial number", purchase.get("serial_number") and ending(purchase["serial_number"])),
        ("Case", purchase.get("case_marks")),
        ("Movement", purchase.get("movement_marks")),
        ("Condition", purchase.get("condition_findings")),
    ]
    return [(label, value) for label, value in facts if value]


def differs(offer: dict, quote: dict) -> bool:
    """Whether the final offer differs from the preliminary quote: reasons are given, or the
    amount is outside the quote's range."""
    low, high = int(quote["amount_low"]), int(quote["amount_high"])
    return bool(offer.get("differences")) or not low <= int(offer["amount"]) <= high


def final_offer(events: list[dict], purchase: dict | None) -> FinalOffer | None:
    """The latest final offer, or None if there is none."""
    offer, quote = latest_change(events, State.OFFERED), latest_change(events, State.QUOTED)
    if offer is None:
        return None
    shown = FinalOffer(
        amount=usd(offer["amount"]),
        valid_until=display_date(offer["valid_until"]),
        expired=has_expired(offer),
        findings=findings(purchase),
        shown=latest_change_id(events, State.OFFERED),
    )
    if quote and differs(offer, quote):
        shown.quote = quote_amount(quote)
        shown.differences = offer.get("differences") or []
    return shown


def signed_summary(purchase: dict) -> dict:
    """The signed paperwork as the page may show it back: when, and the ID and the bank
    account by their last 4 characters."""
    return {
        "signed_at": local_time(purchase["signed_at"]),
        "id_type": paperwork.ID_TYPES.get(purchase["id_type"], "Photo ID"),
        "id_ending": ending(purchase["id_number_last4"]),
        "account_ending": ending(purchase["account_number_last4"]),
    }


def is_signed(purchase: dict | None) -> bool:
    """Whether the seller's paperwork is on record."""
    return bool(purchase and purchase.get("signed_at"))


def paperwork_refusal(lead: dict) -> str | None:
    """Why the paperwork cannot be signed now, or None while the lead waits for it."""
    if lead["state"] != State.AGREED:
        return messages.NO_PAPERWORK_NOW
    return messages.ALREADY_SIGNED if is_signed(record.get(lead["id"])) else None


def documents(lead_id: int) -> list[dict] | None:
    """Each document's title and address name, or None while either is still being made."""
    if any(files.latest(lead_id, kind) is None for kind in DOCUMENTS.values()):
        return None
    return [{"name": name, "title": DOCUMENT_TITLES[name]} for name in DOCUMENTS]


def payment_sent(lead: dict, purchase: dict | None) -> dict | None:
    """A bought lead's payment in the words and facts of the "paid" e-mail (payment.py):
    the amount, how and on which day it was sent, and the bank's confirmation number."""
    paid = payment.as_paid(purchase or {})
    if paid is None:
        return None
    return {
        "words": payment.sent_words(paid, watch_name(lead)),
        "facts": payment.sent_facts(paid),
        "trace": messages.PAYMENT_TRACE,
    }


def signed_next_step(lead: dict) -> str:
    """What happens now, once the paperwork is signed: the payout's progress while the bank's
    API sends it, else the checks and the payment to come."""
    sending = seller_words.progress(lead["id"])
    return sending or messages.PAPERWORK_SIGNED_NEXT.format(by_transfer=payment.transfer_words())


def view(lead: dict, events: list[dict]) -> dict:
    """The purchase's part of the status page, for the lead's state."""
    state, purchase = lead["state"], record.get(lead["id"])
    signed = state == State.AGREED and is_signed(purchase)
    return {
        "offer": final_offer(events, purchase) if state == State.OFFERED else None,
        "paperwork_due": state == State.AGREED and not signed,
        "signed": signed_summary(purchase) if signed else None,
        "next_step": signed_next_step(lead) if signed else "",
        "bought": state == State.BOUGHT,
        "payment": payment_sent(lead, purchase) if state == State.BOUGHT else None,
        "returned": seller_words.progress(lead["id"]) if state == State.BOUGHT else None,
        "documents": documents(lead["id"]) if state == State.BOUGHT else None,
    }
