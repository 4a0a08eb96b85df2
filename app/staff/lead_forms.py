"""The forms on a lead's page, one per action, and which of them each state offers.

Every action that moves a lead carries the state the page showed (`expected_state`), so the
server refuses it when someone else moved the lead first (lifecycle.StaleState). Field names are
prefixed by the action, so all forms can sit on one page without clashing ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TimeField,
)
from wtforms.validators import AnyOf, InputRequired, Length, ValidationError

from app.forms.fields import dollars, not_in_future, not_in_past, options, words
from app.leads import display
from app.leads.state import State
from app.prices import valuation
from app.sale import lifecycle
from app.sale.purchase import bank_payouts
from app.sale.purchase.paperwork import agreed_price
from app.sale.purchase.record import PAYMENT_METHODS, RECORDED_BY_HAND

QUOTE_DAYS = 14
OFFER_DAYS = 7
DIFFERENCES = "Differences from the preliminary quote (optional)"


class MoveForm(FlaskForm):
    """A form that moves the lead to `to_state` with the details it collected."""

    expected_state = HiddenField(validators=[InputRequired(), AnyOf(tuple(State))])
    to_state = ""

    def target(self) -> str:
        """The state this submission moves the lead to."""
        return self.to_state

    def details(self) -> dict:
        """The details the move records; none by default."""
        return {}

    def prefill(self, lead: dict) -> None:
        """Fill in what the lead already says, for the empty form on its page; nothing by
        default."""


class ContactedForm(MoveForm):
    """Mark the lead contacted, with an optional note."""

    to_state = State.CONTACTED
    note = words("Note (optional)", description="How you reached the seller, what was said.")

    def details(self) -> dict:
        """The note, if one was given."""
        return {"note": self.note.data} if self.note.data else {}


class ReopenForm(ContactedForm):
    """Reopen a closed lead as contacted, saying why."""

    note = words("Why it is reopened", required=True)


class QuoteForm(MoveForm):
    """A preliminary quote: an amount or range, how long it holds, a message to the seller."""

    to_state = State.QUOTED
    amount_low = dollars("Amount, or low end of a range (USD)")
    amount_high = dollars("High end of the range (USD, optional)", required=False)
    valid_until = DateField(
        "Valid until",
        validators=[InputRequired(), not_in_past],
        default=lambda: display.business_today() + timedelta(days=QUOTE_DAYS),
    )
    message = words("Message to the seller (optional)")

    def prefill(self, lead: dict) -> None:
        """The guide's suggestion for this watch (a fresh entry's adjusted range), if any."""
        if suggested := valuation.guide_facts(lead).suggestion:
            self.amount_low.data, self.amount_high.data = suggested

    def validate_amount_high(self, field) -> None:
        """The high end of a range may not be below the low end."""
        if field.data is not None and self.amount_low.data and field.data < self.amount_low.data:
            raise ValidationError("The high end must be at least the low end.")

    def details(self) -> dict:
        """The low and high amounts (the same for one amount), the validity and any message."""
        low = self.amount_low.data
        data = {
            "amount_low": low,
            "amount_high": self.amount_high.data or low,
            "valid_until": self.valid_until.data.isoformat(),
        }
        return data | ({"message": self.message.data} if self.message.data else {})


def answer_field(what: str) -> RadioField:
    """The seller's answer to a quote or a final offer: accepted or declined."""
    return RadioField(
        "Seller's answer",
        choices=options({"accept": f"Accepted the {what}", "decline": f"Declined the {what}"}),
        validators=[InputRequired(message="Choose the seller's answer.")],
    )


class AnswerForm(MoveForm):
    """The seller's answer to a quote, given by phone."""

    answer = answer_field("quote")
    note = words("Note (optional)")
    accepted_to = State.ACCEPTED

    def target(self) -> str:
        """An accepted quote (or offer) moves the lead on; a declined one closes it."""
        return self.accepted_to if self.answer.data == "accept" else State.CLOSED

    def details(self) -> dict:
        """By phone, the reason when declined, and the note if any."""
        data = {"via": "phone"}
        if self.answer.data == "decline":
            data["reason"] = "seller_declined"
        return data | ({"note": self.note.data} if self.note.data else {})


class AppointmentForm(MoveForm):
    """Book the authentication appointment: when, what kind and where."""

    to_state = State.APPOINTMENT
    date = DateField("Date", validators=[InputRequired(), not_in_past])
    time = TimeField("Time", validators=[InputRequired()])
    mode = RadioField(
        "Kind",
        choices=options(lifecycle.APPOINTMENT_MODES),
        default="office",
        validators=[InputRequired()],
    )
    place = StringField(
        "Place",
        validators=[InputRequired(), Length(max=300)],
        description="The office address, or the seller's address for a collection.",
    )
    message = words("Message to the seller (optional)")

    def details(self) -> dict:
        """The date, time (HH:MM), kind, place and any message."""
        data = {
            "date": self.date.data.isoformat(),
            "time": self.time.data.strftime("%H:%M"),
            "mode": self.mode.data,
            "place": self.place.data.strip(),
        }
        return data | ({"message": self.message.data} if self.message.data else {})


class DifferenceForm(Form):
    """One way the final offer differs from the preliminary quote, and why: both or neither."""

    what = StringField("What differs", [Length(max=200)], default="", filters=[str.strip])
    why = StringField("Why", [Length(max=500)], default="", filters=[str.strip])

    def validate_why(self, field) -> None:
        """A difference and its reason go together."""
        if bool(self.what.data) != bool(field.data):
            raise ValidationError("Fill in both what differs and why, or neither.")


class OfferForm(MoveForm):
    """The final offer: amount, validity, each difference from the quote with its reason, and
    an optional message to the seller."""

    to_state = State.OFFERED
    amount = dollars("Final offer (USD)")
    valid_until = DateField(
        "Valid until",
        validators=[InputRequired(), not_in_past],
        default=lambda: display.business_today() + timedelta(days=OFFER_DAYS),
    )
    differences = FieldList(FormField(DifferenceForm), DIFFERENCES, min_entries=3, max_entries=3)
    message = words("Message to the seller (optional)")

    def details(self) -> dict:
        """The amount, how long it holds, each difference filled in (once) and any message."""
        rows = {(r.what.data, r.why.data): r.data for r in self.differences if r.what.data}
        data = {"amount": self.amount.data, "valid_until": self.valid_until.data.isoformat()}
        data["differences"] = list(rows.values())  # a post skipping a row gives the next twice
        return data | ({"message": self.message.data} if self.message.data else {})


class AnswerOfferForm(AnswerForm):
    """The seller's answer to the final offer, given by phone."""

    answer = answer_field("offer")
    accepted_to = State.AGREED


class BoughtForm(MoveForm):
    """The watch is bought: the payment's amount, method, date and the bank's confirmation."""

    to_state = State.BOUGHT
    amount = dollars("Amount paid (USD)")
    method = RadioField(
        "Method",
        choices=options({method: PAYMENT_METHODS[method] for method in RECORDED_BY_HAND}),
        default="ach",
        validators=[InputRequired()],
    )
    paid_on = DateField(
        "Payment date", validators=[InputRequired(), not_in_future], default=display.business_today
    )
    confirmation = StringField(
        "Bank's confirmation number",
        validators=[InputRequired(), Length(max=60)],
        description="As the bank shows it for this transfer.",
    )

    def prefill(self, lead: dict) -> None:
        """The accepted offer: any other amount needs a second staff member's approval."""
        self.amount.data = agreed_price(lead["id"])

    def details(self) -> dict:
        """The amount paid, how, when, and the bank's confirmation number."""
        return {
            "amount": self.amount.data,
            "method": self.method.data,
            "paid_on": self.paid_on.data.isoformat(),
            "confirmation": self.confirmation.data.strip(),
        }


class CloseForm(MoveForm):
    """Close the lead with a reason and an optional note."""

    to_state = State.CLOSED
    reason = SelectField(
        "Reason", choices=options(lifecycle.CLOSE_REASONS), validators=[InputRequired()]
    )
    note = words("Note (optional)")

    def details(self) -> dict:
        """The reason and any note."""
        return {"reason": self.reason.data} | ({"note": self.note.data} if self.note.data else {})


class NoteForm(FlaskForm):
    """A note on the lead; it does not change the lead's state."""

    note = words("Note", required=True)


class EraseForm(FlaskForm):
    """Confirm erasure by typing the lead's reference."""

    reference = StringField(
        "Type the lead's reference to confirm",
        validators=[InputRequired(), Length(max=20)],
    )


@dataclass(frozen=True)
class Action:
    """An action on a lead's page: its name, form, title and button label."""

    name: str
    form: type[FlaskForm]
    title: str
    button: str

    def offered(self, lead: dict) -> bool:
        """Whether the lead's state (and erasure) allows this action."""
        if lead["erased_at"]:
            return False
        state = lead["state"]
        moves = lifecycle.allowed_moves(state)
        by_name = {
            "answer": state == State.QUOTED,
            "answer_offer": state == State.OFFERED,
            "contacted": State.CONTACTED in moves and state != State.CLOSED,
            "reopen": state == State.CLOSED,
            "note": True,
            "erase": state in (State.CLOSED, State.BOUGHT),
            # sent through the bank's API, a payment is recorded by the bank's answer alone
            "bought": State.BOUGHT in moves and not bank_payouts.sent_by_api(),
            # a deal by mail has no appointment: its offer follows the parcel, not the quote
            "offer": State.OFFERED in moves
            and (state != State.ACCEPTED or lead.get("handover") == "mail"),
        }
        return by_name.get(self.name, getattr(self.form, "to_state", "") in moves)


ACTIONS = {
    action.name: action
    for action in (
        Action("contacted", ContactedForm, "Mark contacted", "Mark contacted"),
        Action("quote", QuoteForm, "Preliminary quote", "Send quote to the seller"),
        Action("answer", AnswerForm, "Seller's answer by phone", "Record answer"),
        Action("appointment", AppointmentForm, "Authentication appointment", "Book and e-mail"),
        Action("offer", OfferForm, "Final offer", "Record and e-mail the offer"),
        Action(
            "answer_offer",
            AnswerOfferForm,
            "Seller's answer to the final offer by phone",
            "Record answer",
        ),
        Action("bought", BoughtForm, "Mark bought", "Mark bought and e-mail receipt"),
        Action("close", CloseForm, "Close the lead", "Close the lead"),
        Action("reopen", ReopenForm, "Reopen", "Reopen as contacted"),
        Action("note", NoteForm, "Add a note", "Add note"),
        Action("erase", EraseForm, "Erase personal data", "Erase for good"),
    )
}
