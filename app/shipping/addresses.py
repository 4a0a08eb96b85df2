"""A seller's return address, checked by the label provider's address verification before any
label names it: delivered to as typed (verified), delivered to once corrected (the provider's
correction offered to the seller as a suggestion), or not deliverable at all (the provider's
words, and nothing stored with the provider for a label). The verified address stays with the
provider under its id, the parcel's from_address_id; we keep the lines the seller is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.shipping import easypost_api

# The lines of a return address, as the provider names them.
FIELDS = ("name", "street1", "street2", "city", "state", "zip", "phone")
# The lines compared to tell a correction from the same address written the provider's way
# (capitals, abbreviations aside, ZIP+4 added): a change in any of them is a suggestion.
COMPARED = ("street1", "street2", "city", "state")
VERIFIED, SUGGESTED, UNDELIVERABLE = "verified", "suggested", "undeliverable"


@dataclass(frozen=True)
class Checked:
    """What the provider said of an address: `outcome` (verified, suggested, undeliverable),
    the address as it has it and its id (none when undeliverable), and its words if refused."""

    outcome: str
    address: dict = field(default_factory=dict)
    address_id: str | None = None
    problem: str = ""


def plain(value: str | None) -> str:
    """A line as compared: capitals, letters and digits only."""
    return re.sub(r"[^A-Z0-9]", "", (value or "").upper())


def same_place(typed: dict, found: dict) -> bool:
    """Whether the provider's address is the one typed, but for how it is written."""
    if plain(typed.get("zip"))[:5] != plain(found.get("zip"))[:5]:
        return False
    return all(plain(typed.get(name)) == plain(found.get(name)) for name in COMPARED)


def lines_of(answer: dict, typed: dict) -> dict:
    """The address's lines as the provider holds them (the name and phone as typed when it
    gives none back)."""
    return {name: answer.get(name) or typed.get(name) or "" for name in FIELDS}


def verify(typed: dict) -> Checked:
    """Ask the provider to verify a US address (the lines of FIELDS); ProviderError if it
    refused the request or failed (the seller may try again: nothing is stored)."""
    answer = easypost_api.call(
        "check the address",
        easypost_api.client().address.create,
        verify=True,
        country="US",
        **{name: typed.get(name) or "" for name in FIELDS},
    )
    delivery = (answer.get("verifications") or {}).get("delivery") or {}
    if not delivery.get("success"):
        words = "; ".join(
            error.get("message", "") for error in delivery.get("errors") or () if error
        )
        return Checked(UNDELIVERABLE, problem=words or "the address was not found")
    outcome = VERIFIED if same_place(typed, answer) else SUGGESTED
    return Checked(outcome, lines_of(answer, typed), answer["id"])


def one_line(address: dict) -> str:
    """An address on one line, as the page shows a suggestion: "12 MAIN ST, APT 2, BOISE, ID
    83702"."""
    place = " ".join(part for part in (address.get("state"), address.get("zip")) if part)
    parts = (address.get("street1"), address.get("street2"), address.get("city"), place)
    return ", ".join(part for part in parts if part)
