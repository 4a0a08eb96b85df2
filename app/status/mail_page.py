"""The sale by mail's section of the status page (status/_mail.html), and what it tells the
seller: once a mail deal's quote is accepted, the three steps before the label (the return
address, the ID, the shipping conditions); then the ID check; then the label to download and
where the parcel is. A watch above the policy's per-parcel limit gets no section: a plain
message that it is bought in person, and the appointment the in-person sale offers."""

from __future__ import annotations

from flask import current_app

from app.leads.display import usd
from app.leads.state import State
from app.rendering.dates import display_date
from app.rendering.layout import site_info
from app.sale.purchase.paperwork import US_STATES
from app.shipping import address_change, labels, pickups, preparation
from app.shipping.addresses import one_line
from app.shipping.shipment_state import ShipmentState
from app.status.paperwork_form import PHOTO_TYPES

# What the seller reads.
ADDRESS_CONFIRMED = "Thank you: your return address is confirmed."
ADDRESS_UNDELIVERABLE = (
    "The carrier's address check could not find this address ({problem}). Please check the "
    "street and number, the apartment or suite, the city and the ZIP code, then try again."
)
ADDRESS_SUGGESTED = (
    "The carrier's address check suggests a correction: please use the suggested address below, "
    "or correct yours and check it again."
)
ADDRESS_NOT_CHECKED = (
    "We could not check your address with the carrier just now. What you typed is kept: please "
    "try again in a few minutes, or call us on {phone}."
)
ID_GIVEN = "Thank you: we have your ID's photos. We check them before we buy your label."
CONDITIONS_ACCEPTED = "Thank you: you have agreed to the shipping conditions."
ALL_GIVEN = (
    "Thank you: we have everything we need. We check your ID, then buy your prepaid label, "
    "ready to download on this page, usually within one business day."
)
NOT_MAIL_STEP = (
    "This step is for a sale by mail after you have accepted our quote; your sale is not at "
    "that step now. Here is where it stands."
)
LABEL_NOT_FETCHED = (
    "We could not fetch your label from the carrier just now. Please try again in a few "
    "minutes, or call us on {phone}."
)
IN_PERSON = (
    "Thank you for accepting. A watch of this value is above the {limit} our shipping insurance "
    "covers per parcel, so we buy it in person instead: we will contact you to book an "
    "authentication appointment in one of our cities. Prefer to talk now? Call us on {phone}."
)
CHANGE_ASKED = (
    "We have e-mailed you a link to confirm the new return address. Your label stays as it is "
    "until you confirm it from that e-mail."
)
ADDRESS_CHANGED = (
    "Your old label no longer works. Your new label, from the address you confirmed, appears on "
    "your status page within a few minutes: please print that one."
)
# The page's "What happens now", for a sale by mail at each of its steps.
NEXT_TO_GIVE = (
    "Three steps before your prepaid label: confirm your return address, add your ID and agree "
    "to the shipping conditions, below. Nothing is shipped until we have checked your ID."
)
NEXT_ID_CHECK = (
    "We are checking your ID. Once it is checked we buy your prepaid label, insured for "
    "{insured}, and it appears here to download."
)
NEXT_BUYING = "Your ID is checked and we are buying your prepaid label: it appears here shortly."
NEXT_PRINT = (
    "Your prepaid label is ready: print it below, pack your watch as the conditions say and hand "
    "the parcel to a staffed counter of the carrier. Keep the receipt."
)
NEXT_ON_ITS_WAY = "Your parcel is on its way to us: follow it below. Keep the counter receipt."
# The parcel's box while its label is being bought, before it has steps to show (progress.py).
BUYING_LABEL = "We are buying your label."
LABEL_SIZES = {"4x6": "4 × 6 in label", "letter": "Letter paper"}


def words(text: str, **values) -> str:
    """One of the messages above with the site's phone and the policy's limit filled in."""
    limit = usd(current_app.config["MAILIN_MAX_VALUE"])
    return text.format(phone=site_info()["phone"], limit=limit, **values)


def section(lead: dict, events: list[dict], held: bool) -> dict | None:
    """The section's context, or None when the page shows none: not a mail deal, not yet, or
    a sale on hold (`held`) before its label, which no step would lead to."""
    if not preparation.is_mail_deal(lead) or lead["state"] not in (State.ACCEPTED,):
        return None
    if preparation.over_the_limit(events):
        return None if held else {"in_person": words(IN_PERSON), "next_step": words(IN_PERSON)}
    record = preparation.get(lead["id"], preparation.deal_of(events))
    shipment = labels.get(record["shipment_id"]) if record["shipment_id"] else None
    if held and shipment is None:
        return None
    typed = record["entered"] or record["address"] or {}
    insured = usd(preparation.quote_high(events) or 0)
    return {
        "in_person": None,
        "next_step": next_step(record, shipment, insured),
        "missing": preparation.missing(record),
        "address": one_line(record["address"]) if record["address"] else None,
        "address_name": (record["address"] or {}).get("name"),
        "suggestion": one_line(record["suggestion"]) if record["suggestion"] else None,
        "typed": typed,
        "id_given": bool(record["id_given_at"]),
        "conditions": preparation.CONDITIONS,
        "conditions_given": bool(record["conditions"]),
        "verified": bool(record["id_verified_at"]),
        "parcel": parcel_view(shipment) if shipment else None,
        "pickup": pickup_view(shipment) if shipment else None,
        "change_asked": address_change.pending(lead["id"], shipment) if shipment else False,
        "us_states": US_STATES,
        "photo_types": PHOTO_TYPES,
        "insured": insured,
    }


def next_step(record: dict, shipment: dict | None, insured: str) -> str:
    """What happens now, at this step of the sale by mail."""
    if shipment is None:
        return (
            NEXT_TO_GIVE if preparation.missing(record) else NEXT_ID_CHECK.format(insured=insured)
        )
    if shipment["state"] == ShipmentState.CREATED:
        return NEXT_BUYING
    return NEXT_PRINT if shipment["state"] == ShipmentState.LABEL_READY else NEXT_ON_ITS_WAY


def parcel_view(shipment: dict) -> dict:
    """The parcel as the seller sees it beside its steps: its tracking number, whether its
    label can be downloaded (until the carrier's first scan), and words while it is bought."""
    return {
        "state": BUYING_LABEL if shipment["state"] == ShipmentState.CREATED else "",
        "tracking_code": shipment["tracking_code"],
        "downloadable": shipment["state"] == ShipmentState.LABEL_READY,
        "sizes": LABEL_SIZES,
        "exception": bool(shipment["exception_status"]),
    }


def pickup_view(shipment: dict) -> dict | None:
    """The optional carrier pickup, while pickups are offered and the label waits for the
    carrier: the days to choose from, or the booking asked, booked or refused."""
    if not current_app.config["MAILIN_PICKUPS"] or shipment["state"] != ShipmentState.LABEL_READY:
        return None
    booking = pickups.latest(shipment["id"])
    shown = dict(booking or {}) | {"day_shown": display_date(booking["day"]) if booking else ""}
    return {
        "booking": shown if booking and booking["state"] != "cancelled" else None,
        "days": [
            (day.isoformat(), f"{day:%A}, {display_date(day.isoformat())}")
            for day in pickups.days_offered()
        ],  # fmt: skip
    }
