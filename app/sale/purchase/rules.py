"""The sale paperwork's rules: each field of the seller's form, how its value is cleaned, what
it must be (each check with the words the seller sees when it fails) and what the browser is
told to check first (HTML attributes). The server runs every check; the attributes only spare
a round trip, so the form needs no script. One list, read by the page and by the tests.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date

from flask import current_app
from werkzeug.datastructures import FileStorage

from app.leads.display import business_today
from app.photos import messages as photo_messages
from app.photos.forms import PHOTO_PROBLEMS
from app.photos.uploads import file_size, image_problem, safe_filename
from app.sale.purchase.paperwork import ID_TYPES, UnreadablePhoto, clean_id_photo
from app.sale.purchase.record import years_later

US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
    "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
    "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin",
    "WY": "Wyoming",
}  # fmt: skip
STATE_IDS = ("drivers_license", "state_id")
UNITED_STATES = "United States"
US_NAMES = {"us", "usa", "u.s.", "u.s.a.", "united states", "united states of america"}
ADULT_AGE = 18
FIRST_BIRTH_YEAR = 1900
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
NAME_CHARACTERS = " '’-."
NAME_MESSAGE = "Please use letters, spaces, hyphens, apostrophes and periods only."
# What the page says once after a refusal (the secret fields come back empty, by design).
TYPE_AGAIN = (
    "For your security we never show back your date of birth, ID number or bank numbers: "
    "please type them again, and choose your ID photos again."
)


def clean_text(value: str) -> str:
    """Trimmed, NFC-normalised, runs of spaces as one (as the seller meant it)."""
    return " ".join(unicodedata.normalize("NFC", value).split())


def without_separators(value: str) -> str:
    """A number as typed, without the spaces and hyphens people group digits with."""
    return re.sub(r"[\s-]", "", value).upper()


def zip_code(value: str) -> str:
    """A ZIP code as written: nine digits typed together become ZIP+4 (12345-6789)."""
    digits = re.sub(r"[\s-]", "", value)
    return f"{digits[:5]}-{digits[5:]}" if re.fullmatch(r"\d{9}", digits) else clean_text(value)


def one_line(value: str) -> str:
    """An address typed over several lines, as one line with commas."""
    lines = (clean_text(line) for line in value.splitlines())
    return ", ".join(line for line in lines if line)


def as_date(value: str) -> date | None:
    """A YYYY-MM-DD date (what a date input sends), or None."""
    try:
        return date.fromisoformat(value) if ISO_DATE.fullmatch(value) else None
    except ValueError:
        return None


def is_name(value: str) -> bool:
    """Letters of any script with their marks, spaces, apostrophes, hyphens and periods."""
    return all(c in NAME_CHARACTERS or unicodedata.category(c)[0] in "LM" for c in value)


def aba_checksum_holds(digits: str) -> bool:
    """The ABA routing number's check digit: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10."""
    d = [int(c) for c in digits]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


def adult_on(day: date, birth: date) -> bool:
    """Whether someone born on `birth` is ADULT_AGE or older on `day`."""
    return years_later(birth, ADULT_AGE) <= day


def latest_adult_birth() -> str:
    """The latest date of birth of someone ADULT_AGE or older today (the date input's max)."""
    return years_later(business_today(), -ADULT_AGE).isoformat()


def same_name(typed: str, legal: str) -> bool:
    """Whether a typed signature is the legal name, ignoring case and spaces."""
    return "".join(typed.split()).casefold() == "".join(legal.split()).casefold()


def issuer_for(id_type: str, typed: str) -> str | None:
    """Who issued the ID, as the record keeps it: a state's name for a driver's license or
    state ID card, the United States for a US passport, the country typed for another; None
    when the two do not fit together."""
    is_us = typed.casefold() in US_NAMES
    if id_type in STATE_IDS:
        by_name = {name.casefold(): name for name in US_STATES.values()}
        return US_STATES.get(typed.upper()) or by_name.get(typed.casefold())
    if id_type == "us_passport":
        return UNITED_STATES if is_us or not typed else None
    return typed if typed and not is_us else None


@dataclass(frozen=True)
class Check:
    """One thing a value must be, and what the seller reads when it is not."""

    message: str
    holds: Callable[[str], bool]


@dataclass(frozen=True)
class Field:
    """One field of the form: its label, how its value is cleaned, its checks in order (the
    first that fails is the one message shown), and its HTML attributes (a callable value is
    worked out when the page is drawn). A secret field is never shown back."""

    name: str
    label: str
    missing: str
    checks: tuple[Check, ...] = ()
    html: dict = field(default_factory=dict)
    clean: Callable[[str], str] = clean_text
    required: bool = True
    secret: bool = False
    hint: str = ""

    def problem(self, value: str) -> str | None:
        """Why the cleaned value is refused, or None."""
        if not value:
            return self.missing if self.required else None
        return next((check.message for check in self.checks if not check.holds(value)), None)

    def attributes(self) -> dict:
        """What the browser checks before sending (required first, then the field's own)."""
        html = {key: value() if callable(value) else value for key, value in self.html.items()}
        return ({"required": True} if self.required else {}) | html


@dataclass(frozen=True)
class Agreement:
    """A check across fields, shown by the field `name`; run once each of `fields` passed its
    own checks."""

    name: str
    fields: tuple[str, ...]
    message: str
    holds: Callable[[dict], bool]


def text(name, label, missing, length=(2, 100), name_like=False, **options) -> Field:
    """A text field of `length` characters (a name's characters only, when `name_like`)."""
    low, high = length
    checks = [Check(f"Please use {low} to {high} characters.", lambda v: low <= len(v) <= high)]
    if name_like:
        checks.append(Check(NAME_MESSAGE, is_name))
    html = {"maxlength": high} | options.pop("html", {})
    return Field(name, label, missing, tuple(checks), html, **options)


def date_field(name, label, missing, checks, secret=False, **html) -> Field:
    """A date field (YYYY-MM-DD, as date inputs send it) with checks on the date itself."""
    on_date = [Check(message, lambda v, test=test: test(as_date(v))) for message, test in checks]
    checks = (Check(missing, as_date), *on_date)
    return Field(name, label, missing, checks, {"type": "date"} | html, secret=secret)


def choice(name, label, missing, options: dict) -> Field:
    """One of `options` (a select's values)."""
    return Field(name, label, missing, (Check(missing, lambda v: v in options),))


def digits(name, label, missing, checks: tuple[Check, ...], maxlength: int, hint="") -> Field:
    """A bank number, kept secret, in digits (the spaces and hyphens people type dropped)."""
    html = {"inputmode": "numeric", "pattern": r"[0-9 \-]+", "autocomplete": "off"}
    return Field(name, label, missing, checks, html | {"maxlength": maxlength},
                 without_separators, secret=True, hint=hint)  # fmt: skip


def count_of_digits(low: int, high: int, message: str) -> Check:
    """From `low` to `high` ASCII digits, nothing else."""
    return Check(message, lambda v: re.fullmatch(rf"[0-9]{{{low},{high}}}", v) is not None)


ACCOUNT_DIGITS = count_of_digits(4, 17, "An account number has 4 to 17 digits.")


FIELDS = {f.name: f for f in (
    text("legal_name", "Full legal name", "Please enter your full legal name, as on your ID.",
         name_like=True, hint="As it appears on your photo ID.", html={"autocomplete": "name"}),
    text("street_address", "Street address", "Please enter your street address.", (5, 200),
         clean=one_line, html={"autocomplete": "street-address", "rows": 2}),
    text("city", "City", "Please enter your city or town.",
         html={"autocomplete": "address-level2"}),
    choice("region", "State", "Please choose your state.", US_STATES),
    Field("postal_code", "ZIP code", "Please enter your ZIP code.",
          (Check("Please enter a 5-digit ZIP code, or ZIP+4 (12345-6789).",
                 lambda v: re.fullmatch(r"\d{5}(-\d{4})?", v) is not None),),
          {"autocomplete": "postal-code", "inputmode": "numeric", "maxlength": 10,
           "pattern": r"\d{5}(-?\d{4})?"}, zip_code),
    date_field("birth_date", "Date of birth", "Please enter your date of birth as a full date.", (
        ("Your date of birth cannot be in the future.", lambda d: d <= business_today()),
        ("Please check the year of your date of birth.", lambda d: d.year >= FIRST_BIRTH_YEAR),
        ("You must be 18 or older to sell us a watch.", lambda d: adult_on(business_today(), d)),
    ), secret=True, autocomplete="bday", min=f"{FIRST_BIRTH_YEAR}-01-01", max=latest_adult_birth),
    choice("id_type", "Type of photo ID", "Please choose the type of your photo ID.", ID_TYPES),
    Field("id_number", "ID number", "Please enter the number printed on your ID.",
          (Check("An ID number has 4 to 20 letters and digits.",
                 lambda v: re.fullmatch(r"[A-Z0-9]{4,20}", v) is not None),),
          {"autocomplete": "off", "maxlength": 30, "spellcheck": "false",
           "autocapitalize": "characters"}, without_separators, secret=True),
    text("id_issuer", "Issued by", "", (2, 60), name_like=True, required=False,
         hint="The state on a driver's license or state ID card, the country on a passport of "
              "another country. Not needed for a US passport."),
    date_field("id_expires_on", "Expiry date", "Please enter your ID's expiry date.", (
        ("This ID has expired: please use one that is still valid.",
         lambda d: d >= business_today()),
    ), min=lambda: business_today().isoformat()),
    text("account_holder", "Account holder's name", "Please enter the name on the account.",
         name_like=True, hint="The account should be in your name.",
         html={"autocomplete": "name"}),
    digits("routing_number", "Routing number", "Please enter the account's routing number.", (
        count_of_digits(9, 9, "A routing number has 9 digits."),
        Check("This routing number is not valid: please compare it with a check or ask your bank.",
              aba_checksum_holds),
    ), 11, hint="9 digits, printed at the bottom left of a check."),
    digits("account_number", "Account number", "Please enter the account number.",
           (ACCOUNT_DIGITS,), 21),
    digits("account_number_again", "Account number again",
           "Please type the account number a second time.", (ACCOUNT_DIGITS,), 21),
    Field("esign_consent", "I agree to sign electronically",
          "Please tick the box to agree to sign electronically.",
          (Check("Please tick the box to agree to sign electronically.", lambda v: v == "yes"),)),
    text("signed_name", "Type your full legal name to sign",
         "Please type your full legal name to sign.", html={"autocomplete": "off"}),
)}  # fmt: skip
AGREEMENTS = (
    Agreement(
        "id_issuer",
        ("id_type", "id_issuer"),
        "Please enter the state that issued your license or ID card, or the country that "
        "issued your passport.",
        lambda v: issuer_for(v["id_type"], v["id_issuer"]) is not None,
    ),
    Agreement(
        "account_number_again",
        ("account_number", "account_number_again"),
        "The two account numbers do not match: please type them again.",
        lambda v: v["account_number"] == v["account_number_again"],
    ),
    Agreement(
        "signed_name",
        ("legal_name", "signed_name"),
        "Your signature must be your full legal name, exactly as you typed it above.",
        lambda v: same_name(v["signed_name"], v["legal_name"]),
    ),
)
PHOTOS = {
    "id_front": ("Photo of the front of your ID", "Please add a photo of the front of your ID."),
    "id_back": ("Photo of the back of your ID", "Please add a photo of the back of your ID."),
}
PHOTO_TYPES = "image/png,image/jpeg,image/webp,image/heic,image/heif"
PHOTO_HINT = photo_messages.PHOTO_FORMATS + ", up to {mb}MB"


@dataclass
class Outcome:
    """What the form's checks made of one post: the cleaned values and the ID photos as clean
    JPEGs, or the message for each field refused."""

    values: dict = field(default_factory=dict)
    photos: dict[str, bytes] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def photo_problem(upload: FileStorage | None, missing: str) -> str | None:
    """Why an ID photo is refused before it is decoded (none, too large, not an image), or None."""
    if upload is None or not upload.filename:
        return missing
    config = current_app.config
    name = safe_filename(upload.filename)
    if file_size(upload) > config["PHOTO_MAX_BYTES"]:
        return photo_messages.message(photo_messages.PHOTO_TOO_LARGE, name=name)
    problem = image_problem(upload, config["PHOTO_MAX_PIXELS"])
    return photo_messages.message(PHOTO_PROBLEMS[problem], name=name) if problem else None


def check_photos(uploads: Mapping[str, FileStorage], outcome: Outcome) -> None:
    """Each ID photo checked, then decoded and made a clean JPEG (into `outcome`)."""
    for name, (_, missing) in PHOTOS.items():
        upload = uploads.get(name)
        problem = photo_problem(upload, missing)
        if problem is None:
            try:
                outcome.photos[name] = clean_id_photo(upload.stream.read())
            except UnreadablePhoto:
                filename = safe_filename(upload.filename)
                problem = photo_messages.message(photo_messages.PHOTO_DAMAGED, name=filename)
        if problem:
            outcome.errors[name] = problem


def check(form: Mapping[str, str], uploads: Mapping[str, FileStorage]) -> Outcome:
    """Every field's checks, then the checks across fields, then the photos."""
    outcome = Outcome()
    for name, rule in FIELDS.items():
        value = rule.clean(form.get(name, ""))
        outcome.values[name] = value
        if problem := rule.problem(value):
            outcome.errors[name] = problem
    for agreement in AGREEMENTS:
        passed = not any(name in outcome.errors for name in agreement.fields)
        if passed and not agreement.holds(outcome.values):
            outcome.errors[agreement.name] = agreement.message
    values = outcome.values
    if not {"id_type", "id_issuer"} & outcome.errors.keys():
        values["id_issuer"] = issuer_for(values["id_type"], values["id_issuer"])
    check_photos(uploads, outcome)
    return outcome


def shown_back(form: Mapping[str, str]) -> dict:
    """What a refused form is drawn again with: what the seller typed, but no secret field."""
    return {name: form.get(name, "") for name, rule in FIELDS.items() if not rule.secret}
