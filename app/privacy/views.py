"""/privacy-choices: "Do Not Sell or Share My Personal Information". A plain form (CSRF token,
Post/Redirect/Get, app/privacy/forms.py) opts the visitor out of sharing with advertising
platforms, or back in; the choice lives in a first-party cookie (app/privacy/choice.py). The page
shows each visitor their own state, so it is never page-cached or frozen."""

from __future__ import annotations

from flask import abort, flash, make_response, redirect, render_template, request

from app.privacy.choice import chose_opt_out, forget_opt_out, remember_opt_out, sends_gpc
from app.privacy.forms import OPT_OUT, ChoiceForm
from app.rendering import seo
from app.rendering.layout import site_info

PATH = "/privacy-choices"
PAGE_EXPIRED = "This page was open too long, so your choice was not saved. Please choose again."


def choices_page(error: str | None = None, status: int = 200):
    """The page in this visitor's state (GPC on, opted out here, or neither); never stored by
    a browser or a cache, since another visitor's state differs."""
    meta = seo.PageMeta(
        title=f"Your Privacy Choices | {site_info()['name']}",
        description=(
            "Opt out of the sharing of your information with advertising platforms: what it "
            "means on this site, and how Global Privacy Control is honored."
        ),
        path=PATH,
        noindex=True,
    )
    html = render_template(
        "privacy/choices.html",
        meta=meta,
        gpc=sends_gpc(request),
        opted_out=chose_opt_out(request),
        error=error,
    )
    response = make_response(html, status)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def choices():
    """The visitor's privacy choices and what they mean."""
    return choices_page()


def save_choice():
    """Remember the choice in its cookie, then show the page again, confirming it."""
    form = ChoiceForm()
    if not form.validate():
        abort(400)
    response = redirect(PATH, code=303)
    if form.choice.data == OPT_OUT:
        remember_opt_out(response)
    else:
        forget_opt_out(response)
    flash(form.confirmation())
    return response
