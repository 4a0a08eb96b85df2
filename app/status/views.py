"""The seller's pages (their URLs are app/status/routes.py's): the status page and its appointment
download; the seller's own actions (answer a preliminary quote or the final offer, ask a
question, add photos, withdraw, after a sale ask to have their details deleted); the documents
once paid (the sale paperwork's views are paperwork_views.py); the lost-link form; and the
erasure link e-mailed to confirm a deletion. Each post is a plain form read by WTForms
(app/status/forms.py) and answered by a redirect to the page (app/status/answers.py), so nothing
needs JavaScript; the photo island asks for JSON and follows the same redirect.
"""

from __future__ import annotations

from flask import Response, abort, current_app, flash, redirect, request

from app import queue
from app.leads import history, links, store
from app.leads.db import get_db
from app.leads.display import appointment_start, usd, watch_name
from app.leads.state import State
from app.photos import intake
from app.photos import messages as photo_messages
from app.photos.forms import AddPhotosForm, chosen_files
from app.sale import erasure, keeping, lifecycle
from app.sale.invitation import invitation
from app.sale.purchase import files, payout
from app.sale.purchase.paperwork import agreed_price
from app.shipping import preparation
from app.status import messages, pages, purchase_view
from app.status.answers import done, lead_for, refuse
from app.status.forms import (
    AnswerForm,
    ConfirmLinkForm,
    EraseRequestForm,
    LostLinkForm,
    PayoutAnswerForm,
    QuestionForm,
    WithdrawForm,
)
from app.status.limits import (
    limit_lost_link,
    limit_lost_link_per_address,
    limit_seller_action,
    limit_seller_action_per_lead,
)

# The seller's answers: to the quote, then to the final offer; the move, what it carries, and
# what the page then says.
QUOTE_ANSWERS = {
    "accept": (State.ACCEPTED, {"via": "status_page"}, messages.QUOTE_ACCEPTED),
    "decline": (State.CLOSED, {"reason": "seller_declined"}, messages.QUOTE_DECLINED),
}
OFFER_ANSWERS = {
    "accept": (State.AGREED, {"via": "status_page"}, messages.OFFER_ACCEPTED),
    "decline": (State.CLOSED, {"reason": "seller_declined"}, messages.OFFER_DECLINED),
}


# The status page, the lost-link form and the appointment


@limit_lost_link
@limit_lost_link_per_address
def lost_link():
    """Ask for the e-mail address; answer the same whether it has leads or not, and do the
    looking up and sending in the background so the timing says nothing either."""
    if request.method == "GET":
        return pages.lost_link_page()
    form = LostLinkForm()
    if not form.validate():
        return pages.lost_link_page(messages.NOT_AN_EMAIL, 422)
    queue.enqueue(queue.SEND_STATUS_LINKS, links.add_link_request(form.email.data))
    flash(messages.LINK_SENT)
    return redirect("/status", code=303)


def page(token: str):
    """The seller's status page: where the sale stands, the next step and the forms open to them."""
    return pages.status_page(lead_for(token), token)


def appointment_file(token: str):
    """The booked appointment for the seller's calendar (the e-mail's copy, no attendee)."""
    lead = lead_for(token)
    events = history.lead_events(lead["id"])
    bookings = [
        event
        for event in events
        if event["kind"] == "state_changed" and event["data"]["to"] == State.APPOINTMENT
    ]
    if lead["state"] != State.APPOINTMENT or not bookings:
        abort(404)
    data = bookings[-1]["data"] | {"sequence": bookings[-1]["id"]}  # as in the e-mail's copy
    body = invitation(lead, data, appointment_start(data))
    current_app.logger.info("Lead %s: appointment downloaded from the status page.", lead["id"])
    return Response(
        body,
        mimetype="text/calendar",
        headers={"Content-Disposition": 'attachment; filename="appointment.ics"'},
    )


# The seller's actions


def act(token: str, lead: dict, to_state: State, data: dict, said: str) -> Response:
    """Make the seller's move from the state the page showed; refused if the lead moved on."""
    try:
        lifecycle.transition(lead["id"], to_state, "seller", data, lead["state"])
    except lifecycle.TransitionError:
        return refuse(token, messages.NOT_NOW, 409)
    return done(token, said)


def answer(token: str, at: State, answers: dict, expired_message: str, is_expired):
    """Accept or decline what the page showed at state `at` (the quote, or the final offer): the
    one the form names, so a revision made since the page was opened is refused and shown; one
    past its date cannot be accepted."""
    lead, form = lead_for(token), AnswerForm()
    if not form.validate() or lead["state"] != at:
        return refuse(token, messages.NOT_NOW, 409)
    events = history.lead_events(lead["id"])
    if form.shown.data != str(history.latest_change_id(events, at)):
        return refuse(token, messages.REVISED[at], 409)
    to_state, data, said = answers[form.answer.data]
    if to_state != State.CLOSED and is_expired(events):
        return refuse(token, expired_message, 409)
    high = preparation.quote_high(events)
    if to_state == State.ACCEPTED and preparation.goes_by_mail(lead, high):
        said = messages.QUOTE_ACCEPTED_BY_MAIL  # no appointment: the label's steps follow
    return act(token, lead, to_state, data, said)


def answer_quote(token: str):
    """Accept or decline the current preliminary quote."""
    expired = purchase_view.quote_expired
    return answer(token, State.QUOTED, QUOTE_ANSWERS, messages.EXPIRED_QUOTE, expired)


def answer_offer(token: str):
    """Accept or decline the final offer (declining closes the enquiry and the watch goes back
    at our expense)."""
    expired = purchase_view.offer_expired
    return answer(token, State.OFFERED, OFFER_ANSWERS, messages.EXPIRED_OFFER, expired)


def withdraw(token: str):
    """Close the enquiry at the seller's word. Deleting their details as well is only asked
    for here, and only while nothing under way keeps them (app/sale/keeping.py): a status link
    can be forwarded or leaked, so the erasure waits until the seller confirms it from the
    link e-mailed to the address on file."""
    lead, form = lead_for(token), WithdrawForm()
    if lead["state"] not in pages.OPEN_STATES:
        return refuse(token, messages.NOT_NOW, 409)
    if not form.validate():
        return refuse(token, messages.TICK_TO_WITHDRAW, 422)
    if not form.asks_erasure():
        return act(token, lead, State.CLOSED, {"reason": "withdrawn"}, messages.WITHDRAWN)
    if not keeping.seller_may_ask(get_db(), lead):  # one answer, whatever keeps it
        return refuse(token, messages.ERASE_NOT_NOW, 409)
    data = {"reason": "withdrawn", "erasure_requested": True}
    try:
        event_id = lifecycle.transition(lead["id"], State.CLOSED, "seller", data, lead["state"])
    except lifecycle.TransitionError:
        return refuse(token, messages.NOT_NOW, 409)
    erasure.ask_seller_to_confirm(lead["id"], event_id)
    return done(token, messages.ERASURE_LINK_SENT)


@limit_seller_action
@limit_seller_action_per_lead
def erase_after_sale(token: str):
    """After the sale, ask us to delete what the law does not make us keep; as with a
    withdrawal, nothing goes until the seller confirms it from the link e-mailed to them."""
    lead, form = lead_for(token), EraseRequestForm()
    if lead["state"] != State.BOUGHT:
        return refuse(token, messages.NOT_NOW, 409)
    if not form.validate():
        return refuse(token, messages.TICK_TO_DELETE, 422)
    if erasure.confirmed(lead["id"]):  # asked again from a page opened before: no other link
        return done(token, messages.ERASURE_UNDER_WAY)
    erasure.ask_after_sale(lead["id"])
    return done(token, messages.SALE_ERASURE_LINK_SENT)


@limit_seller_action
@limit_seller_action_per_lead
def ask(token: str):
    """A question for our team: on the lead's timeline, and e-mailed to staff."""
    lead, form = lead_for(token), QuestionForm()
    if lead["state"] not in pages.OPEN_STATES:
        return refuse(token, messages.NOT_NOW, 409)
    if not form.validate():
        return refuse(token, form.question.errors[0], 422)
    lifecycle.ask_question(lead["id"], form.question.data)
    return done(token, messages.QUESTION_SENT)


@limit_seller_action
@limit_seller_action_per_lead
def add_photos(token: str):
    """More photos of the watch, with the sell form's checks, up to PHOTO_MAX_COUNT in all."""
    lead = lead_for(token)
    if not pages.takes_photos(lead):
        return refuse(token, messages.NOT_NOW, 409)
    form = AddPhotosForm(lead["photo_count"])
    if not form.validate():
        problem = next(
            iter(form.photos.errors), photo_messages.message(photo_messages.PHOTOS_NOT_TAKEN)
        )
        return refuse(token, problem, 422)
    try:
        intake.add_photos(lead["id"], chosen_files(form.photos.data))
    except store.NoRoom:
        return refuse(token, photo_messages.message(photo_messages.NO_MORE_PHOTOS), 422)
    except LookupError:  # erased since the page was opened
        abort(404)
    except intake.NotSaved:
        return refuse(token, photo_messages.message(photo_messages.NOT_SAVED), 503)
    return done(token, photo_messages.PHOTOS_ADDED)


# The documents


def document(token: str, name: str):
    """The latest bill of sale or receipt of a bought lead, as a download; the one 404 for any
    other lead, state, name or missing file."""
    lead = lead_for(token)
    kind = purchase_view.DOCUMENTS.get(name)
    row = files.latest(lead["id"], kind) if kind and lead["state"] == State.BOUGHT else None
    if row is None:
        abort(404)
    try:
        data = files.read(row)
    except FileNotFoundError:
        abort(404)
    except files.Unreadable as error:
        current_app.logger.error("Lead %s: %s", lead["id"], error)
        abort(404)
    current_app.logger.info("Lead %s: %s downloaded from the status page.", lead["id"], kind)
    disposition = f'attachment; filename="{name}-{lead["reference"]}.pdf"'
    return Response(
        data,
        mimetype="application/pdf",
        headers={"Content-Disposition": disposition, "X-Content-Type-Options": "nosniff"},
    )


# The erasure link e-mailed to confirm a deletion (app/sale/erasure.py): opening it shows what
# goes (after a sale, also what the law makes us keep, and until when) and a button; only the
# button's post confirms, once. A wrong, altered, expired or used link, or one whose lead was
# reopened or erased since, gets one refusal page, the same byte for byte, naming nothing.


def erasure_confirmation(code: str):
    """What the erasure removes and keeps, and the button that confirms it; opening the link
    changes nothing (mail scanners open links too)."""
    lead = erasure.lead_for_link(code)
    if lead is None:
        return pages.erasure_refused()
    return pages.erasure_page(
        lead=lead, watch=watch_name(lead), after_sale=erasure.after_sale(lead)
    )


def confirm_erasure(code: str):
    """Confirm the erasure, once, and queue it (by the lead's id: the token stays out of the
    queue); the erasure job e-mails the seller, then erases."""
    lead_id = erasure.confirm(code) if ConfirmLinkForm().validate() else None
    if lead_id is None:
        return pages.erasure_refused()
    current_app.logger.info("Lead %s: the seller confirmed its erasure by e-mail.", lead_id)
    queue.enqueue(queue.ERASE_AT_SELLERS_REQUEST, lead_id)
    return redirect("/status/erased", code=303)


def erasure_done():
    """After confirming: what happens now (the same page for anyone; it names nobody)."""
    return pages.erasure_page(
        done_heading="Your details are being deleted", done=messages.ERASURE_CONFIRMED
    )


# The payout account's confirmation, e-mailed when the paperwork is signed
# (app/sale/purchase/payout.py): opening the link shows the account by its last 4 and two
# buttons; only a button's post answers, once. Every link that cannot be used gets one refusal.


def payout_confirmation(code: str):
    """The account to confirm, and the two answers; opening the link changes nothing."""
    lead = payout.lead_for_link(code)
    if lead is None:
        return pages.payout_refused()
    amount = usd(agreed_price(lead["id"]) or 0)
    return pages.payout_page(lead=lead, watch=watch_name(lead), amount=amount)


def answer_payout(code: str):
    """Confirm the account, or say "this wasn't me" (the paperwork voided, every status link
    off, staff alerted); once."""
    form = PayoutAnswerForm()
    if not form.validate():
        return pages.payout_refused()
    confirms = form.answer.data == "confirm"
    lead_id = payout.confirm(code) if confirms else payout.deny(code)
    if lead_id is None:
        return pages.payout_refused()
    said = "confirmed" if confirms else "refused"
    current_app.logger.info("Lead %s: the seller %s the payout account by e-mail.", lead_id, said)
    return redirect(f"/status/payout-{said}", code=303)


def payout_answered(said: str):
    """After answering: what happens now (the same page for anyone; it names nobody)."""
    if said == "confirmed":
        return pages.payout_page(done_heading="Thank you", done=messages.PAYOUT_CONFIRMED)
    return pages.payout_page(
        done_heading="We have stopped it", done=messages.PAYOUT_REFUSED, new_link=True
    )
