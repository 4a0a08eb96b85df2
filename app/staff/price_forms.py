"""The buy-price guide's forms (docs/prices.md): one entry as staff type it on /staff/prices, the
same rules for every row of an imported CSV file (one rule set, whichever way an entry comes),
and the import's file field. The guide's records are app/prices/guide.py; the views
app/staff/views/prices.py."""

from __future__ import annotations

import re

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, Regexp, ValidationError

from app.catalog import BRANDS, OTHER_BRAND
from app.forms.fields import dollars, options

LOWEST = 100  # dollars: below it a range is a typo, not a watch we buy
WIDEST = 3  # a range whose high is more than this times its low says nothing
REFERENCE = r"[0-9A-Z][0-9A-Z ./\-]*"
NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z '’.&/\-]*")


def upper_trimmed(value):
    """A reference as printed on the watch's papers: upper case, without spaces."""
    return "".join((value or "").split()).upper()


def names_list(value):
    """Names typed one per line or separated by ';', as the guide keeps them ('A; B')."""
    parts = re.split(r"[;\n]", value or "")
    return "; ".join(" ".join(part.split()) for part in parts if part.strip())


def plain_names(form, field) -> None:
    """Each name starts with a letter or digit and holds no character a spreadsheet or a page
    would read as something else."""
    for name in filter(None, (field.data or "").split("; ")):
        if not NAME.fullmatch(name):
            raise ValidationError(f"“{name[:40]}” may use letters, digits, spaces and . ' & / -.")


def percent(label: str, low: int, high: int, required: bool = False) -> IntegerField:
    """A whole percentage between `low` and `high` (empty allowed unless `required`)."""
    return IntegerField(
        label,
        validators=[
            InputRequired() if required else Optional(),
            NumberRange(low, high, message=f"Enter a whole percentage from {low} to {high}."),
        ],
        default=0 if required else None,
    )


class PriceEntryForm(FlaskForm):
    """One guide entry: what it covers, our buy range, and what each answer changes."""

    brand = SelectField(
        "Brand",
        choices=options({brand: brand for brand in BRANDS if brand != OTHER_BRAND}),
        validators=[InputRequired()],
    )
    reference = StringField(
        "Reference",
        filters=[upper_trimmed],
        validators=[
            InputRequired(),
            Length(2, 30),
            Regexp(rf"^{REFERENCE}$", message="Use letters, digits, spaces and . / - only."),
        ],
        description="As on the papers, e.g. 126610LN or 5711/1A-010.",
    )
    names = TextAreaField(
        "Model names and variants it covers",
        filters=[names_list],
        validators=[Length(max=500), plain_names],
        description="One per line, e.g. Submariner Date, Starbucks. Sellers who type no "
        "reference are matched by these.",
    )
    low = dollars("Low (USD)")
    high = dollars("High (USD)")
    excellent = percent("Excellent – like new (%)", -50, 50)
    good = percent("Good – moderate wear (%)", -90, 50)
    fair = percent("Fair – significant wear (%)", -90, 50)
    needs_service = percent("Needs service or repair (%)", -90, 50)
    no_box = percent("Without the original box (%)", -90, 0, required=True)
    no_papers = percent("Without the original papers (%)", -90, 0, required=True)

    GRADES = ("excellent", "good", "fair", "needs_service")

    def validate(self, extra_validators=None) -> bool:
        """Each field's rules, then the range's own: low at least LOWEST, high not below low nor
        more than WIDEST times it."""
        valid = super().validate(extra_validators)
        low, high = self.low.data, self.high.data
        if self.low.errors or self.high.errors or low is None or high is None:
            return False
        problem = None
        if low < LOWEST:
            problem = f"A range starts at ${LOWEST} at least."
        elif high < low:
            problem = "High is below low."
        elif high > WIDEST * low:
            problem = f"High is more than {WIDEST} times low: give a narrower range."
        if problem:
            self.high.errors.append(problem)
            return False
        return valid

    def values(self) -> dict:
        """The entry as the guide keeps it."""
        return {name: self[name].data for name in (
            "brand", "reference", "names", "low", "high", *self.GRADES, "no_box", "no_papers"
        )}  # fmt: skip


class RemoveEntryForm(FlaskForm):
    """Remove one entry (the button's form: its CSRF token only)."""


class PriceImportForm(FlaskForm):
    """A CSV file of guide entries (the export's columns)."""

    file = FileField("CSV file", validators=[InputRequired()])
