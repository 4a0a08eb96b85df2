"""/status/<token> and its appointment download."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Blueprint, Response, abort, current_app, render_template

from app import seo
from app.errors import not_found_response
from app.layout import site_info
from app.leads import store, timeline
from app.leads.display import appointment_start, watch_name
from app.leads.invitation import invitation
from app.leads.reference import token_hash

bp = Blueprint("status", __name__)

TOKEN_LIFETIME = timedelta(days=180)  # after the lead's last activity
TOKEN_LENGTH = 32  # secrets.token_urlsafe(24)
# What the seller can do at each state, until the page grows forms of its own.
NEXT_STEPS = {
    "new": "A specialist is reviewing your details and photos. We reply within 24 hours of "
    "your submission, by e-mail or phone.",
    "contacted": "We are looking at your watch and may call or e-mail you with a question.",
    "quoted": "To accept the preliminary quote, decline it or ask a question, reply to our "
    "e-mail or call us before it expires.",
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
        token=token,
    )


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
