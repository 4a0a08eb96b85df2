"""The seller's side of the purchase on record, on their status page: the final offer's answer,
the sale paperwork, and the bill of sale and receipt once paid (DESIGN.md, "The purchase on
record"). Plain forms answered by a redirect, as the page's other actions are
(app/status/routes.py, whose refusals and errors these share); a paperwork form refused is drawn
again with each message by its field, and without the numbers it held."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request

from app.leads import history
from app.leads.display import usd, watch_name
from app.leads.state import State
from app.photos import messages as photo_messages
from app.sale.purchase import files, paperwork, record, rules
from app.security.client import client_address
from app.status import messages, private_meta, routes, sale
from app.status.limits import limit_seller_action_per_lead

bp = Blueprint("status_purchase", __name__)
routes.word_errors(bp)

USER_AGENT_LENGTH = 500
NAME_PLACEHOLDER = "[your full legal name]"
# The seller's answers to the final offer: the move, what it carries, and what the page says.
OFFER_ANSWERS = {
    "accept": (State.AGREED, {"via": "status_page"}, messages.OFFER_ACCEPTED),
    "decline": (State.CLOSED, {"reason": "seller_declined"}, messages.OFFER_DECLINED),
}


@bp.post("/status/<token>/offer")
def answer_offer(token: str):
    """Accept or decline the final offer the page showed (one past its date cannot be
    accepted; declining closes the enquiry and the watch goes back at our expense)."""
    lead = routes.lead_for(token)
    answer = OFFER_ANSWERS.get(request.form.get("answer", ""))
    if answer is None or lead["state"] != State.OFFERED:
        return routes.refuse(token, messages.NOT_NOW, 409)
    to_state, data, said = answer
    if to_state == State.AGREED and sale.offer_expired(history.lead_events(lead["id"])):
        return routes.refuse(token, messages.EXPIRED_OFFER, 409)
    return routes.act(token, lead, to_state, data, said)


def declaration_preview(lead: dict, legal_name: str) -> str:
    """The declaration as it will be signed, with the name typed so far (or a placeholder)."""
    purchase = record.get(lead["id"]) or {}
    return paperwork.declaration_text(lead, purchase | {"legal_name": legal_name})


def paperwork_page(token: str, lead: dict, errors: dict | None = None, values=None, status=200):
    """The paperwork form, empty or drawn again after a refusal with what may be shown back."""
    values = values or {}
    meta = private_meta("Sale paperwork", "Sign the paperwork for the sale of your watch.")
    price = paperwork.agreed_price(lead["id"])
    page = render_template(
        "status/paperwork.html",
        meta=meta,
        lead=lead,
        watch=watch_name(lead),
        price=usd(price or 0),
        token=token,
        fields=rules.FIELDS,
        photos=rules.PHOTOS,
        photo_types=rules.PHOTO_TYPES,
        photo_hint=photo_messages.message(rules.PHOTO_HINT),
        us_states=rules.US_STATES,
        id_types=paperwork.ID_TYPES,
        errors=errors or {},
        values=values,
        type_again=rules.TYPE_AGAIN if errors else "",
        declaration=declaration_preview(lead, values.get("legal_name") or NAME_PLACEHOLDER),
    )
    return page, status


@bp.get("/status/<token>/paperwork")
def paperwork_form(token: str):
    """The sale paperwork, while the lead waits for it (else the status page says why not)."""
    lead = routes.lead_for(token)
    if refusal := sale.paperwork_refusal(lead):
        return routes.refuse(token, refusal, 409)
    return paperwork_page(token, lead)


@bp.post("/status/<token>/paperwork")
@routes.limit_seller_action
@limit_seller_action_per_lead
def sign_paperwork(token: str):
    """Check the paperwork and sign it, once: refused, the form again with each problem by its
    field; signed, the status page says what happens next."""
    lead = routes.lead_for(token)
    if refusal := sale.paperwork_refusal(lead):
        return routes.refuse(token, refusal, 409)
    outcome = rules.check(request.form, request.files)
    if outcome.errors:
        return paperwork_page(token, lead, outcome.errors, rules.shown_back(request.form), 422)
    signer = {"ip": client_address(), "user_agent": request.user_agent.string[:USER_AGENT_LENGTH]}
    try:
        paperwork.sign(lead, outcome.values, outcome.photos, signer)
    except paperwork.NotSignable:
        now = routes.lead_for(token)  # moved on, or signed by another post, since the check
        return routes.refuse(token, sale.paperwork_refusal(now) or messages.NOT_NOW, 409)
    return routes.done(token, messages.PAPERWORK_SIGNED)


@bp.get("/status/<token>/documents/<name>.pdf")
def document(token: str, name: str):
    """The latest bill of sale or receipt of a bought lead, as a download; the one 404 for any
    other lead, state, name or missing file."""
    lead = routes.lead_for(token)
    kind = sale.DOCUMENTS.get(name)
    row = files.latest(lead["id"], kind) if kind and lead["state"] == State.BOUGHT else None
    if row is None:
        abort(404)
    try:
        data = files.read(row)
    except FileNotFoundError:
        abort(404)
    current_app.logger.info("Lead %s: %s downloaded from the status page.", lead["id"], kind)
    disposition = f'attachment; filename="{name}-{lead["reference"]}.pdf"'
    return Response(
        data,
        mimetype="application/pdf",
        headers={"Content-Disposition": disposition, "X-Content-Type-Options": "nosniff"},
    )
