"""/status/<token>, its appointment download and the seller's own actions (accept or decline a
preliminary quote, ask a question, add photos, withdraw, and after a sale ask to have their
details deleted), and /status, the lost-link form: each a plain POST form answered by a redirect
(no JavaScript); the photo island asks for JSON and follows the same redirect. The purchase's
own pages (final offer, paperwork, documents) are app/status/purchase.py."""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
)
from flask_wtf.csrf import CSRFError

from app import errors, queue
from app.errors import wants_json
from app.extensions import limiter
from app.leads import history, links, store
from app.leads.display import appointment_start, watch_name
from app.leads.state import State
from app.photos import intake
from app.photos import messages as photo_messages
from app.photos.forms import AddPhotosForm, chosen_files, photo_limits, photo_room
from app.sale import erasure, lifecycle, timeline
from app.sale.invitation import invitation
from app.status import messages, private_meta, sale
from app.status.limits import limit_seller_action_per_lead, too_many_message

bp = Blueprint("status", __name__)


def setting(name: str):
    """A limit read from the app's settings when a request is checked."""
    return lambda: current_app.config[name]


def asked_address() -> str:
    """The e-mail address the lost-link form asks for, as the key of its own limit."""
    return request.form.get("email", "").strip().lower()


# The lost-link form is limited per client address and per e-mail address asked for, so no one
# can have a seller's inbox flooded; the question and photo forms per client address, so no one
# can flood staff's.
limit_lost_link = limiter.limit(setting("STATUS_LINK_RATELIMIT"), methods=["POST"])
limit_lost_link_per_address = limiter.limit(
    setting("STATUS_LINK_EMAIL_RATELIMIT"), methods=["POST"], key_func=asked_address
)
limit_seller_action = limiter.limit(setting("STATUS_ACTION_RATELIMIT"))


def lead_for(token: str) -> dict:
    """The lead this token opens, or the 404 page: the same answer for every failure."""
    lead = links.lead_by_status_token(token)
    if lead is None:
        abort(404)
    return lead


def show_refusal(message: str, _status: int) -> Response:
    """An error on a seller's request, as the page the form was on, with the message."""
    flash(message, "error")
    return back_to((request.view_args or {}).get("token"))


def show_limit(message: str, status: int) -> Response:
    """Too many requests: the seller's page with the message, or the lost-link form's."""
    if (request.view_args or {}).get("token"):
        return show_refusal(message, status)
    return lost_link_page(message, status)


def word_errors(blueprint: Blueprint) -> None:
    """How the seller's pages word their errors (this blueprint's and the purchase's)."""
    # One page, byte for byte, whether the token is unknown, altered, expired or malformed.
    errors.word(
        blueprint, 404, messages.UNKNOWN_LINK, lambda *_: errors.not_found_response(path="/status")
    )
    # A form from a page opened long ago (or another site's): nothing done, say so.
    errors.word(blueprint, CSRFError, messages.OUT_OF_DATE, show_refusal)
    errors.word(blueprint, 429, too_many_message, show_limit)
    errors.word(
        blueprint,
        413,
        lambda: photo_messages.message(photo_messages.UPLOAD_TOO_LARGE),
        show_refusal,
    )


word_errors(bp)


def refuse(token: str | None, message: str, status: int) -> Response:
    """A seller's request that changed nothing: JSON for the photo island, else the page
    again with the message (Post/Redirect/Get)."""
    if wants_json():
        return jsonify(success=False, error=message), status
    return show_refusal(message, status)


def done(token: str, message: str) -> Response:
    """A seller's request that was carried out: the page again, with the message on it (the
    photo island goes there itself, so both paths end on the same page)."""
    flash(message)
    if wants_json():
        return jsonify(success=True, next=f"/status/{token}")
    return back_to(token)


def is_email_address(text: str) -> bool:
    """Whether `text` is an address in e-mail's syntax (email-validator, no DNS look-up): any
    address the sell form took passes."""
    try:
        validate_email(text, check_deliverability=False)
    except EmailNotValidError:
        return False
    return True


def lost_link_page(error: str = "", status: int = 200):
    """The lost-link form page, with an error message and its status when there is one."""
    meta = private_meta(
        "Find your status link", "Have the link to follow your watch sale e-mailed to you again."
    )
    return render_template("status/lost_link.html", meta=meta, error=error), status


@bp.route("/status", methods=["GET", "POST"])
@limit_lost_link
@limit_lost_link_per_address
def lost_link():
    """Ask for the e-mail address; answer the same whether it has leads or not, and do the
    looking up and sending in the background so the timing says nothing either."""
    if request.method == "GET":
        return lost_link_page()
    email = request.form.get("email", "").strip()
    if len(email) > 255 or not is_email_address(email):
        return lost_link_page(messages.NOT_AN_EMAIL, 422)
    queue.enqueue(queue.SEND_STATUS_LINKS, links.add_link_request(email))
    flash(messages.LINK_SENT)
    return redirect("/status", code=303)


@bp.get("/status/<token>")
def page(token: str):
    """The seller's status page: where the sale stands, the next step and the forms open to them."""
    lead = lead_for(token)
    events = history.lead_events(lead["id"])
    appointment = history.latest_change(events, State.APPOINTMENT)
    is_open = lead["state"] in OPEN_STATES
    room = photo_room(lead["photo_count"])
    return render_template(
        "status/page.html",
        meta=private_meta("Your sale", "Where your watch sale stands."),
        lead=lead,
        watch=watch_name(lead),
        steps=timeline.seller_steps(lead["state"], events),
        next_step=messages.NEXT_STEPS[lead["state"]],
        has_appointment=lead["state"] == State.APPOINTMENT and appointment is not None,
        can_answer_quote=lead["state"] == State.QUOTED,
        sale=sale.view(lead, events),
        is_open=is_open,
        can_erase=lead["state"] in SELLER_ERASABLE_STATES,
        after_sale=erasure.after_sale(lead),
        photo_props=add_photos_props(token, room) if is_open and room else None,
        question_max_length=lifecycle.QUESTION_MAX_LENGTH,
        token=token,
    )


def add_photos_props(token: str, room: int) -> dict:
    """The AddPhotos island's props: the sell form's picker, with room for `room` more."""
    return {
        "action": f"/status/{token}/photos",
        "photos": photo_limits(max_count=room),
        "messages": photo_messages.picker_messages()
        | {
            "tooManyPhotos": photo_messages.message(photo_messages.MORE_PHOTOS, room=room),
            "noPhotos": photo_messages.NO_PHOTOS_CHOSEN,
            "failure": photo_messages.message(photo_messages.PHOTOS_NOT_TAKEN),
        },
    }


# The seller's actions while the sale is open (not bought or closed): the state they act from,
# the move, and what the page then says.
OPEN_STATES = frozenset(State) - {State.BOUGHT, State.CLOSED}
# From the appointment on, the watch may be with us: its return needs the seller's details.
SELLER_ERASABLE_STATES = frozenset({State.NEW, State.CONTACTED, State.QUOTED, State.ACCEPTED})
ANSWERS = {
    "accept": (
        State.ACCEPTED,
        {"via": "status_page"},
        "Thank you: you have accepted our preliminary quote. We will contact you to book your "
        "appointment.",
    ),
    "decline": (
        State.CLOSED,
        {"reason": "seller_declined"},
        "You have declined our preliminary quote, and we have closed your enquiry.",
    ),
}


def back_to(token: str | None) -> Response:
    """Redirect (303) to the seller's page, or to the lost-link form without a token."""
    return redirect(f"/status/{token}" if token else "/status", code=303)


def quote_expired(events: list[dict]) -> bool:
    """Whether the latest preliminary quote is missing or past its valid-until date."""
    return sale.has_expired(history.latest_change(events, State.QUOTED))


@bp.post("/status/<token>/quote")
def answer_quote(token: str):
    """Accept or decline the current preliminary quote (a quote past its date cannot be
    accepted)."""
    lead = lead_for(token)
    answer = ANSWERS.get(request.form.get("answer", ""))
    if answer is None or lead["state"] != State.QUOTED:
        return refuse(token, messages.NOT_NOW, 409)
    to_state, data, said = answer
    if to_state == State.ACCEPTED and quote_expired(history.lead_events(lead["id"])):
        return refuse(token, messages.EXPIRED_QUOTE, 409)
    return act(token, lead, to_state, data, said)


@bp.post("/status/<token>/withdraw")
def withdraw(token: str):
    """Close the enquiry at the seller's word. Deleting their details as well is only asked
    for here: a status link can be forwarded or leaked, so the erasure waits until the seller
    confirms it from the link e-mailed to the address on file (app/status/erasure.py)."""
    lead = lead_for(token)
    if lead["state"] not in OPEN_STATES:
        return refuse(token, messages.NOT_NOW, 409)
    if request.form.get("confirm") != "yes":
        return refuse(token, "Tick the box to withdraw.", 422)
    if request.form.get("erase") != "yes":
        return act(token, lead, State.CLOSED, {"reason": "withdrawn"}, messages.WITHDRAWN)
    if lead["state"] not in SELLER_ERASABLE_STATES:
        return refuse(token, messages.ERASE_AFTER_RETURN, 409)
    data = {"reason": "withdrawn", "erasure_requested": True}
    try:
        event_id = lifecycle.transition(lead["id"], State.CLOSED, "seller", data, lead["state"])
    except lifecycle.TransitionError:
        return refuse(token, messages.NOT_NOW, 409)
    erasure.ask_seller_to_confirm(lead["id"], event_id)
    return done(token, messages.ERASURE_LINK_SENT)


@bp.post("/status/<token>/erase")
@limit_seller_action
@limit_seller_action_per_lead
def erase_after_sale(token: str):
    """After the sale, ask us to delete what the law does not make us keep; as with a
    withdrawal, nothing goes until the seller confirms it from the link e-mailed to them."""
    lead = lead_for(token)
    if lead["state"] != State.BOUGHT:
        return refuse(token, messages.NOT_NOW, 409)
    if request.form.get("confirm") != "yes":
        return refuse(token, messages.TICK_TO_DELETE, 422)
    erasure.ask_after_sale(lead["id"])
    return done(token, messages.SALE_ERASURE_LINK_SENT)


@bp.post("/status/<token>/question")
@limit_seller_action
@limit_seller_action_per_lead
def ask(token: str):
    """A question for our team: on the lead's timeline, and e-mailed to staff."""
    lead = lead_for(token)
    if lead["state"] not in OPEN_STATES:
        return refuse(token, messages.NOT_NOW, 409)
    try:
        lifecycle.ask_question(lead["id"], request.form.get("question", ""))
    except lifecycle.MissingDetails as error:
        return refuse(token, str(error), 422)
    return done(token, messages.QUESTION_SENT)


@bp.post("/status/<token>/photos")
@limit_seller_action
@limit_seller_action_per_lead
def add_photos(token: str):
    """More photos of the watch, with the sell form's checks, up to PHOTO_MAX_COUNT in all."""
    lead = lead_for(token)
    if lead["state"] not in OPEN_STATES:
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


def act(token: str, lead: dict, to_state: str, data: dict, said: str) -> Response:
    """Make the seller's move from the state the page showed; refused if the lead moved on."""
    try:
        lifecycle.transition(lead["id"], to_state, "seller", data, lead["state"])
    except lifecycle.TransitionError:
        return refuse(token, messages.NOT_NOW, 409)
    return done(token, said)


@bp.get("/status/<token>/appointment.ics")
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
