"""What a seller's e-mails say where it depends on how the sale goes (worker/seller_mail.py
asks here): by insured mail, with no appointment and the authentication of the watch we
received, or in person (a mail deal whose quote is above MAILIN_MAX_VALUE is bought in person,
and reads so); and a sale on hold pending checks, once staff chose to tell its seller, whose
e-mails never say why."""

from __future__ import annotations

from flask import current_app

from app.leads import history
from app.leads.display import usd, watch_name
from app.sale.purchase import payment
from app.shipping import preparation, returns

IN_PERSON_NEXT = (
    "If you accept the quote, a certified watchmaker authenticates the watch at an "
    "appointment, or by insured collection within 50 miles of the cities we cover, and we make "
    "our final offer. There are no fees for the valuation, and you are under no obligation to "
    "sell."
)
MAIL_NEXT = (
    "If you accept the quote, you confirm your return address and ID on your status page, and "
    "we send you a prepaid label, insured under our own shipping policy. Once your watch has "
    "reached us and been opened on record, a certified watchmaker authenticates it and we make "
    "our final offer. There are no fees for the valuation, and you are under no obligation to "
    "sell."
)
QUOTE_IN_PERSON = (
    "The final offer follows an in-person authentication by a certified watchmaker, at an "
    "appointment or, within 50 miles of the cities we cover, by insured collection. There are "
    "no fees for the valuation."
)
QUOTE_BY_MAIL = (
    "If you accept it on your status page, you confirm your return address and ID there and we "
    "send you a prepaid, insured label. The final offer follows the authentication of your "
    "watch by a certified watchmaker once it has reached us. There are no fees for the "
    "valuation."
)
OVER_THE_LIMIT = (
    "A watch of this value is above the {limit} our shipping insurance covers per parcel, so we "
    "buy it in person rather than by mail."
)
BEFORE_PAYMENT = (
    "Once you have signed, we complete our checks of your ID and the watch, then pay you "
    "{by_transfer} and e-mail you when the payment is sent."
)
ON_HOLD = "Your sale is on hold pending checks. We will contact you."
ON_HOLD_PAYMENT = "Your sale is on hold pending checks: we will contact you before any payment."


def confirmation_next(lead: dict) -> str:
    """What follows the quote, as the confirmation e-mail says it."""
    return MAIL_NEXT if preparation.goes_by_mail(lead) else IN_PERSON_NEXT


def quote_next(lead: dict, data: dict) -> list[str]:
    """How the final offer follows the quote: by mail, or in person (saying why for a mail deal
    whose quote is above the policy's per-parcel limit)."""
    high = int(data["amount_high"])
    if preparation.goes_by_mail(lead, high):
        return [QUOTE_BY_MAIL]
    if preparation.is_mail_deal(lead):
        limit = usd(current_app.config["MAILIN_MAX_VALUE"])
        return [OVER_THE_LIMIT.format(limit=limit), QUOTE_IN_PERSON]
    return [QUOTE_IN_PERSON]


def offer_opening(lead: dict) -> str:
    """How the final offer's e-mail names the authentication: of the watch we received, for a
    sale by mail."""
    if preparation.goes_by_mail(lead, preparation.quote_high(history.lead_events(lead["id"]))):
        return f"Your {watch_name(lead)}, received by insured mail, has been authenticated."
    return f"Your {watch_name(lead)} has been authenticated."


def before_payment(lead: dict) -> str:
    """What happens between the signature and the payment; for a sale on hold, only that."""
    if returns.on_hold(lead["id"]):
        return ON_HOLD_PAYMENT
    return BEFORE_PAYMENT.format(by_transfer=payment.transfer_words())


def on_hold(lead: dict) -> bool:
    """Whether the seller is told the sale is on hold pending checks (held for its checks, and
    a staff member chose to tell them): its e-mails then say only that; until then they read as
    any sale's."""
    return returns.on_hold(lead["id"])


def sendable(lead: dict, data: dict) -> dict:
    """A state change's data as the seller's e-mail may use it: for a sale held for its checks,
    told or not, without staff's own words, which could say why (the seller cannot tell a
    message left out from none written)."""
    if not returns.held_for_checks(lead["id"]):
        return data
    return {key: value for key, value in data.items() if key != "message"}
