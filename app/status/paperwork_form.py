"""The sale paperwork's form, as the sell form is written (app/sell/forms.py): each field with
its cleaning filter and its rules (app/forms/rules.py), each rule with the one message the
seller reads when it fails and the HTML attribute, if any, that lets the browser check it
first; then the checks across fields, and the ID photos made clean JPEGs. The server runs every
check, so the form needs no script. Secret fields (the date of birth, the ID and bank numbers)
are never drawn back into the page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from flask import current_app
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField, TextAreaField
from wtforms.validators import StopValidation

from app.forms.rules import (
    Check,
    Choice,
    IsoDate,
    Letters,
    MaxLength,
    MinLength,
    NotAfter,
    NotBefore,
    Optional,
    Pattern,
    Required,
)
from app.leads.display import business_today
from app.photos import messages as photo_messages
from app.photos.forms import PHOTO_PROBLEMS
from app.photos.uploads import file_size, image_problem, safe_filename
from app.sale.purchase.paperwork import (
    ID_TYPES,
    US_STATES,
    UnreadablePhoto,
    aba_checksum_holds,
    clean_id_photo,
    issuer_for,
    latest_adult_birth,
    same_name,
)

FIRST_BIRTHDAY = date(1900, 1, 1)
NAME_CHARACTERS = " '’-."
NAME_MESSAGE = "Please use letters, spaces, hyphens, apostrophes and periods only."
PHOTO_TYPES = "image/png,image/jpeg,image/webp,image/heic,image/heif"
PHOTO_HINT = photo_messages.PHOTO_FORMATS + ", up to {mb}MB"
# Typed grouped as people group them: the browser lets separators through, the server drops them.
DIGITS = {"inputmode": "numeric", "pattern": r"[0-9 \-]+", "autocomplete": "off"}
CONSENT = "Please tick the box to agree to sign electronically."
# What the page says once after a refusal (the secret fields come back empty, by design).
TYPE_AGAIN = (
    "For your security we never show back your date of birth, ID number or bank numbers: "
    "please type them again, and choose your ID photos again."
)


def clean_text(value):
    """Trimmed, NFC-normalised, runs of spaces as one (as the seller meant it)."""
    return " ".join(unicodedata.normalize("NFC", value or "").split())


def without_separators(value):
    """A number as typed, without the spaces and hyphens people group digits with."""
    return re.sub(r"[\s-]", "", value or "").upper()


def zip_code(value):
    """A ZIP code as written: nine digits typed together become ZIP+4 (12345-6789)."""
    digits = re.sub(r"[\s-]", "", value or "")
    return f"{digits[:5]}-{digits[5:]}" if re.fullmatch(r"\d{9}", digits) else clean_text(value)


def one_line(value):
    """An address typed over several lines, as one line with commas."""
    lines = (clean_text(line) for line in (value or "").splitlines())
    return ", ".join(line for line in lines if line)


def text(label, missing, length=(2, 100), name_like=False, optional=False, **options):
    """A text field of `length` characters (a name's characters only, when `name_like`)."""
    low, high = length
    words = f"Please use {low} to {high} characters."
    rules = [Optional() if optional else Required(missing)]
    rules += [MinLength(low, words), MaxLength(high, words)]
    if name_like:
        rules.append(Letters(NAME_CHARACTERS, NAME_MESSAGE))
    field = TextAreaField if options.pop("lines", False) else StringField
    filters = [options.pop("clean", clean_text)]
    return field(label, filters=filters, validators=rules, **options)


def day(label, missing, *rules, **render_kw):
    """A date field (YYYY-MM-DD, as date inputs send it) with rules on the date itself."""
    validators = [Required(missing), IsoDate(missing), *rules]
    return StringField(label, validators=validators, render_kw={"type": "date"} | render_kw)


def choice(label, missing, options: dict):
    """One of `options` (a select's values)."""
    return StringField(label, validators=[Required(missing), Choice(list(options), missing)])


def digits(label, missing, rules, maxlength, description=""):
    """A bank number in digits, the spaces and hyphens people type dropped."""
    return StringField(
        label,
        filters=[without_separators],
        validators=[Required(missing), *rules],
        description=description,
        render_kw=DIGITS | {"maxlength": maxlength},
    )


def account_digits(label, missing):
    """An account number: 4 to 17 digits."""
    return digits(
        label, missing, [Pattern(r"[0-9]{4,17}", "An account number has 4 to 17 digits.")], 21
    )


class IdPhoto:
    """An ID photo: there, not too large, an image by its content; then decoded whole and kept on
    the form as a clean JPEG (`form.id_photos`), or refused with the one message that says why."""

    def __init__(self, missing: str):
        self.missing = missing

    def __call__(self, form, field) -> None:
        upload = field.data
        if upload is None or not getattr(upload, "filename", ""):
            raise StopValidation(self.missing)
        config, name = current_app.config, safe_filename(upload.filename)
        if file_size(upload) > config["PHOTO_MAX_BYTES"]:
            raise StopValidation(photo_messages.message(photo_messages.PHOTO_TOO_LARGE, name=name))
        if problem := image_problem(upload, config["PHOTO_MAX_PIXELS"]):
            raise StopValidation(photo_messages.message(PHOTO_PROBLEMS[problem], name=name))
        try:
            form.id_photos[field.name] = clean_id_photo(upload.stream.read())
        except UnreadablePhoto as error:
            damaged = photo_messages.message(photo_messages.PHOTO_DAMAGED, name=name)
            raise StopValidation(damaged) from error


@dataclass(frozen=True)
class Agreement:
    """A check across fields, shown by the field `name`; run once each of `fields` passed its own
    rules."""

    name: str
    fields: tuple[str, ...]
    message: str
    holds: Callable[[FlaskForm], bool]


class PaperworkForm(FlaskForm):
    """The seller's details, their ID, where we pay them, and their signature."""

    legal_name = text(
        "Full legal name",
        "Please enter your full legal name, as on your ID.",
        name_like=True,
        description="As it appears on your photo ID.",
        render_kw={"autocomplete": "name"},
    )
    street_address = text(
        "Street address",
        "Please enter your street address.",
        (5, 200),
        lines=True,
        clean=one_line,
        render_kw={"autocomplete": "street-address", "rows": 2},
    )
    city = text(
        "City", "Please enter your city or town.", render_kw={"autocomplete": "address-level2"}
    )
    region = choice("State", "Please choose your state.", US_STATES)
    postal_code = StringField(
        "ZIP code",
        filters=[zip_code],
        validators=[
            Required("Please enter your ZIP code."),
            Pattern(r"\d{5}(-\d{4})?", "Please enter a 5-digit ZIP code, or ZIP+4 (12345-6789)."),
        ],
        render_kw={
            "autocomplete": "postal-code",
            "inputmode": "numeric",
            "maxlength": 10,
            "pattern": r"\d{5}(-?\d{4})?",
        },
    )
    birth_date = day(
        "Date of birth",
        "Please enter your date of birth as a full date.",
        NotAfter(business_today, "Your date of birth cannot be in the future."),
        NotBefore(lambda: FIRST_BIRTHDAY, "Please check the year of your date of birth."),
        NotAfter(latest_adult_birth, "You must be 18 or older to sell us a watch."),
        autocomplete="bday",
    )
    id_type = choice("Type of photo ID", "Please choose the type of your photo ID.", ID_TYPES)
    id_number = StringField(
        "ID number",
        filters=[without_separators],
        validators=[
            Required("Please enter the number printed on your ID."),
            Pattern(r"[A-Z0-9]{4,20}", "An ID number has 4 to 20 letters and digits."),
        ],
        render_kw={
            "autocomplete": "off",
            "maxlength": 30,
            "spellcheck": "false",
            "autocapitalize": "characters",
        },
    )
    id_issuer = text(
        "Issued by",
        "",
        (2, 60),
        name_like=True,
        optional=True,
        description="The state on a driver's license or state ID card, the country "
        "on a passport of another country. Not needed for a US passport.",
    )
    id_expires_on = day(
        "Expiry date",
        "Please enter your ID's expiry date.",
        NotBefore(business_today, "This ID has expired: please use one that is still valid."),
    )
    id_front = FileField(
        "Photo of the front of your ID",
        validators=[IdPhoto("Please add a photo of the front of your ID.")],
    )
    id_back = FileField(
        "Photo of the back of your ID",
        validators=[IdPhoto("Please add a photo of the back of your ID.")],
    )
    account_holder = text(
        "Account holder's name",
        "Please enter the name on the account.",
        name_like=True,
        description="The account should be in your name.",
        render_kw={"autocomplete": "name"},
    )
    routing_number = digits(
        "Routing number",
        "Please enter the account's routing number.",
        [
            Pattern(r"[0-9]{9}", "A routing number has 9 digits."),
            Check(
                aba_checksum_holds,
                "This routing number is not valid: please compare it with a "
                "check or ask your bank.",
            ),
        ],
        11,
        description="9 digits, printed at the bottom left of a check.",
    )
    account_number = account_digits("Account number", "Please enter the account number.")
    account_number_again = account_digits(
        "Account number again", "Please type the account number a second time."
    )
    esign_consent = StringField(
        "I agree to sign electronically",
        validators=[Required(CONSENT), Choice(["yes"], CONSENT)],
    )
    signed_name = text(
        "Type your full legal name to sign",
        "Please type your full legal name to sign.",
        render_kw={"autocomplete": "off"},
    )

    SECRETS = ("birth_date", "id_number", "routing_number", "account_number",
               "account_number_again")  # fmt: skip
    PHOTOS = ("id_front", "id_back")
    AGREEMENTS = (
        Agreement(
            "id_issuer", ("id_type", "id_issuer"),
            "Please enter the state that issued your license or ID card, or the country that "
            "issued your passport.",
            lambda form: issuer_for(form.id_type.data, form.id_issuer.data) is not None,
        ),
        Agreement(
            "account_number_again", ("account_number", "account_number_again"),
            "The two account numbers do not match: please type them again.",
            lambda form: form.account_number.data == form.account_number_again.data,
        ),
        Agreement(
            "signed_name", ("legal_name", "signed_name"),
            "Your signature must be your full legal name, exactly as you typed it above.",
            lambda form: same_name(form.signed_name.data, form.legal_name.data),
        ),
    )  # fmt: skip

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.id_photos: dict[str, bytes] = {}

    def validate(self, extra_validators=None) -> bool:
        """Every field's rules, then the checks across fields that passed their own."""
        valid = super().validate(extra_validators)
        for agreement in self.AGREEMENTS:
            if any(self[name].errors for name in agreement.fields):
                continue
            if not agreement.holds(self):
                self[agreement.name].errors = [agreement.message]
                valid = False
        return valid

    def first_errors(self) -> dict[str, str]:
        """One message per refused field, in the form's order."""
        return {f.name: f.errors[0] for f in self if f.errors and f.name != "csrf_token"}

    def values(self) -> dict:
        """The cleaned values the record keeps, the ID's issuer as the record names it."""
        skipped = {*self.PHOTOS, "csrf_token"}
        values = {field.name: field.data for field in self if field.name not in skipped}
        return values | {"id_issuer": issuer_for(self.id_type.data, self.id_issuer.data)}

    def forget_secrets(self) -> None:
        """Blank the secret fields, so that a refused form is drawn again without them."""
        for name in self.SECRETS:
            self[name].data = ""
