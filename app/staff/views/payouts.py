"""The payout's two staff steps, from a lead's page, while payouts are sent through the bank's
API (app/payouts/two_people.py): one staff member asks for the payout the page showed, another
approves it; each has given both factors again within STAFF_REAUTH_MINUTES, and each step and
each refusal is audited. The job then has the bank create, release and follow the transfer."""

from __future__ import annotations

from flask import abort

from app.payouts import two_people
from app.sale.purchase import bank_payouts
from app.sale.purchase.authentication import Refused
from app.staff.auth import record, require_recent_auth
from app.staff.payout_panel import ApprovePayoutForm, AskPayoutForm
from app.staff.views import inbox

OUT_OF_DATE = "That form was out of date; nothing was changed."
ASKED = (
    "Payout asked for and recorded with your name. Another staff member must approve it on this "
    "page: only then does the bank send it."
)
APPROVED = (
    "Payout approved and recorded with your name: the bank is sending it. The lead is marked "
    "bought when the bank confirms the payment."
)


def lead_in_api_mode(lead_id: int) -> dict:
    """The lead, while payouts are sent through the bank's API; 404 otherwise."""
    if not bank_payouts.sent_by_api():
        abort(404)
    return inbox.lead_or_404(lead_id)


@require_recent_auth
def ask_payout(lead_id: int):
    """Ask for the payout the lead's page showed."""
    lead_in_api_mode(lead_id)
    form = AskPayoutForm(prefix="payout")
    if not form.validate():
        return inbox.back(lead_id, OUT_OF_DATE, "error")
    try:
        payout_id = two_people.ask(lead_id, inbox.actor(), form.shown())
    except Refused as error:
        record("payout_ask_refused", lead_id, {"reason": str(error)[:200]})
        return inbox.back(lead_id, str(error), "error")
    record("payout_asked", lead_id, {"payout": payout_id})
    return inbox.back(lead_id, ASKED)


@require_recent_auth
def approve_payout(lead_id: int, payout_id: int):
    """Approve a payout another staff member asked for: never the one who asked."""
    lead_in_api_mode(lead_id)
    if not ApprovePayoutForm(prefix="approve_payout").validate():
        return inbox.back(lead_id, OUT_OF_DATE, "error")
    try:
        event_id = two_people.approve(lead_id, payout_id, inbox.actor())
    except Refused as error:
        record("payout_approval_refused", lead_id, {"payout": payout_id})
        return inbox.back(lead_id, str(error), "error")
    record("payout_approved", lead_id, {"payout": payout_id, "event": event_id})
    return inbox.back(lead_id, APPROVED)
