"""/status/erasure/<token>: the link e-mailed to a seller who asked, when withdrawing or after a
sale, to have their details deleted (app/sale/erasure.py). Opening it shows what goes (after
a sale, also what the law makes us keep, and until when) and a button; the button's POST (with
the form's CSRF token) confirms the erasure, once, and queues the job that sends the last
e-mail and erases; /status/erased then says what happens next. A wrong, altered, expired or
used link, or one whose lead was reopened or erased since, gets one refusal page, the same byte
for byte, naming nothing. Private like every /status answer (app/status/__init__.py: no-store,
noindex, no referrer) and kept out of the logs (app/security/logs.py)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request
from flask_wtf.csrf import CSRFError

from app import errors, queue
from app.leads.display import watch_name
from app.rendering.layout import site_info
from app.sale import erasure
from app.status import messages, private_meta

bp = Blueprint("status_erasure", __name__)


def show(status: int = 200, **words) -> tuple[str, int]:
    """The erasure page in one of its three forms: the confirmation, the refusal, or done."""
    meta = private_meta("Delete your details", "Confirm the deletion of your details and photos.")
    return render_template("status/erasure.html", meta=meta, **words), status


def refused() -> tuple[str, int]:
    """The one answer to every link that cannot erase anything: it says what to do instead."""
    return show(404, refusal=messages.ERASURE_LINK_REFUSED.format(phone=site_info()["phone"]))


def back_to_link(message: str, _status: int) -> Response:
    """A confirmation posted from a page opened long ago: nothing done; the link's page again,
    with the message."""
    flash(message, "error")
    return redirect(request.path, code=303)


errors.word(bp, CSRFError, messages.OUT_OF_DATE, back_to_link)


@bp.get("/status/erasure/<code>")
def confirmation(code: str):
    """What the erasure removes and keeps, and the button that confirms it; opening the link
    changes nothing (mail scanners open links too)."""
    lead = erasure.lead_for_link(code)
    if lead is None:
        return refused()
    return show(lead=lead, watch=watch_name(lead), after_sale=erasure.after_sale(lead))


@bp.post("/status/erasure/<code>")
def confirm(code: str):
    """Confirm the erasure, once, and queue it (by the lead's id: the token stays out of the
    queue); the erasure job e-mails the seller, then erases."""
    lead_id = erasure.confirm(code)
    if lead_id is None:
        return refused()
    current_app.logger.info("Lead %s: the seller confirmed its erasure by e-mail.", lead_id)
    queue.enqueue(queue.ERASE_AT_SELLERS_REQUEST, lead_id)
    return redirect("/status/erased", code=303)


@bp.get("/status/erased")
def erased():
    """After confirming: what happens now (the same page for anyone; it names nobody)."""
    return show(done=messages.ERASURE_CONFIRMED)
