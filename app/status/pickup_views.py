"""The optional carrier pickup on the status page (app/shipping/pickups.py; its URLs are
app/status/routes.py's): the day asked for, and a booked pickup called off, each a plain form
posted and answered by a redirect like the page's other steps. Both are the one 404 unless the
business offers pickups and the lead is a mail deal whose label is ready."""

from __future__ import annotations

from datetime import date

from flask import abort, current_app

from app.rendering.dates import display_date
from app.shipping import labels, pickups, preparation
from app.shipping.easypost_api import ProviderError
from app.status import mail_page
from app.status.answers import done, refuse
from app.status.limits import limit_seller_action, limit_seller_action_per_lead
from app.status.mail_forms import CancelPickupForm, PickupForm
from app.status.mail_views import mail_deal

ASKED = (
    "Thank you: we are booking the carrier's pickup for {day}. This page shows when it is booked."
)
NOT_A_DAY = "Please choose one of the days offered."
CANCELLED = "Your pickup is cancelled. Choose another day, or take the parcel to a staffed counter."
NOT_CANCELLED = (
    "The carrier did not cancel the pickup just now. Please try again in a few minutes, or call "
    "us on {phone}."
)


def labelled_parcel(token: str) -> tuple[dict, dict]:
    """The lead and its labelled parcel: the 404 unless pickups are offered and there is one
    (a mail step's refusal, as mail_deal answers it)."""
    if not current_app.config["MAILIN_PICKUPS"]:
        abort(404)
    lead, events = mail_deal(token)
    record = preparation.get(lead["id"], preparation.deal_of(events))
    if not record["shipment_id"]:
        abort(404)
    return lead, labels.get(record["shipment_id"])


@limit_seller_action
@limit_seller_action_per_lead
def ask_pickup(token: str):
    """Ask for a pickup on the day chosen; the job books it."""
    _, shipment = labelled_parcel(token)
    form = PickupForm()
    if not form.validate():
        return refuse(token, form.day.errors[0], 422)
    try:
        pickups.ask(shipment, date.fromisoformat(form.day.data))
    except ValueError as error:  # PickupRefused says why; a date that is no date, the form's words
        said = str(error) if isinstance(error, pickups.PickupRefused) else NOT_A_DAY
        return refuse(token, said, 409)
    return done(token, ASKED.format(day=display_date(form.day.data)))


@limit_seller_action
@limit_seller_action_per_lead
def cancel_pickup(token: str):
    """Call the booked pickup off (the carrier first)."""
    lead, shipment = labelled_parcel(token)
    if not CancelPickupForm().validate():
        abort(400)
    try:
        pickups.cancel(shipment)
    except pickups.PickupRefused as error:
        return refuse(token, str(error), 409)
    except ProviderError as error:
        current_app.logger.warning("Lead %s: pickup not cancelled: %s", lead["id"], error)
        return refuse(token, mail_page.words(NOT_CANCELLED), 502)
    return done(token, CANCELLED)
