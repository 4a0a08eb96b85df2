"""The privacy choices form: opt out of sharing with advertising platforms, or back in."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import RadioField
from wtforms.validators import InputRequired

OPT_OUT, OPT_IN = "opt-out", "opt-in"
CONFIRMATIONS = {
    OPT_OUT: "Saved: you have opted out of sharing on this browser.",
    OPT_IN: "Saved: you have opted back in on this browser.",
}


class ChoiceForm(FlaskForm):
    """The visitor's choice, sent by the button they pressed."""

    choice = RadioField(choices=list(CONFIRMATIONS), validators=[InputRequired()])

    def confirmation(self) -> str:
        """What the page says once the choice is saved."""
        return CONFIRMATIONS[self.choice.data]
