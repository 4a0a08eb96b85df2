"""How the seller's pages answer a post: the page again with a notice (Post/Redirect/Get), or
JSON for the photo island; and the one 404 for a link that opens no lead."""

from __future__ import annotations

from flask import Response, abort, flash, jsonify, redirect, request

from app.errors import wants_json
from app.leads import links, store
from app.privacy.choice import opt_out


def lead_for(token: str) -> dict:
    """The lead this token opens, or the 404 page: the same answer for every failure. A seller
    who opted out of ad sharing since the sell form (GPC, or the choices page's cookie, with
    this request) has the lead marked so: nothing more about it is sent to an ad platform."""
    lead = links.lead_by_status_token(token)
    if lead is None:
        abort(404)
    how = opt_out(request)
    if how and not lead["ad_opt_out"] and store.mark_ad_opt_out(lead["id"], how, "seller"):
        lead = lead | {"ad_opt_out": how}
    return lead


def back_to(token: str | None) -> Response:
    """Redirect (303) to the seller's page, or to the lost-link form without a token."""
    return redirect(f"/status/{token}" if token else "/status", code=303)


def show_refusal(message: str, _status: int) -> Response:
    """An error on a seller's request, as the page the form was on, with the message."""
    flash(message, "error")
    return back_to((request.view_args or {}).get("token"))


def refuse(token: str | None, message: str, status: int) -> Response:
    """A seller's request that changed nothing: JSON for the photo island, else the page
    again with the message (Post/Redirect/Get)."""
    if wants_json():
        return jsonify(success=False, error=message), status
    return show_refusal(message, status)


def suggest(token: str, message: str) -> Response:
    """A seller's request answered with a suggestion rather than a refusal (the carrier's
    correction of an address): the page again, the message in the neutral notice style."""
    flash(message, "suggestion")
    return back_to(token)


def done(token: str, message: str) -> Response:
    """A seller's request that was carried out: the page again, with the message on it (the
    photo island goes there itself, so both paths end on the same page)."""
    flash(message)
    if wants_json():
        return jsonify(success=True, next=f"/status/{token}")
    return back_to(token)


def back_to_link(message: str, _status: int) -> Response:
    """An erasure confirmation posted from a page opened long ago: nothing done; the link's
    page again, with the message."""
    flash(message, "error")
    return redirect(request.path, code=303)
