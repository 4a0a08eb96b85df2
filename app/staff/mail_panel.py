"""The lead page's panel of the sale by mail, before its parcel moves: the seller's three parts
(the return address as the label provider verified it, the ID's photos, behind
re-authentication as the paperwork's are, the shipping conditions) and, once all are in, the
button that records the ID as verified and has the label bought; then the parcel's state and
tracking number. Only for a mail deal while MAILIN_ENABLED is on."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import InputRequired

from app.leads import history
from app.leads.display import usd
from app.shipping import addresses, labels, preparation


class BuyLabelForm(FlaskForm):
    """The "ID verified — buy the label" button: nothing to fill in, but it carries what the
    page showed (the return address's id, the ID photos' ids), so the check holds only for
    them (preparation.Seen)."""

    address_id = HiddenField(validators=[InputRequired()])
    id_photos = HiddenField(validators=[InputRequired()])

    def seen(self) -> preparation.Seen:
        """What the page showed staff, as posted."""
        return preparation.Seen(self.address_id.data, tuple(self.id_photos.data.split()))


def panel(lead: dict) -> dict | None:
    """The panel's context, or None when the lead is no mail deal."""
    if not preparation.is_mail_deal(lead):
        return None
    events = history.lead_events(lead["id"])
    record = preparation.get(lead["id"], preparation.deal_of(events))
    seen = preparation.seen_now(lead["id"], record)
    shipment = labels.get(record["shipment_id"]) if record["shipment_id"] else None
    return {
        "deal": record["deal_event_id"],
        "over_limit": preparation.over_the_limit(events),
        "insured": usd(preparation.quote_high(events) or 0),
        "address": addresses.one_line(record["address"]) if record["address"] else None,
        "id_photos": preparation.id_photos_of(lead["id"], record),
        "conditions": bool(record["conditions"]),
        "missing": preparation.missing(record),
        "verified_by": record["id_verified_by"],
        "shipment": shipment,
        "form": BuyLabelForm(
            prefix="buy_label",
            formdata=None,
            data={"address_id": seen.address_id, "id_photos": " ".join(seen.id_photos)},
        ),
    }
