"""The sale paperwork's form, as the sell form is written (app/sell/forms.py): each field with
its cleaning filter and its rules (app/forms/rules.py; the kinds of field in
app/status/paperwork_fields.py), each rule with the one message the
seller reads when it fails and the HTML attribute, if any, that lets the browser check it
first; then the checks across fields, and the ID photos made clean JPEGs. The server runs every
check, so the form needs no script. Secret fields (the date of birth, the ID and bank numbers)
are never drawn back into the page: after a refusal, those that passed their rules, and the ID
photos, are kept server-side in the lead's draft (app/sale/purchase/drafts.py) and taken from it
when left empty, so the seller types again only what was wrong. The declaration signed is the
one the page showed: the form carries the name it showed (`declaration_name`), and a name typed
since is shown in the declaration before anything is signed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import StringField

from app.forms.rules import Check, Choice, NotAfter, NotBefore, Pattern, Required
from app.leads.display import business_today
from app.photos import messages as photo_messages
from app.sale.purchase.paperwork import (
    ID_TYPES,
    US_STATES,
    aba_checksum_holds,
    issuer_for,
    latest_adult_birth,
    same_name,
)
from app.status.paperwork_fields import (
    IdPhoto,
    account_digits,
    choice,
    clean_text,
    day,
    digits,
    one_line,
    text,
    without_separators,
    zip_field,
)

FIRST_BIRTHDAY = date(1900, 1, 1)
PHOTO_TYPES = "image/png,image/jpeg,image/webp,image/heic,image/heif"
PHOTO_HINT = photo_messages.PHOTO_FORMATS + ", up to {mb}MB"
CONSENT = "Please tick the box to agree to sign electronically."
# What the page says once after a refusal (the secret fields come back empty, by design).
TYPE_AGAIN = (
    "For your security we never show your date of birth, ID number or bank numbers back. "
    "Those marked \u201ckept\u201d are held from this try, encrypted: leave them empty, and "
    "type or choose again only what is marked wrong."
)
# What the page says by a field whose value the draft holds.
KEPT = "Kept from your last try. Type it again only to change it."
KEPT_PHOTO = "Kept from your last try. Choose a file only to replace it."
KEPT_ACCOUNT = (
    "Kept from your last try: the account ending {last4}. Type it again only to change it."
)
KEPT_WITH_ACCOUNT = "Kept with the account number."
READ_DECLARATION = (
    "Nothing is signed yet. Please read your declaration, now with your name in it, and press "
    "\u201cSign and send\u201d again: everything you entered is kept."
)


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
    postal_code = zip_field(pattern=r"\d{5}(-?\d{4})?")
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
    declaration_name = StringField(filters=[clean_text])  # hidden: the name the declaration showed

    SECRETS = ("birth_date", "id_number", "routing_number", "account_number",
               "account_number_again")  # fmt: skip
    PHOTOS = ("id_front", "id_back")
    # Kept in the draft each on its own; the account number only with its repetition.
    KEPT_ALONE = ("birth_date", "id_number", "routing_number")
    KEPT_TOGETHER = ("account_number", "account_number_again")
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

    def __init__(self, *args, kept: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.id_photos: dict[str, bytes] = {}
        self.kept: dict[str, str | bytes] = kept or {}

    def validate(self, extra_validators=None) -> bool:
        """The draft's values where left empty, every field's rules, then the checks across
        fields that passed their own."""
        self.fill_in_kept()
        valid = super().validate(extra_validators)
        for agreement in self.AGREEMENTS:
            if any(self[name].errors for name in agreement.fields):
                continue
            if not agreement.holds(self):
                self[agreement.name].errors = [agreement.message]
                valid = False
        return valid

    def fill_in_kept(self) -> None:
        """Each secret left empty this time, from the draft where it was kept (both account
        numbers or neither)."""
        for name in self.KEPT_ALONE:
            if not self[name].data and name in self.kept:
                self[name].data = self.kept[name]
        pair = self.KEPT_TOGETHER
        if not any(self[name].data for name in pair) and all(name in self.kept for name in pair):
            for name in pair:
                self[name].data = self.kept[name]

    def to_keep(self) -> dict[str, str | bytes]:
        """The secrets and ID photos that passed their rules: the draft for the next try."""
        passed = [name for name in (*self.SECRETS, *self.PHOTOS) if not self[name].errors]
        if not all(name in passed for name in self.KEPT_TOGETHER):
            passed = [name for name in passed if name not in self.KEPT_TOGETHER]
        texts = {name: self[name].data for name in passed if name in self.SECRETS}
        photos = {name: self.id_photos[name] for name in passed if name in self.id_photos}
        return {name: value for name, value in texts.items() if value} | photos

    def declaration_unread(self) -> bool:
        """Whether the declaration the page showed named someone other than the legal name
        now typed (as when it was first shown, before any name was typed)."""
        return self.declaration_name.data != self.legal_name.data

    def first_errors(self) -> dict[str, str]:
        """One message per refused field, in the form's order."""
        return {f.name: f.errors[0] for f in self if f.errors and f.name != "csrf_token"}

    def values(self) -> dict:
        """The cleaned values the record keeps, the ID's issuer as the record names it."""
        skipped = {*self.PHOTOS, "csrf_token", "declaration_name"}
        values = {field.name: field.data for field in self if field.name not in skipped}
        return values | {"id_issuer": issuer_for(self.id_type.data, self.id_issuer.data)}

    def forget_secrets(self) -> None:
        """Blank the secret fields, so that a refused form is drawn again without them."""
        for name in self.SECRETS:
            self[name].data = ""
