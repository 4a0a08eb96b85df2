"""The sell form: the seller's and the watch's fields, their rules and messages, and the photos'
limits."""

from __future__ import annotations

from flask import current_app
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, MultipleFileField, StringField, TextAreaField

from app.catalog import BRANDS, CONDITIONS
from app.forms.rules import (
    Check,
    Choice,
    EmailAddress,
    FormCheck,
    Letters,
    MaxLength,
    MinLength,
    Optional,
    Pattern,
    YearRange,
    clean_text,
)
from app.leads import handover
from app.photos import messages
from app.photos.forms import PhotoLimits
from app.sell import reach

# WHATWG's e-mail syntax (what type=email accepts), requiring a dot in the domain.
EMAIL_PATTERN = (
    r"^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~\-]+@[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9\-]{0,61}[a-zA-Z0-9])?)+$"
)
PHONE_PATTERN = r"^\+?[0-9 ()\-]+$"

EMAIL_MESSAGE = "Please enter a valid email address"


class SellForm(FlaskForm):
    """The sell form: every field with its rules and messages, checked here and in the island."""

    fullName = StringField(
        "Full Name",
        filters=[clean_text],
        validators=[
            MinLength(2, "Name must be at least 2 characters"),
            MaxLength(100, "Name must be less than 100 characters"),
            Letters(" '’-", "Name can only contain letters, spaces, hyphens, and apostrophes"),
        ],
    )
    email = StringField(
        "Email Address",
        filters=[clean_text],
        validators=[
            Pattern(EMAIL_PATTERN, EMAIL_MESSAGE),
            MaxLength(255, "Email must be less than 255 characters"),
            EmailAddress(EMAIL_MESSAGE),
        ],
    )
    phone = StringField(
        "Phone Number",
        filters=[clean_text],
        validators=[
            MinLength(8, "Phone number must be at least 8 digits"),
            MaxLength(20, "Phone number must be less than 20 characters"),
            Pattern(PHONE_PATTERN, "Please enter a valid phone number"),
        ],
    )
    watchBrand = StringField(
        "Watch Brand",
        filters=[clean_text],
        validators=[Choice(BRANDS, "Please select a watch brand")],
    )
    watchModel = StringField(
        "Model",
        filters=[clean_text],
        validators=[Optional(), MaxLength(100, "Model must be less than 100 characters")],
    )
    watchYear = StringField(
        "Year",
        filters=[clean_text],
        validators=[Optional(), YearRange(1900, "Please enter a valid year")],
    )
    watchCondition = StringField(
        "Condition",
        filters=[clean_text],
        validators=[Choice(CONDITIONS, "Please select watch condition")],
    )
    hasBox = BooleanField("Original box")
    hasPapers = BooleanField("Original papers")
    additionalDetails = TextAreaField(
        "Additional Details",
        filters=[clean_text],
        validators=[
            Optional(),
            MaxLength(2000, "Additional details must be less than 2000 characters"),
        ],
    )
    photos = MultipleFileField("Photos", validators=[PhotoLimits()])
    # Outside the island: where the visit came from, as the page's hidden fields and the island's
    # FormData carry it (checked and cleaned by app/sell/submission.py and attribution.py, never
    # a reason to refuse a seller), and the honeypot no person sees.
    utm_source = HiddenField()
    utm_medium = HiddenField()
    utm_campaign = HiddenField()
    utm_content = HiddenField()
    utm_term = HiddenField()
    metaEventId = HiddenField()
    adOptOut = HiddenField()
    fbc = HiddenField()
    gclid = HiddenField()
    gbraid = HiddenField()
    wbraid = HiddenField()
    google_click_seen = HiddenField()
    landing_page = HiddenField()
    referrer_host = HiddenField()
    website = StringField()

    RULE_FIELDS = (
        "fullName",
        "email",
        "phone",
        "watchBrand",
        "watchModel",
        "watchYear",
        "watchCondition",
        "additionalDetails",
    )

    VISIT_FIELDS = (
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "utm_content",
        "utm_term",
        "metaEventId",
        "adOptOut",
        "fbc",
        "gclid",
        "gbraid",
        "wbraid",
        "google_click_seen",
        "landing_page",
        "referrer_host",
    )

    def is_spam(self) -> bool:
        """People never see the honeypot field; form-filling bots usually fill it."""
        return bool((self.website.data or "").strip())

    def visit_values(self) -> dict[str, str]:
        """The visit's hidden fields as posted (each "" when absent), for the submission to
        check and clean."""
        return {name: self[name].data or "" for name in self.VISIT_FIELDS}

    def photo_room(self) -> int:
        """A new submission has room for PHOTO_MAX_COUNT photos."""
        return current_app.config["PHOTO_MAX_COUNT"]

    def too_many_photos(self) -> str:
        """The message for more files than PHOTO_MAX_COUNT."""
        return messages.message(messages.TOO_MANY_PHOTOS)

    def first_errors(self) -> dict[str, str]:
        """One message per invalid field: the first of its rules that failed."""
        return {
            name: errors[0]
            for name, errors in self.errors.items()
            if errors and name != "csrf_token"
        }

    def rules(self) -> dict:
        """Each field's label and rules, as the island needs them (generated, never copied)."""
        fields = {}
        for name in self.RULE_FIELDS:
            field = self[name]
            described = [rule.describe() for rule in field.validators if rule.in_browser]
            fields[name] = {
                "label": field.label.text,
                "required": not any(rule["kind"] == "optional" for rule in described),
                "rules": described,
            }
        for name in ("hasBox", "hasPapers", "photos"):
            fields[name] = {"label": self[name].label.text, "required": False, "rules": []}
        return fields

    def lead_fields(self) -> dict:
        """The validated values under the leads table's column names."""
        return {
            "full_name": self.fullName.data,
            "email": self.email.data,
            "phone": self.phone.data,
            "watch_brand": self.watchBrand.data,
            "watch_model": self.watchModel.data or None,
            "watch_year": int(self.watchYear.data) if self.watchYear.data else None,
            "watch_condition": self.watchCondition.data,
            "has_box": bool(self.hasBox.data),
            "has_papers": bool(self.hasPapers.data),
            "additional_details": self.additionalDetails.data or "",
        }

    def values(self) -> dict:
        """The typed values, for re-rendering the form after a failed submit (files excepted)."""
        values = {name: self[name].data or "" for name in self.RULE_FIELDS}
        return values | {"hasBox": bool(self.hasBox.data), "hasPapers": bool(self.hasPapers.data)}


def meeting_possible(form: SellForm, choice: str) -> bool:
    """In person only where we meet sellers: a ZIP code beyond every city's reach is offered
    the mail instead (a ZIP code that failed its own rules is left to their message)."""
    zip_code = form.postalCode.data or ""
    return choice != handover.IN_PERSON or bool(form.postalCode.errors) or reach.can_meet(zip_code)


class MailinSellForm(SellForm):
    """The sell form while the sale by mail is offered: also the seller's ZIP code and how
    they want to hand the watch over (in person, or by insured mail)."""

    postalCode = StringField(
        "ZIP Code",
        filters=[clean_text],
        validators=[
            Pattern(r"^[0-9]{5}$", "Please enter your 5-digit ZIP code"),
            Check(reach.is_known, "We could not find this ZIP code. Please check it"),
            Check(reach.in_states, "We can only buy from sellers in the 50 states and DC"),
        ],
    )
    handover = StringField(
        "How would you like to hand the watch over?",
        filters=[clean_text],
        validators=[
            Choice(list(handover.CHOICES), "Please choose how to hand the watch over"),
            FormCheck(
                meeting_possible,
                f"Your ZIP code is more than {reach.REACH_MILES} miles from the cities where we "
                "meet sellers, so we buy your watch by insured mail. Please choose insured mail",
            ),
        ],
    )

    RULE_FIELDS = (*SellForm.RULE_FIELDS, "postalCode", "handover")

    def lead_fields(self) -> dict:
        """The form's values, with the handover and the ZIP code under their column names."""
        return super().lead_fields() | {
            "handover": self.handover.data,
            "postal_code": self.postalCode.data,
        }

    def values(self) -> dict:
        """The typed values, the ZIP code and the handover chosen among them."""
        return super().values() | {
            "postalCode": self.postalCode.data or "",
            "handover": self.handover.data or "",
        }


def sell_form(**options) -> SellForm:
    """The sell form as the settings have it: the sale by mail's fields only while
    MAILIN_ENABLED is on; otherwise the form is exactly as it was before them."""
    if current_app.config["MAILIN_ENABLED"]:
        return MailinSellForm(**options)
    return SellForm(**options)
