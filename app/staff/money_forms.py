"""The forms of the money's second checks (docs/sale.md, "Exceptions need a second person" and
"The payout account"): those that ask for an exception (another amount than the accepted
offer, a flagged register check to clear, an account in another name than the seller's), the
one that approves it, and staff's call-back confirming the payout account. The rules are in
app/sale/purchase/ (approvals.py, payout.py); the views in app/staff/views/purchase.py, the
list in purchase_panel.py."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import DataRequired, InputRequired, Length

from app.forms.fields import dollars, words
from app.sale.purchase import approvals, payout


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


class HolderNameForm(FlaskForm):
    """Ask to pay into an account whose holder is not the seller's legal name."""

    audited = "exception_requested"
    done = "Exception asked for: another staff member must approve paying into this account."

    names = HiddenField(validators=[InputRequired()])
    reason = words("Why this account is the seller's", required=True)

    def take(self, lead_id: int, actor: str) -> int:
        """Ask for the exception; the event's id."""
        return approvals.ask(
            lead_id, approvals.HOLDER_NAME, self.names.data, self.reason.data, actor
        )


class PayoutCallbackForm(FlaskForm):
    """A call-back to the seller on the phone on file, confirming the payout account where the
    seller cannot use the e-mailed link."""

    audited = "payout_callback_recorded"
    done = "Call-back recorded: the payout account counts as confirmed."

    phone_called = StringField(
        "Number called",
        validators=[DataRequired(), Length(max=40)],
        description="The phone number on file, which the seller gave with their enquiry.",
    )
    confirmed = BooleanField(
        "On this call the seller confirmed the account by its last 4 digits",
        validators=[InputRequired(message="Tick the box once the seller has confirmed it.")],
    )

    def take(self, lead_id: int, actor: str) -> int:
        """Record the call-back; the event's id."""
        return payout.record_callback(lead_id, actor, self.phone_called.data)


class ApproveForm(FlaskForm):
    """Approve an exception another staff member asked for (the URL names which)."""
