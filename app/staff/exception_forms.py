"""The forms of a lead's exceptions (docs/sale.md, "Exceptions need a second person"): those
that ask for one (another amount than the accepted offer, a flagged register check to clear)
and the one that approves it. app/sale/purchase/approvals.py keeps the rules; the views are in
app/staff/views/purchase.py, the list in purchase_panel.py.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import InputRequired

from app.forms.fields import dollars, words
from app.sale.purchase import approvals


class PaymentExceptionForm(FlaskForm):
    """Ask to pay another amount than the accepted offer: a second staff member approves it."""

    audited = "exception_requested"
    done = "Exception asked for: another staff member must approve it before that amount is paid."

    amount = dollars("Amount to pay (USD)")
    reason = words("Reason", required=True)

    def take(self, lead_id: int, actor: str) -> int:
        """Ask for the exception; the event's id."""
        return approvals.ask(
            lead_id, approvals.PAYMENT_AMOUNT, str(self.amount.data), self.reason.data, actor
        )


class ClearFlagForm(FlaskForm):
    """Ask to let the latest, clear register check count over a flagged one."""

    audited = "exception_requested"
    done = "Exception asked for: another staff member must approve clearing the flag."

    check = HiddenField(validators=[InputRequired()])
    reason = words("Why the flag no longer stands", required=True)

    def take(self, lead_id: int, actor: str) -> int:
        """Ask for the exception; the event's id."""
        return approvals.ask(
            lead_id, approvals.REGISTER_FLAG, self.check.data, self.reason.data, actor
        )


class ApproveForm(FlaskForm):
    """Approve an exception another staff member asked for (the URL names which)."""
