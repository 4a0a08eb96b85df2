"""The forms of a claim under the parcel policy (app/shipping/claims.py), on a parcel's staff
page: one staff member opens a claim for a parcel lost or damaged, with the insurer's claim
reference; another records how the insurer settled it."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import DataRequired, Length

from app.forms.fields import dollars, options, words
from app.shipping import claims


class ClaimForm(FlaskForm):
    """Open a claim: lost or damaged, the insurer's reference, what happened."""

    kind = SelectField(
        "Lost or damaged", choices=options(claims.KINDS), validators=[DataRequired()]
    )
    reference = StringField(
        "Insurer's claim reference",
        validators=[DataRequired("Enter the reference the insurer gave the claim."),
                    Length(max=60, message="A claim reference has at most 60 characters.")],
        description="As the insurer gave it when the claim was filed.",
    )  # fmt: skip
    note = words("What happened, for the record", required=True)


class SettleForm(FlaskForm):
    """Record the insurer's answer: paid, with the amount, or refused."""

    outcome = SelectField(
        "The insurer's answer", choices=options(claims.OUTCOMES), validators=[DataRequired()]
    )
    amount = dollars("Amount paid (USD)", required=False)
