"""The forms of the sale by mail's steps on the status page (app/status/mail_views.py), read and
checked by WTForms with the rules of app/forms/rules.py, as the paperwork's are: the return
address, the provider's suggestion accepted in one click, the ID's two photos (the paperwork's
own ID photo check: decoded whole, kept as clean JPEGs) and the shipping conditions, one box
each."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField

from app.forms.rules import Choice, MaxLength, MinLength, Pattern, Required
from app.sale.purchase.paperwork import US_STATES
from app.shipping.preparation import CONDITIONS
from app.status.paperwork_fields import IdPhoto, choice, clean_text, text, zip_field

PHONE_PATTERN = r"\+?[0-9 ().\-]{10,20}"
TICK_EACH = "Please tick each condition: the insurance covers a parcel sent this way only."


class ReturnAddressForm(FlaskForm):
    """Where the label is from, and where the watch comes back to if it is not bought."""

    name = text(
        "Full name",
        "Please enter the name the carrier delivers to.",
        name_like=True,
        render_kw={"autocomplete": "name"},
    )
    street1 = text(
        "Street address",
        "Please enter your street address.",
        (3, 100),
        render_kw={"autocomplete": "address-line1"},
    )
    street2 = text(
        "Apartment, suite or floor",
        "",
        (1, 100),
        optional=True,
        description="Optional.",
        render_kw={"autocomplete": "address-line2"},
    )
    city = text(
        "City", "Please enter your city or town.", render_kw={"autocomplete": "address-level2"}
    )
    state = choice("State", "Please choose your state.", US_STATES)
    zip = zip_field()
    phone = StringField(
        "Phone number",
        filters=[clean_text],
        description="For the carrier, if it cannot deliver.",
        validators=[
            Required("Please enter a phone number the carrier can call."),
            MinLength(10, "Please enter a 10-digit US phone number."),
            MaxLength(20, "Please enter a 10-digit US phone number."),
            Pattern(PHONE_PATTERN, "Please enter a 10-digit US phone number."),
        ],
        render_kw={"autocomplete": "tel", "inputmode": "tel"},
    )

    def typed(self) -> dict:
        """The address as typed, by the provider's names."""
        return {
            name: self[name].data or ""
            for name in ("name", "street1", "street2", "city", "state", "zip", "phone")
        }

    def first_error(self) -> str | None:
        """The first refused field's message, in the form's order."""
        return next((f.errors[0] for f in self if f.errors), None)


class SuggestionForm(FlaskForm):
    """The provider's corrected address, accepted as it is."""

    use = StringField(
        validators=[Required("Nothing was chosen."), Choice(["yes"], "Nothing was chosen.")]
    )


class MailIdForm(FlaskForm):
    """The two sides of the seller's photo ID, checked as the paperwork checks them."""

    id_front = FileField(
        "Photo of the front of your ID",
        validators=[IdPhoto("Please add a photo of the front of your ID.")],
    )
    id_back = FileField(
        "Photo of the back of your ID",
        validators=[IdPhoto("Please add a photo of the back of your ID.")],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.id_photos: dict[str, bytes] = {}
        self.kept: dict = {}  # nothing is kept between tries here: both photos in one post

    def first_error(self) -> str | None:
        """The first refused photo's message."""
        return next((f.errors[0] for f in self if f.errors), None)


class ConditionsForm(FlaskForm):
    """The shipping policy's conditions: each box ticked on its own (names from CONDITIONS)."""

    def ticked(self) -> list[str]:
        """The conditions whose box was ticked."""
        return [name for name in CONDITIONS if self[name].data == "yes"]


for _name in CONDITIONS:
    setattr(
        ConditionsForm,
        _name,
        StringField(validators=[Required(TICK_EACH), Choice(["yes"], TICK_EACH)]),
    )


class PickupForm(FlaskForm):
    """A carrier pickup's day, one of those the page offers (app/shipping/pickups.py checks it
    is still one of them when the form is posted)."""

    day = StringField(
        "Pickup day",
        validators=[
            Required("Please choose a day for the pickup."),
            Pattern(r"\d{4}-\d{2}-\d{2}", "Please choose one of the days offered."),
        ],
    )


class CancelPickupForm(FlaskForm):
    """Call the booked pickup off: nothing to fill in but its CSRF token."""
