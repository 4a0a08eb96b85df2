"""The lead page's panel of the sale by mail, before its parcel moves: the seller's three parts
(the return address as the label provider verified it, the ID's photos, behind
re-authentication as the paperwork's are, the shipping conditions) and, once all are in, the
button that records the ID as verified and has the label bought; then the parcel's state and
tracking number. Only for a mail deal while MAILIN_ENABLED is on."""

from __future__ import annotations

from flask_wtf import FlaskForm

from app.leads import history
from app.leads.display import usd
from app.sale.purchase import files
from app.shipping import addresses, labels, preparation


class BuyLabelForm(FlaskForm):
    """The "ID verified — buy the label" button: nothing to fill in but its CSRF token."""


def panel(lead: dict) -> dict | None:
    """The panel's context, or None when the lead is no mail deal."""
    if not preparation.is_mail_deal(lead):
        return None
    events = history.lead_events(lead["id"])
    record = preparation.get(lead["id"], preparation.deal_of(events))
    photos = files.files_of(lead["id"], files.ID_PHOTOS) if record["id_given_at"] else []
    latest = {row["kind"]: row for row in photos}
    shipment = labels.get(record["shipment_id"]) if record["shipment_id"] else None
    return {
        "deal": record["deal_event_id"],
        "over_limit": preparation.over_the_limit(events),
        "insured": usd(preparation.quote_high(events) or 0),
        "address": addresses.one_line(record["address"]) if record["address"] else None,
        "id_photos": [latest[kind] for kind in files.ID_PHOTOS if kind in latest],
        "conditions": bool(record["conditions"]),
        "missing": preparation.missing(record),
        "verified_by": record["id_verified_by"],
        "shipment": shipment,
        "form": BuyLabelForm(prefix="buy_label"),
    }
