"""The rail of each payout, from the seller's routing number before anything is sent: instant
where their bank takes it (Real-Time Payments, else FedNow), otherwise same-day ACH, or a wire
above PAYOUT_WIRE_ABOVE when the business wants one. Staff read the rail before they ask; the
seller reads it once the payment is asked for, in the words here."""

from __future__ import annotations

from flask import current_app

from app.payouts.increase_api import Routing

INSTANT = ("rtp", "fednow")
# How staff and sellers read each rail.
WORDS = {
    "rtp": "instant transfer",
    "fednow": "instant transfer",
    "ach": "same-day ACH transfer",
    "wire": "wire transfer",
}
# ... and how the staff page names the network, beside the words.
NETWORKS = {"rtp": "RTP", "fednow": "FedNow", "ach": "ACH", "wire": "Fedwire"}


def choose(routing: Routing, amount_cents: int) -> str | None:
    """The rail to pay `amount_cents` on to an account at this bank; None if it takes none the
    business pays by."""
    for rail in INSTANT:
        if rail in routing.rails:
            return rail
    wire_above = current_app.config["PAYOUT_WIRE_ABOVE"] * 100
    if wire_above and amount_cents > wire_above and "wire" in routing.rails:
        return "wire"
    return "ach" if "ach" in routing.rails else None


def staff_words(rail: str) -> str:
    """'instant transfer (RTP)': the rail as the staff page names it."""
    return f"{WORDS[rail]} ({NETWORKS[rail]})"


def is_instant(rail: str | None) -> bool:
    """Whether a rail pays within seconds, at any hour."""
    return rail in INSTANT
