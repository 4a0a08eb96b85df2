"""The serial number a seller may give on the status page once the quote is accepted, until staff
authenticate the watch (app/sale/purchase/sellers_serial.py keeps it and asks the register):
the form's part of the page, and its plain post, answered by a redirect like the page's other
forms. The page then thanks the seller and never shows what any check of it said."""

from __future__ import annotations

from flask import session

from app.forms.rules import html_attributes
from app.sale.purchase import sellers_serial
from app.status import messages
from app.status.answers import done, lead_for, refuse
from app.status.forms import SerialForm
from app.status.limits import limit_seller_action, limit_seller_action_per_lead

TYPED_LENGTH = 40  # what is kept of a refused serial, to put back in the form


def typed_key(lead_id: int) -> str:
    """The session key of what the seller typed in a refused post, for this lead."""
    return f"serial-typed-{lead_id}"


def section(lead: dict, held: bool) -> dict | None:
    """The form's context on the status page (with what a refused post had typed), the thanks
    once the serial is given, or None before the quote is accepted, once staff have
    authenticated the watch, and for a sale on hold that has not given one."""
    if lead["state"] not in sellers_serial.GIVEN_STATES:
        return None
    if lead.get("sellers_serial"):
        return {"given": messages.SERIAL_GIVEN}
    if held:
        return None
    return {
        "given": None,
        "typed": session.pop(typed_key(lead["id"]), ""),
        "attributes": html_attributes(SerialForm(formdata=None).serial),
        "why": messages.SERIAL_WHY,
        "hint": messages.SERIAL_HINT,
    }


@limit_seller_action
@limit_seller_action_per_lead
def give_serial(token: str):
    """The seller's serial number, checked by the form's rules, kept once."""
    lead, form = lead_for(token), SerialForm()
    if not sellers_serial.can_give(lead):
        return refuse(token, messages.SERIAL_NOT_NOW, 409)
    if not form.validate():
        session[typed_key(lead["id"])] = (form.serial.data or "")[:TYPED_LENGTH]
        return refuse(token, form.serial.errors[0], 422)
    if not sellers_serial.give(lead["id"], form.serial.data):
        return refuse(token, messages.SERIAL_NOT_NOW, 409)
    return done(token, messages.SERIAL_GIVEN)
