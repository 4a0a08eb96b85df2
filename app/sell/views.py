"""/sell: the island posts here asking for JSON, the plain form posts here for HTML (the URLs are
app/sell/routes.py's)."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue

from app.catalog import BRANDS
from app.errors import wants_json
from app.leads import handover
from app.photos.forms import chosen_files
from app.photos.intake import NotSaved
from app.photos.messages import NOT_SAVED, message
from app.rendering import seo
from app.rendering.layout import site_info
from app.sell.forms import sell_form
from app.sell.messages import FAILURE, SUCCESS
from app.sell.page import form_page
from app.sell.submission import Submission, submit_lead


def answer_failure(message: str, status: int, keep_values: bool = False):
    """A refused request as JSON for the island, or as the form page with the message."""
    if wants_json():
        return jsonify(success=False, error=message, errors={}), status
    return form_again(keep_values)(message, status)


def form():
    """Show the sell form (brand preselected by ?brand=) or take a submission; spam is ignored."""
    form = sell_form()
    if request.method == "GET":
        if request.args.get("brand") in BRANDS:
            form.watchBrand.data = request.args["brand"]
        return form_page(form)
    if form.is_spam():
        return answer_success()
    if not form.validate():
        failure = message(FAILURE)
        if wants_json():
            return jsonify(success=False, error=failure, errors=form.first_errors()), 422
        dropped = bool(chosen_files(form.photos.data))
        return form_page(form, error=failure, photos_dropped=dropped, status=422)
    submission = Submission.from_request(form, request)
    try:
        reference = submit_lead(submission)
    except NotSaved:
        return answer_failure(message(NOT_SAVED), 503, keep_values=True)
    shown = submission.instant_range
    chosen = submission.fields.get("handover")
    return answer_success(reference, shown.as_json() if shown else None, chosen)


def answer_success(
    reference: str | None = None, shown_range: dict | None = None, chosen: str | None = None
):
    """The island gets the reference and the guide's range in its JSON (it knows the handover
    chosen); the plain form's thank-you page reads them from the session (not the URL, which
    analytics tags on that page would see)."""
    if wants_json():
        return jsonify(success=True, error=None, errors={}, reference=reference, range=shown_range)
    session["reference"] = reference
    session["instant_range"] = shown_range
    session["handover"] = chosen
    return redirect(url_for("sell.thanks"), code=303)


def thanks():
    """The plain form's thank-you page, with the reference the session holds; never cached."""
    meta = seo.PageMeta(
        title=f"Thank You | {site_info()['name']}",
        description="Your watch details have reached us. We reply within 24 hours.",
        path="/sell/thanks",
        noindex=True,
    )
    page = render_template(
        "sell/thanks.html",
        meta=meta,
        message=SUCCESS,
        reference=session.get("reference"),
        shown_range=session.get("instant_range"),
        handover_words=handover.seller_words({"handover": session.get("handover")}),
    )
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


def old_form_url():
    """Older article links point here; the form lives at /sell."""
    return redirect("/sell", code=301)


def form_again(keep_values: bool) -> Callable[[str, int], ResponseReturnValue]:
    """The sell page showing a refusal; the seller's typed values kept, or not."""
    return lambda message, status: form_page(
        sell_form() if keep_values else sell_form(formdata=None), error=message, status=status
    )
