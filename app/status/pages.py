"""The seller's pages as they are drawn: the status page, the sale paperwork, the lost-link form
and the erasure link's page. Each is private: never indexed, and its canonical address, /status,
leaves any token out."""

from __future__ import annotations

from flask import render_template

from app.leads import history
from app.leads.db import get_db
from app.leads.display import quote_amount, usd, watch_name
from app.leads.state import State
from app.photos import messages as photo_messages
from app.photos.forms import photo_limits, photo_room
from app.prices import index
from app.rendering import seo
from app.rendering.layout import site_info
from app.sale import erasure, keeping, seller_steps
from app.sale.purchase import paperwork, record
from app.shipping import preparation, progress, returns
from app.status import mail_page, messages, purchase_view, serial_views
from app.status.forms import QUESTION_MAX_LENGTH
from app.status.paperwork_form import (
    KEPT,
    KEPT_ACCOUNT,
    KEPT_PHOTO,
    KEPT_WITH_ACCOUNT,
    PHOTO_HINT,
    PHOTO_TYPES,
    READ_DECLARATION,
    TYPE_AGAIN,
    PaperworkForm,
)

NAME_PLACEHOLDER = "[your full legal name]"
# The seller's actions while the sale is open (not bought or closed).
OPEN_STATES = frozenset(State) - {State.BOUGHT, State.CLOSED}
# Photos help until the watch is authenticated in person; after that they answer nothing.
PHOTO_STATES = keeping.ASKING_STATES | {State.APPOINTMENT}


def takes_photos(lead: dict) -> bool:
    """Whether the seller may still send photos: before the authentication's findings."""
    purchase = record.get(lead["id"]) or {}
    return lead["state"] in PHOTO_STATES and not purchase.get("authenticated_at")


def private_meta(title: str, description: str) -> seo.PageMeta:
    """A seller's page: never indexed, and its canonical address, /status, leaves any token out."""
    return seo.PageMeta(
        title=f"{title} | {site_info()['name']}",
        description=description,
        path="/status",
        noindex=True,
    )


def status_page(lead: dict, token: str) -> str:
    """The seller's status page: where the sale stands, the next step and the forms open to them."""
    events = history.lead_events(lead["id"])
    appointment = history.latest_change(events, State.APPOINTMENT)
    is_open = lead["state"] in OPEN_STATES
    room = photo_room(lead["photo_count"])
    parcel = progress.inbound_progress(lead)
    held = returns.on_hold(lead["id"])
    mail, sale = mail_page.section(lead, events, held), purchase_view.view(lead, events)
    return render_template(
        "status/page.html",
        meta=private_meta("Your sale", "Where your watch sale stands."),
        lead=lead,
        watch=watch_name(lead),
        steps=steps_of(lead, events, held),
        parcel=parcel,
        next_step=next_step(lead, events, held, mail, sale, parcel),
        has_appointment=lead["state"] == State.APPOINTMENT and appointment is not None,
        can_answer_quote=lead["state"] == State.QUOTED,
        quote_shown=history.latest_change_id(events, State.QUOTED),
        guide_range=index.as_shown(lead),
        quote_words=latest_quote_words(events),
        sale=sale,
        mail=mail,
        serial=serial_views.section(lead, held),
        is_open=is_open,
        can_erase=keeping.seller_may_ask(get_db(), lead),
        details_kept=messages.DETAILS_KEPT,
        after_sale=erasure.after_sale(lead),
        erasure_under_way=messages.ERASURE_UNDER_WAY if erasure.confirmed(lead["id"]) else None,
        photo_props=add_photos_props(token, room) if takes_photos(lead) and room else None,
        photos_lost=photos_to_send_again(events),
        question_max_length=QUESTION_MAX_LENGTH,
        parcel_return=None if held else returns.seller_view(lead["id"]),
        token=token,
    )


def steps_of(lead: dict, events: list[dict], held: bool) -> list[seller_steps.Step]:
    """The seller's timeline; a sale on hold ends "On hold", never with why it closed."""
    steps = seller_steps.seller_steps(lead["state"], events, lead.get("handover") == "mail")
    if held and steps and steps[-1].label == "Closed":
        steps[-1].label, steps[-1].details = "On hold", []
    return steps


def next_step(lead: dict, events: list[dict], held: bool, mail, sale: dict, parcel) -> str:
    """What happens now: a sale on hold says only that (never why, nor that it is closed); else
    the sale by mail's step, the purchase's, the parcel's, or the state's, in the sale by mail's
    words (no appointment) for a mail deal within the policy's per-parcel limit."""
    if held:
        return returns.ON_HOLD
    if mail and mail["next_step"]:
        return mail["next_step"]
    if sale["next_step"]:
        return sale["next_step"]
    if parcel and lead["state"] == State.ACCEPTED:
        return progress.NEXT_STEP
    by_mail = preparation.goes_by_mail(lead, preparation.quote_high(events))
    return (messages.MAIL_NEXT_STEPS if by_mail else messages.NEXT_STEPS)[lead["state"]]


def photos_to_send_again(events: list[dict]) -> int:
    """How many of the seller's photos a restore found lost with our machine (app/replica/
    restore.py), until the seller adds photos again."""
    lost = 0
    for event in events:
        if event["kind"] == "files_lost":
            lost = len(event["data"]["photos"]) + len(event["data"]["waiting"])
        elif event["kind"] == "photos_added":
            lost = 0
    return lost


def latest_quote_words(events: list[dict]) -> str | None:
    """The latest preliminary quote as the seller reads it ('$8,000 to $9,500'), if any."""
    quote = history.latest_change(events, State.QUOTED)
    return quote_amount(quote) if quote else None


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


def declaration_props(lead: dict, legal_name: str) -> dict:
    """The Declaration island's props: the declaration as it will be signed, split where the
    seller's name goes, with the name typed so far (or a placeholder until there is one)."""
    purchase = record.get(lead["id"]) or {}
    marker = "\x00name\x00"
    text = paperwork.declaration_text(lead, purchase | {"legal_name": marker})
    before, after = text.split(marker, 1)
    return {
        "before": before,
        "after": after,
        "name": legal_name,
        "placeholder": NAME_PLACEHOLDER,
        "fieldId": "field-legal_name",
    }


def kept_notes(kept: dict) -> dict[str, str]:
    """What the page says by each field whose value the draft holds (an account by its last 4
    digits at most)."""
    notes = {}
    for name, value in kept.items():
        if name in PaperworkForm.PHOTOS:
            notes[name] = KEPT_PHOTO
        elif name == "account_number":
            notes[name] = KEPT_ACCOUNT.format(last4=value[-4:])
        else:
            notes[name] = KEPT_WITH_ACCOUNT if name == "account_number_again" else KEPT
    return notes


def paperwork_page(
    token: str, lead: dict, form: PaperworkForm | None = None, status: int = 200, review=False
):
    """The paperwork form, empty, or drawn again after a refusal with each message by its field,
    without the secret fields, each kept one marked as kept; after `review`, asking the seller
    to read the declaration now bearing their name."""
    form = form or PaperworkForm(formdata=None)
    refused = form.first_errors()
    form.forget_secrets()
    page = render_template(
        "status/paperwork.html",
        meta=private_meta("Sale paperwork", "Sign the paperwork for the sale of your watch."),
        lead=lead,
        watch=watch_name(lead),
        price=usd(paperwork.agreed_price(lead["id"]) or 0),
        token=token,
        form=form,
        errors=refused,
        photo_types=PHOTO_TYPES,
        photo_hint=photo_messages.message(PHOTO_HINT),
        us_states=paperwork.US_STATES,
        id_types=paperwork.ID_TYPES,
        type_again=TYPE_AGAIN if refused else "",
        read_declaration=READ_DECLARATION if review else "",
        kept=kept_notes(form.kept),
        declaration=declaration_props(lead, form.legal_name.data or ""),
    )
    return page, status


def lost_link_page(error: str = "", status: int = 200):
    """The lost-link form page, with an error message and its status when there is one."""
    meta = private_meta(
        "Find your status link", "Have the link to follow your watch sale e-mailed to you again."
    )
    return render_template("status/lost_link.html", meta=meta, error=error), status


def erasure_page(status: int = 200, **words):
    """The erasure link's page in one of its three forms: the confirmation, the refusal, or done."""
    meta = private_meta("Delete your details", "Confirm the deletion of your details and photos.")
    return render_template("status/erasure.html", meta=meta, **words), status


def erasure_refused():
    """The one answer to every erasure link that cannot erase anything: it says what to do."""
    return erasure_page(
        404, refusal=messages.ERASURE_LINK_REFUSED.format(phone=site_info()["phone"])
    )


def payout_page(status: int = 200, **words):
    """The payout link's page: the account to confirm, the refusal, or what happens now."""
    meta = private_meta("Confirm your payout account", "Confirm the account we pay for your watch.")
    return render_template("status/payout.html", meta=meta, **words), status


def payout_refused():
    """The one answer to every payout link that cannot be used: it says what to do."""
    return payout_page(404, refusal=messages.PAYOUT_LINK_REFUSED.format(phone=site_info()["phone"]))


def address_page(status: int = 200, **words):
    """The new return address's link page: the address to confirm, the refusal, or done."""
    meta = private_meta("Confirm your return address", "Confirm a new return address.")
    return render_template("status/address.html", meta=meta, **words), status


def address_refused():
    """The one answer to every address link that cannot be used: it says what to do."""
    phone = site_info()["phone"]
    return address_page(404, refusal=messages.ADDRESS_LINK_REFUSED.format(phone=phone))
