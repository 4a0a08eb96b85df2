"""Fields and validators the staff forms share: whole dollars, free text, choices from a dict,
and dates checked against the business's calendar (app/leads/display.py)."""

from __future__ import annotations

import re

from wtforms import IntegerField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from app.leads import display

MAX_DOLLARS = 10_000_000
MESSAGE_LENGTH = 2000


class DollarsField(IntegerField):
    """Whole US dollars, as staff type them: '9500', '9,500' or '$9,500'."""

    def process_formdata(self, valuelist):
        """Drop spaces, dollar signs and thousands commas before reading the integer."""
        if valuelist:
            valuelist = [re.sub(r"[\s$,]", "", valuelist[0])]
        super().process_formdata(valuelist)


def dollars(label: str, required: bool = True) -> DollarsField:
    """A whole-dollar field up to MAX_DOLLARS, optional when not `required`."""
    return DollarsField(
        label,
        validators=[
            InputRequired() if required else Optional(),
            NumberRange(1, MAX_DOLLARS, message="Enter whole dollars between 1 and 10,000,000."),
        ],
    )


def words(label: str, required: bool = False, description: str = "") -> TextAreaField:
    """A free-text field of at most MESSAGE_LENGTH characters, optional unless `required`."""
    return TextAreaField(
        label,
        validators=[InputRequired() if required else Optional(), Length(max=MESSAGE_LENGTH)],
        description=description,
    )


def options(labels: dict[str, str]) -> list[SelectChoice]:
    """Select or radio choices from a {value: label} dict."""
    return [SelectChoice(value, label) for value, label in labels.items()]


def not_in_past(form, field) -> None:
    """Validator: refuse a date before today."""
    if field.data and field.data < display.business_today():
        raise ValidationError("This date has passed.")


def not_in_future(form, field) -> None:
    """Validator: refuse a date after today."""
    if field.data and field.data > display.business_today():
        raise ValidationError("This date is still to come.")
