"""The sale by mail's steps on the status page (their URLs are app/status/routes.py's), each a
plain WTForms post answered by a redirect to the page, as the other seller actions are: the
return address (checked by the label provider; its suggestion accepted in one click), the ID's
photos, the shipping conditions; then the label's download; after the label, a new return
address only by the seller's confirmation from their mailbox (its link's page and button).

Every one of them is the one 404 unless the business sells by mail and the lead is a mail deal;
at another state than the accepted quote's, a clear refusal and nothing changed.
"""

from __future__ import annotations

from functools import partial

from flask import Response, abort, current_app, redirect

from app import queue
from app.leads import history
from app.leads.display import watch_name
from app.leads.state import State
from app.shipping import address_change, addresses, label_files, labels, preparation
from app.shipping.easypost_api import ProviderError
from app.shipping.shipment_state import ShipmentState
from app.status import mail_page, pages
from app.status.answers import done, lead_for, refuse, suggest
from app.status.forms import ConfirmLinkForm
from app.status.limits import (
    limit_seller_action,
    limit_seller_action_per_lead,
)
from app.status.mail_forms import ConditionsForm, MailIdForm, ReturnAddressForm, SuggestionForm

TYPED_LENGTH = 100  # what is kept of a refused line, so nothing typed is lost


def mail_deal(token: str) -> tuple[dict, list[dict]]:
    """The lead and its events for a mail step: the 404 unless it is a mail deal; else the
    refusal, as the view's answer (abort with it), unless its quote is accepted and within the
    policy's limit."""
    lead = lead_for(token)
    if not preparation.is_mail_deal(lead):
        abort(404)
    events = history.lead_events(lead["id"])
    if lead["state"] != State.ACCEPTED or preparation.over_the_limit(events):
        abort(refuse(token, mail_page.NOT_MAIL_STEP, 409))
    return lead, events


def after_step(token: str, lead: dict, events: list[dict], event_id: int | None, said: str):
    """A step taken: staff alerted of it; the page says so, or that everything is in."""
    if event_id is None:
        return done(token, said)
    queue.enqueue(queue.ALERT_STAFF, lead["id"], event_id)
    record = preparation.get(lead["id"], preparation.deal_of(events))
    return done(token, mail_page.ALL_GIVEN if not preparation.missing(record) else said)


def take_step(token: str, lead: dict, events: list[dict], step, said: str, refused: int = 409):
    """Record a step, `step(lead id, deal)` (its event's id, or None if nothing changed), then
    answer as after_step does; a step not open now is refused in its words (`refused`)."""
    try:
        event_id = step(lead["id"], preparation.deal_of(events))
    except preparation.NotReady as error:
        return refuse(token, str(error), refused)
    return after_step(token, lead, events, event_id, said)


@limit_seller_action
@limit_seller_action_per_lead
def return_address(token: str):
    """Check the return address with the provider: verified, it is on record; corrected, the
    suggestion is shown; not found, the provider's words. Typed lines are kept every time. After
    the label, a new address waits for the seller's confirmation by e-mail."""
    lead, events = mail_deal(token)
    deal, form = preparation.deal_of(events), ReturnAddressForm()
    record = preparation.get(lead["id"], deal)
    valid = form.validate()
    typed = {name: value[:TYPED_LENGTH] for name, value in form.typed().items()}
    try:
        if not valid:
            if not record["shipment_id"]:
                preparation.record_address(lead["id"], deal, typed, addresses.Checked("refused"))
            return refuse(token, form.first_error(), 422)
        checked = addresses.verify(typed)
    except preparation.NotReady as error:
        return refuse(token, str(error), 409)
    except ProviderError as error:
        current_app.logger.warning("Lead %s: address check failed: %s", lead["id"], error)
        if not record["shipment_id"]:
            preparation.record_address(lead["id"], deal, typed, addresses.Checked("unchecked"))
        return refuse(token, mail_page.words(mail_page.ADDRESS_NOT_CHECKED), 503)
    if record["shipment_id"]:
        return change_after_label(token, lead, record, checked)
    try:
        event_id = preparation.record_address(lead["id"], deal, typed, checked)
    except preparation.NotReady as error:
        return refuse(token, str(error), 409)
    if checked.outcome == addresses.UNDELIVERABLE:
        return refuse(
            token, mail_page.words(mail_page.ADDRESS_UNDELIVERABLE, problem=checked.problem), 422
        )
    if checked.outcome == addresses.SUGGESTED:
        return suggest(token, mail_page.ADDRESS_SUGGESTED)
    return after_step(token, lead, events, event_id, mail_page.ADDRESS_CONFIRMED)


def change_after_label(token: str, lead: dict, record: dict, checked: addresses.Checked):
    """A new return address once the label is bought: only a verified one, and only put aside
    until the seller confirms it from the e-mail sent to the address on file."""
    if checked.outcome != addresses.VERIFIED:
        problem = checked.problem or "it needs a correction"
        words = mail_page.words(mail_page.ADDRESS_UNDELIVERABLE, problem=problem)
        return refuse(token, words, 422)
    try:
        change_id = address_change.ask(lead["id"], labels.get(record["shipment_id"]), checked)
    except address_change.NotChangeable as error:
        return refuse(token, str(error), 409)
    queue.enqueue(queue.SEND_ADDRESS_CHECK, change_id)
    return done(token, mail_page.CHANGE_ASKED)


@limit_seller_action
@limit_seller_action_per_lead
def use_suggestion(token: str):
    """The provider's correction, accepted in one click as the return address."""
    lead, events = mail_deal(token)
    if not SuggestionForm().validate():
        return suggest(token, mail_page.ADDRESS_SUGGESTED)
    return take_step(
        token, lead, events, preparation.accept_suggestion, mail_page.ADDRESS_CONFIRMED
    )


@limit_seller_action
@limit_seller_action_per_lead
def give_id(token: str):
    """The two photos of the seller's ID, cleaned and stored sealed as the paperwork's are."""
    lead, events = mail_deal(token)
    form = MailIdForm()
    if not form.validate():
        return refuse(token, form.first_error(), 422)
    give = partial(preparation.give_id, photos=form.id_photos)
    return take_step(token, lead, events, give, mail_page.ID_GIVEN)


@limit_seller_action
@limit_seller_action_per_lead
def accept_conditions(token: str):
    """The shipping conditions, every one ticked."""
    lead, events = mail_deal(token)
    form = ConditionsForm()
    if not form.validate():
        return refuse(token, next(f.errors[0] for f in form if f.errors), 422)
    accept = partial(preparation.accept_conditions, ticked=form.ticked())
    return take_step(token, lead, events, accept, mail_page.CONDITIONS_ACCEPTED, refused=422)


@limit_seller_action
def label(token: str, size: str):
    """The label as a PDF download (4x6 or letter), fetched from the provider now: only the
    deal's parcel, only until the carrier's first scan; every download logged."""
    lead = lead_for(token)
    if not preparation.is_mail_deal(lead) or lead["state"] != State.ACCEPTED:
        abort(404)
    record = preparation.get(lead["id"], preparation.deal_of(history.lead_events(lead["id"])))
    shipment = labels.get(record["shipment_id"]) if record["shipment_id"] else None
    if shipment is None or shipment["state"] != ShipmentState.LABEL_READY:
        abort(404)
    try:
        data = label_files.label_pdf(shipment["provider_shipment_id"], size)
    except ProviderError as error:
        current_app.logger.warning("Lead %s: label not fetched: %s", lead["id"], error)
        return refuse(token, mail_page.words(mail_page.LABEL_NOT_FETCHED), 503)
    current_app.logger.info("Lead %s: %s label downloaded from the status page.", lead["id"], size)
    disposition = f'attachment; filename="label-{lead["reference"]}-{size}.pdf"'
    return Response(
        data,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": disposition,
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )


# The link e-mailed to confirm a new return address: opening it changes nothing; only its
# button's post does, once. Every link that cannot be used gets one refusal page.


def address_confirmation(code: str):
    """The new address to confirm, and the button; opening the link changes nothing."""
    lead = address_change.lead_for_link(code)
    if lead is None:
        return pages.address_refused()
    return pages.address_page(
        lead=lead, watch=watch_name(lead), new_address=addresses.one_line(lead["new_address"])
    )


def confirm_address(code: str):
    """Confirm the new address, once: the old label voided, a new one bought by the job."""
    confirmed = address_change.confirm(code) if ConfirmLinkForm().validate() else None
    if confirmed is None:
        return pages.address_refused()
    lead_id, shipment_id = confirmed
    current_app.logger.info("Lead %s: the seller confirmed a new return address.", lead_id)
    queue.enqueue(queue.BUY_LABEL, shipment_id)
    return redirect("/status/address-confirmed", code=303)


def address_confirmed():
    """After confirming: what happens now (the same page for anyone; it names nobody)."""
    return pages.address_page(
        done_heading="Your new address is confirmed", done=mail_page.ADDRESS_CHANGED
    )
