"""/sell: the island posts here asking for JSON, the plain form posts here for HTML."""

from __future__ import annotations

from flask import (
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests

from app import seo
from app.layout import site_info
from app.sell import bp
from app.sell.forms import BRANDS, SellForm, chosen_files
from app.sell.submit import NotSaved, is_spam, submit_lead
from app.sell.views import form_page

SUCCESS = (
    "Form submitted successfully! We'll review your watch details and get back to you "
    "within 24 hours."
)


def failure_message() -> str:
    return (
        "Submission failed. Please try again or call us directly at "
        f"{current_app.config['SITE_PHONE']}."
    )


def wants_json() -> bool:
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == (
        "application/json"
    )


def answer_failure(message: str, status: int, keep_values: bool = False):
    """A refused request as JSON for the island, or as the form page with the message."""
    if wants_json():
        return jsonify(success=False, error=message, errors={}), status
    form = SellForm() if keep_values else SellForm(formdata=None)
    return form_page(form, error=message, status=status)


@bp.route("/sell", methods=["GET", "POST"])
def form():
    form = SellForm()
    if request.method == "GET":
        if request.args.get("brand") in BRANDS:
            form.watchBrand.data = request.args["brand"]
        return form_page(form)
    if is_spam():
        return answer_success()
    if not form.validate():
        if wants_json():
            return jsonify(success=False, error=failure_message(), errors=form.first_errors()), 422
        dropped = bool(chosen_files(form.photos.data))
        return form_page(form, error=failure_message(), photos_dropped=dropped, status=422)
    try:
        submit_lead(form)
    except NotSaved:
        return answer_failure(
            "We could not save your submission, so nothing was kept. Please try again in a "
            f"moment or call us directly at {current_app.config['SITE_PHONE']}.",
            503,
            keep_values=True,
        )
    return answer_success()


def answer_success():
    if wants_json():
        return jsonify(success=True, error=None, errors={})
    return redirect(url_for("sell.thanks"), code=303)


@bp.get("/sell/thanks")
def thanks():
    meta = seo.PageMeta(
        title=f"Thank You | {site_info()['name']}",
        description="Your watch details have reached us. We reply within 24 hours.",
        path="/sell/thanks",
        noindex=True,
    )
    response = make_response(render_template("sell/thanks.html", meta=meta, message=SUCCESS))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/sell-form")
def old_form_url():
    """Older article links point here; the form lives at /sell."""
    return redirect("/sell", code=301)


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_error):
    limit = current_app.config["PHOTO_MAX_COUNT"]
    return answer_failure(
        f"Your upload is too large. Please send at most {limit} photos of up to 10MB each.", 413
    )


@bp.errorhandler(TooManyRequests)
def too_many(_error):
    return answer_failure(
        "Too many submissions from your connection. Please wait a few minutes and try again, "
        f"or call us directly at {current_app.config['SITE_PHONE']}.",
        429,
    )


@bp.errorhandler(CSRFError)
def csrf_failed(_error):
    return answer_failure(
        "Your session expired before the form was sent. Please submit it again.",
        400,
        keep_values=True,
    )
