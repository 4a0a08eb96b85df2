"""The sale paperwork's two views (their URLs are app/status/routes.py's): the form, and its
post. A refused post keeps what passed its rules and the page never shows back in the lead's
draft (app/sale/purchase/drafts.py), for this browser only: the draft's holder key lives in a
cookie of its own (HttpOnly, SameSite=Strict, `__Host-` in production), so another holder of
the seller's link neither reads nor feeds the seller's next try."""

from __future__ import annotations

from flask import current_app, make_response, request

from app.sale.purchase import drafts, paperwork
from app.security.client import client_address
from app.shipping import returns
from app.status import messages, pages, purchase_view
from app.status.answers import done, lead_for, refuse
from app.status.limits import limit_seller_action, limit_seller_action_per_lead
from app.status.paperwork_form import PaperworkForm

USER_AGENT_LENGTH = 500
PRODUCTION_COOKIE = "__Host-paperwork-draft"
DEV_COOKIE = "paperwork-draft"


def cookie_name() -> str:
    """The holder key's cookie: `__Host-` prefixed in production (it needs HTTPS), else plain."""
    return PRODUCTION_COOKIE if current_app.config["ENV_NAME"] == "production" else DEV_COOKIE


def holder() -> str:
    """This browser's holder key, or a new one."""
    return request.cookies.get(cookie_name()) or drafts.new_holder()


def with_holder(answer: tuple, key: str):
    """The page, with the holder key's cookie (kept as long as a draft is)."""
    response = make_response(answer)
    response.set_cookie(
        cookie_name(),
        key,
        max_age=current_app.config["PAPERWORK_DRAFT_HOURS"] * 3600,
        path="/",
        secure=current_app.config["ENV_NAME"] == "production",
        httponly=True,
        samesite="Strict",
    )
    return response


def paperwork_form(token: str):
    """The sale paperwork, while the lead waits for it (else the status page says why not),
    with what this browser's last try kept."""
    lead = lead_for(token)
    if refusal := purchase_view.paperwork_refusal(lead):
        return refuse(token, refusal, 409)
    form = PaperworkForm(formdata=None, kept=drafts.load(lead["id"], holder()))
    return pages.paperwork_page(token, lead, form)


@limit_seller_action
@limit_seller_action_per_lead
def sign_paperwork(token: str):
    """Check the paperwork and sign it, once. Refused (a problem, or a declaration shown
    without the name now typed): the form again, each problem by its field, what passed kept.
    Signed: the status page says what happens next."""
    lead = lead_for(token)
    if refusal := purchase_view.paperwork_refusal(lead):
        return refuse(token, refusal, 409)
    key = holder()
    form = PaperworkForm(kept=drafts.load(lead["id"], key))
    valid = form.validate()
    if not valid or form.declaration_unread():
        form.kept = form.to_keep()
        drafts.save(lead["id"], form.kept, key)
        answer = pages.paperwork_page(token, lead, form, 200 if valid else 422, review=valid)
        return with_holder(answer, key)
    signer = {"ip": client_address(), "user_agent": request.user_agent.string[:USER_AGENT_LENGTH]}
    try:
        paperwork.sign(lead, form.values(), form.id_photos, signer)
    except paperwork.NotSignable:
        now = lead_for(token)  # moved on, or signed by another post, since the check
        return refuse(token, purchase_view.paperwork_refusal(now) or messages.NOT_NOW, 409)
    on_hold = returns.on_hold(lead["id"])
    return done(token, messages.PAPERWORK_SIGNED_ON_HOLD if on_hold else messages.PAPERWORK_SIGNED)
