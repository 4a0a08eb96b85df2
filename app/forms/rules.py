"""Validation rules that run in WTForms and describe themselves to the browser, for every form.

Each rule is a WTForms validator (stopping at the first failure, so a field has one message)
that also describes itself: as a small JSON description the SellForm island checks with the same
semantics (components/shared/validation.js), and as the HTML attributes a plain form's control
gets (`html()`: required, maxlength, min, max), so the browser checks what it can before a round
trip. A form is therefore the one source of every rule and message of its fields (the sell
form's are app/sell/forms.py's); neither the island nor a template has its own copy. Rules only
the server can run (`in_browser = False`) check what no attribute can say, such as a checksum.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date

from email_validator import EmailNotValidError, validate_email
from wtforms.validators import StopValidation


def clean_text(value):
    """Trim, then NFC-normalise, as the browser does before it checks a value."""
    return unicodedata.normalize("NFC", value.strip()) if isinstance(value, str) else value


class Rule:
    """One check with its message; kind and value tell the island how to run it."""

    kind = ""
    in_browser = True  # described to the island; False for checks only the server can run

    def __init__(self, message: str):
        self.message = message

    @property
    def value(self):
        """The rule's parameter as the island reads it (None: the kind says it all)."""
        return None

    def passes(self, value: str) -> bool:
        """Whether the value satisfies the rule (each subclass says how)."""
        raise NotImplementedError

    def __call__(self, form, field) -> None:
        if not self.passes(field.data or ""):
            raise StopValidation(self.message)

    def describe(self) -> dict:
        """The rule as JSON for the island: its kind, value and message."""
        return {"kind": self.kind, "value": self.value, "message": self.message}

    def html(self) -> dict:
        """The HTML attributes that let a browser check this rule itself (none by default)."""
        return {}


class Optional(Rule):
    """An empty value is valid and skips the remaining rules."""

    kind = "optional"

    def __init__(self):
        super().__init__("")

    def passes(self, value: str) -> bool:
        """Always true: an empty value is handled when called, stopping the rules after it."""
        return True

    def __call__(self, form, field) -> None:
        if not field.data:
            field.errors[:] = []
            raise StopValidation()


class MinLength(Rule):
    """At least `length` characters (code points, as the island counts them too)."""

    kind = "minLength"

    def __init__(self, length: int, message: str):
        super().__init__(message)
        self.length = length

    @property
    def value(self):
        """The length limit."""
        return self.length

    def passes(self, value: str) -> bool:
        """Whether the value has at least `length` characters."""
        return len(value) >= self.length


class MaxLength(MinLength):
    """At most `length` characters (code points, as the island counts them too)."""

    kind = "maxLength"

    def passes(self, value: str) -> bool:
        """Whether the value has at most `length` characters."""
        return len(value) <= self.length

    def html(self) -> dict:
        """maxlength: the browser stops typing at the limit."""
        return {"maxlength": self.length}


class Required(Rule):
    """A value must be given (a ticked box for a checkbox); the field's own words for a blank."""

    kind = "required"

    def passes(self, value) -> bool:
        """Whether anything was given."""
        return bool(value)

    def html(self) -> dict:
        """required: the browser asks for it before sending."""
        return {"required": True}


class Pattern(Rule):
    """A regular expression written in the syntax Python and JavaScript share."""

    kind = "pattern"

    def __init__(self, pattern: str, message: str):
        super().__init__(message)
        self.pattern = pattern
        self.compiled = re.compile(pattern)

    @property
    def value(self):
        """The regular expression's source, for the island to compile."""
        return self.pattern

    def passes(self, value: str) -> bool:
        """Whether the whole value matches the pattern."""
        return self.compiled.fullmatch(value) is not None


class Letters(Rule):
    """Letters of any script with their combining marks, plus a few extra characters.

    Python's `re` has no \\p{L}, so the server checks Unicode categories and the island gets the
    equivalent `\\p{L}\\p{M}` pattern generated from the same extra characters.
    """

    kind = "pattern"

    def __init__(self, extra: str, message: str):
        super().__init__(message)
        self.extra = extra

    @property
    def value(self):
        """The island's equivalent pattern: letters and marks (\\p{L}\\p{M}) plus the extras."""
        escaped = "".join("\\" + char if char in "-\\]^" else char for char in self.extra)
        return f"^[\\p{{L}}\\p{{M}}{escaped}]+$"

    def passes(self, value: str) -> bool:
        """Whether the value is non-empty and each character a letter, a mark or an extra."""
        return bool(value) and all(
            char in self.extra or unicodedata.category(char)[0] in "LM" for char in value
        )


class Choice(Rule):
    """One of a fixed list of values, as the form's select offers them."""

    kind = "choice"

    def __init__(self, choices: list[str], message: str):
        super().__init__(message)
        self.choices = list(choices)

    @property
    def value(self):
        """The allowed values."""
        return self.choices

    def passes(self, value: str) -> bool:
        """Whether the value is one of the choices."""
        return value in self.choices


class YearRange(Rule):
    """A year from `first` to the current year (the end moves with the calendar)."""

    kind = "range"

    def __init__(self, first: int, message: str):
        super().__init__(message)
        self.first = first

    @property
    def value(self):
        """The first and last years allowed: [first, this year]."""
        return [self.first, date.today().year]

    def passes(self, value: str) -> bool:
        """Whether the value is a year in ASCII digits within the range."""
        first, last = self.value
        return value.isascii() and value.isdigit() and first <= int(value) <= last


class EmailAddress(Rule):
    """email-validator's full check of an address (no DNS lookups), which also normalises it.

    Server only: the browser's quick syntax rule is the Pattern before it. An address this
    refuses gets the field's own message, which the island shows from the server's answer.
    """

    kind = "email"
    in_browser = False

    def passes(self, value: str) -> bool:
        """Whether email-validator accepts the address."""
        return self.normalised(value) is not None

    def normalised(self, value: str) -> str | None:
        """The address as email-validator normalises it, or None if it refuses it."""
        try:
            return validate_email(value, check_deliverability=False).normalized
        except EmailNotValidError:
            return None

    def __call__(self, form, field) -> None:
        address = self.normalised(field.data or "")
        if address is None:
            raise StopValidation(self.message)
        field.data = address


class Check(Rule):
    """A check only the server runs (a checksum, two fields that must agree): `test` says
    whether the value passes."""

    kind = "check"
    in_browser = False

    def __init__(self, test: Callable[[str], bool], message: str):
        super().__init__(message)
        self.test = test

    def passes(self, value: str) -> bool:
        """Whether `test` accepts the value."""
        return self.test(value)


class FormCheck(Check):
    """A check only the server runs that reads the rest of the form too (a choice another
    field's value rules out): `test(form, value)` says whether the value passes."""

    def __call__(self, form, field) -> None:
        if not self.test(form, field.data or ""):
            raise StopValidation(self.message)


def iso_date(value: str) -> date | None:
    """A YYYY-MM-DD date (what a date input sends), or None."""
    try:
        return date.fromisoformat(value) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else None
    except ValueError:
        return None


class IsoDate(Rule):
    """A full date as date inputs send it (YYYY-MM-DD)."""

    kind = "date"
    in_browser = False

    def passes(self, value: str) -> bool:
        """Whether the value is a real date written YYYY-MM-DD."""
        return iso_date(value) is not None


class NotAfter(Rule):
    """A date (checked by IsoDate before it) on or before `latest()`, worked out when it is
    checked or drawn: today, or the last birthday of someone just old enough."""

    kind = "max"
    in_browser = False
    attribute = "max"

    def __init__(self, bound: Callable[[], date], message: str):
        super().__init__(message)
        self.bound = bound

    def passes(self, value: str) -> bool:
        """Whether the date is within the bound."""
        return iso_date(value) <= self.bound()

    def html(self) -> dict:
        """max (or min): the date picker offers no day past the bound."""
        return {self.attribute: self.bound().isoformat()}


class NotBefore(NotAfter):
    """A date (checked by IsoDate before it) on or after `earliest()`."""

    kind = "min"
    attribute = "min"

    def passes(self, value: str) -> bool:
        """Whether the date is within the bound."""
        return iso_date(value) >= self.bound()


def html_attributes(field) -> dict:
    """A field's attributes for a plain form: what its rules tell the browser, then its own
    render_kw (presentation: autocomplete, inputmode, a looser pattern for typed separators)."""
    attributes = {}
    for rule in field.validators:
        if isinstance(rule, Rule):
            attributes |= rule.html()
    return attributes | dict(field.render_kw or {})
