"""/status/<token>, its appointment download and the seller's own actions (accept or decline a
preliminary quote, withdraw), and /status, the lost-link form: each a plain POST form answered
by a redirect (no JavaScript)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
)
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import TooManyRequests

from app import queue, seo
from app.errors import not_found_response
from app.layout import site_info
from app.leads import lifecycle, store, timeline
from app.leads.display import appointment_start, watch_name
from app.leads.invitation import invitation
from app.leads.reference import token_hash
from app.sell.forms import EMAIL_PATTERN

bp = Blueprint("status", __name__)

LINK_SENT = (
    "If we have an enquiry in progress for that address, we have e-mailed it a new link. It "
    "should arrive within a few minutes; check your spam folder too."
)
NOT_AN_EMAIL = "Please enter the e-mail address you used on the sell form."
TOO_MANY = "Too many requests from your connection. Please wait a while, or call us on {phone}."

TOKEN_LIFETIME = timedelta(days=180)  # after the lead's last activity
TOKEN_LENGTH = 32  # secrets.token_urlsafe(24)
# What the seller can do at each state, until the page grows forms of its own.
NEXT_STEPS = {
    "new": "A specialist is reviewing your details and photos. We reply within 24 hours of "
    "your submission, by e-mail or phone.",
    "contacted": "We are looking at your watch and may call or e-mail you with a question.",
    "quoted": "Accept the preliminary quote below to book your authentication, or decline it. "
    "Questions first? Reply to our e-mail or call us before the quote expires.",
    "accepted": "Thank you for accepting. We will contact you to book your authentication "
    "appointment.",
    "appointment": "Your authentication appointment is booked. Add it to your calendar below; "
    "to change it, reply to our e-mail or call us.",
    "offered": "To accept the final offer or talk it over, reply to our e-mail or call us.",
    "bought": "We have paid for your watch. Thank you for selling with us.",
    "closed": "This enquiry is closed. If you change your mind, call us and we will pick it up "
    "again.",
}


def lead_for(token: str) -> dict:
    """The lead this token opens, or the 404 page: the same answer for every failure."""
    if len(token) != TOKEN_LENGTH:
        abort(404)
    active_since = (datetime.now(UTC) - TOKEN_LIFETIME).isoformat(timespec="seconds")
    lead = store.lead_by_token_hash(token_hash(token), active_since)
    if lead is None:
        abort(404)
    return lead


def status_meta() -> seo.PageMeta:
    """Not indexed, and its canonical address leaves the token out."""
    return seo.PageMeta(
        title=f"Your sale | {site_info()['name']}",
        description="Where your watch sale stands.",
        path="/status",
        noindex=True,
    )


@bp.errorhandler(404)
def unknown_link(_error):
    """One page, byte for byte, whether the token is unknown, altered, expired or malformed."""
    return not_found_response(path="/status")


@bp.errorhandler(CSRFError)
def form_expired(_error):
    """A form from a page opened long ago (or another site's): nothing done, say so."""
    flash("Nothing was changed: this page was out of date. Please try again.")
    return back_to(request.view_args.get("token"))


@bp.errorhandler(TooManyRequests)
def too_many(_error):
    return lost_link_page(TOO_MANY.format(phone=site_info()["phone"]), 429)


def lost_link_page(error: str = "", status: int = 200):
    meta = seo.PageMeta(
        title=f"Find your status link | {site_info()['name']}",
        description="Have the link to follow your watch sale e-mailed to you again.",
        path="/status",
        noindex=True,
    )
    return render_template("status/lost_link.html", meta=meta, error=error), status


@bp.route("/status", methods=["GET", "POST"])
def lost_link():
    """Ask for the e-mail address; answer the same whether it has leads or not, and do the
    looking up and sending in the background so the timing says nothing either."""
    if request.method == "GET":
        return lost_link_page()
    email = request.form.get("email", "").strip()
    if len(email) > 255 or not re.fullmatch(EMAIL_PATTERN, email):
        return lost_link_page(NOT_AN_EMAIL, 422)
    queue.enqueue_status_links(email)
    flash(LINK_SENT)
    return redirect("/status", code=303)


@bp.get("/status/<token>")
def page(token: str):
    lead = lead_for(token)
    events = store.lead_events(lead["id"])
    appointment = timeline.latest_change(events, "appointment")
    return render_template(
        "status/page.html",
        meta=status_meta(),
        lead=lead,
        watch=watch_name(lead),
        steps=timeline.seller_steps(lead["state"], events),
        next_step=NEXT_STEPS[lead["state"]],
        has_appointment=lead["state"] == "appointment" and appointment is not None,
        can_answer_quote=lead["state"] == "quoted",
        can_withdraw=lead["state"] in WITHDRAWABLE,
        token=token,
    )


# The seller's actions: the state they act from, the move, and what the page then says.
WITHDRAWABLE = frozenset(lifecycle.STATES) - {"bought", "closed"}
ANSWERS = {
    "accept": (
        "accepted",
        {"via": "status_page"},
        "Thank you: you have accepted our preliminary quote. We will contact you to book your "
        "appointment.",
    ),
    "decline": (
        "closed",
        {"reason": "seller_declined"},
        "You have declined our preliminary quote, and we have closed your enquiry.",
    ),
}
EXPIRED_QUOTE = (
    "This preliminary quote has expired, so it can no longer be accepted here. Please call us "
    "and we will look at your watch again."
)
NOT_NOW = "Your sale has moved on since this page was opened. Here is where it stands now."


def back_to(token: str | None) -> Response:
    return redirect(f"/status/{token}" if token else "/status", code=303)


def quote_expired(events: list[dict]) -> bool:
    quote = timeline.latest_change(events, "quoted")
    return quote is None or date.fromisoformat(quote["valid_until"]) < date.today()


@bp.post("/status/<token>/quote")
def answer_quote(token: str):
    """Accept or decline the current preliminary quote (a quote past its date cannot be
    accepted)."""
    lead = lead_for(token)
    answer = ANSWERS.get(request.form.get("answer", ""))
    if answer is None or lead["state"] != "quoted":
        flash(NOT_NOW)
        return back_to(token)
    to_state, data, done = answer
    if to_state == "accepted" and quote_expired(store.lead_events(lead["id"])):
        flash(EXPIRED_QUOTE)
        return back_to(token)
    return act(token, lead, to_state, data, done)


@bp.post("/status/<token>/withdraw")
def withdraw(token: str):
    """Close the enquiry at the seller's word, optionally asking us to delete their details
    (staff erase a closed lead; the request shows on its timeline)."""
    lead = lead_for(token)
    if request.form.get("confirm") != "yes" or lead["state"] not in WITHDRAWABLE:
        flash(NOT_NOW if lead["state"] not in WITHDRAWABLE else "Tick the box to withdraw.")
        return back_to(token)
    data = {"reason": "withdrawn"}
    if request.form.get("erase") == "yes":
        data["erasure_requested"] = True
    done = "You have withdrawn your watch, and we have closed your enquiry." + (
        " We will delete your details and photos and confirm by e-mail."
        if data.get("erasure_requested")
        else ""
    )
    return act(token, lead, "closed", data, done)


def act(token: str, lead: dict, to_state: str, data: dict, done: str) -> Response:
    try:
        lifecycle.transition(lead["id"], to_state, "seller", data, lead["state"])
    except lifecycle.TransitionError:
        flash(NOT_NOW)
    else:
        flash(done)
    return back_to(token)


@bp.get("/status/<token>/appointment.ics")
def appointment_file(token: str):
    """The booked appointment for the seller's calendar (PUBLISH: a copy, not a request)."""
    lead = lead_for(token)
    events = store.lead_events(lead["id"])
    bookings = [
        event
        for event in events
        if event["kind"] == "state_changed" and event["data"]["to"] == "appointment"
    ]
    if lead["state"] != "appointment" or not bookings:
        abort(404)
    data = bookings[-1]["data"] | {"sequence": bookings[-1]["id"]}  # as in the e-mail's copy
    body = invitation(lead, data, appointment_start(data), "PUBLISH")
    current_app.logger.info("Lead %s: appointment downloaded from the status page.", lead["id"])
    return Response(
        body,
        mimetype="text/calendar",
        headers={"Content-Disposition": 'attachment; filename="appointment.ics"'},
    )
