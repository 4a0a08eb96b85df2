"""The sale by mail's one staff step before the label, from a lead's page: "ID verified — buy
the label". Both factors again recently (as for viewing the ID's photos), audited either way;
it opens the parcel for the quote's high end and queues the label's purchase, which buys one
label however often it is pressed."""

from __future__ import annotations

from flask import abort, current_app

from app import queue
from app.shipping import preparation
from app.staff.auth import record, require_recent_auth
from app.staff.mail_panel import BuyLabelForm
from app.staff.views import inbox

OUT_OF_DATE = "That form was out of date; nothing was changed."
QUEUED = (
    "ID verified and recorded with your name. The label is being bought: it appears on the "
    "seller's status page, and here, within a few minutes."
)


@require_recent_auth
def buy_label(lead_id: int):
    """Record the ID as verified and have the label bought; refused, nothing changed, until the
    seller's three parts are in, while the deal is not an accepted sale by mail, and when the
    address or ID photos are no longer those the page showed."""
    if not current_app.config["MAILIN_ENABLED"]:
        abort(404)
    inbox.lead_or_404(lead_id)
    form = BuyLabelForm(prefix="buy_label")
    if not form.validate():
        return inbox.back(lead_id, OUT_OF_DATE, "error")
    try:
        shipment_id = preparation.verify_id_and_open(lead_id, inbox.actor(), form.seen())
    except preparation.NotReady as error:
        record("mail_label_refused", lead_id, {"reason": str(error)[:200]})
        return inbox.back(lead_id, str(error), "error")
    record("mail_label_asked", lead_id, {"shipment": shipment_id})
    queue.enqueue(queue.BUY_LABEL, shipment_id)
    return inbox.back(lead_id, QUEUED)
