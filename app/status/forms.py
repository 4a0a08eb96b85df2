"""The forms a seller posts from their status pages, each read and checked by WTForms with the
rules of app/forms/rules.py (the paperwork's is app/status/paperwork_form.py). The pages write
their controls by hand; these forms are what a post must be."""

from __future__ import annotations

import unicodedata

from flask_wtf import FlaskForm
from wtforms import StringField, TextAreaField

from app.forms.rules import Choice, EmailAddress, MaxLength, Pattern, Required, clean_text
from app.status import messages

QUESTION_MAX_LENGTH = 2000
# A serial number as people type it: 4 to 20 letters, digits, spaces or dashes, starting and
# ending with a letter or digit (Python and JavaScript read it alike).
SERIAL_PATTERN = r"[A-Za-z0-9][A-Za-z0-9 -]{2,18}[A-Za-z0-9]"
ANSWERS = ["accept", "decline"]


def question_text(value):
    """A question as the seller meant it: trimmed and NFC-normalised, as the sell form's text."""
    return unicodedata.normalize("NFC", value.strip()) if isinstance(value, str) else value


class LostLinkForm(FlaskForm):
    """The lost-link form: the e-mail address the sell form was sent with."""

    email = StringField(
        filters=[clean_text],
        validators=[
            Required(messages.NOT_AN_EMAIL),
            MaxLength(255, messages.NOT_AN_EMAIL),
            EmailAddress(messages.NOT_AN_EMAIL),
        ],
    )


class AnswerForm(FlaskForm):
    """The seller's answer to a preliminary quote or a final offer: the button they pressed,
    and which quote or offer the page showed (its event's id), so an answer is never taken for
    a revision the seller has not seen."""

    answer = StringField(validators=[Choice(ANSWERS, messages.NOT_NOW)])
    shown = StringField(
        validators=[Required(messages.NOT_NOW), Pattern(r"\d{1,12}", messages.NOT_NOW)]
    )


class WithdrawForm(FlaskForm):
    """Withdrawing the watch, ticked to confirm; deleting the details too, if ticked."""

    confirm = StringField(validators=[Choice(["yes"], messages.TICK_TO_WITHDRAW)])
    erase = StringField()

    def asks_erasure(self) -> bool:
        """Whether the seller also asked for their details to be deleted."""
        return self.erase.data == "yes"


class EraseRequestForm(FlaskForm):
    """After a sale: asking for what the law lets go to be deleted, ticked to confirm."""

    confirm = StringField(validators=[Choice(["yes"], messages.TICK_TO_DELETE)])


class QuestionForm(FlaskForm):
    """A question for our team."""

    question = TextAreaField(
        filters=[question_text],
        validators=[
            Required(messages.NO_QUESTION),
            MaxLength(QUESTION_MAX_LENGTH, messages.QUESTION_TOO_LONG),
        ],
    )


class ConfirmLinkForm(FlaskForm):
    """The button on an e-mailed link's page (an erasure, a new return address): nothing to
    fill in but its CSRF token."""


class PayoutAnswerForm(FlaskForm):
    """The payout link's two buttons: confirm the account, or "this wasn't me"."""

    answer = StringField(validators=[Choice(["confirm", "deny"], messages.NOT_NOW)])


class SerialForm(FlaskForm):
    """The serial number the seller may give once the quote is accepted (optional: the form is
    only posted when they choose to)."""

    serial = StringField(
        filters=[clean_text],
        validators=[
            Required(messages.SERIAL_MISSING),
            MaxLength(20, messages.SERIAL_NOT_VALID),
            Pattern(SERIAL_PATTERN, messages.SERIAL_NOT_VALID),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )
