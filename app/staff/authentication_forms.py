"""The forms staff fill in at the authentication, on the lead page's purchase panel
(purchase_panel.py lists them with the exceptions' forms, money_forms.py): the watch's findings,
which ask the stolen-watch register about the serial and brand they give, a register check
recorded by hand with its certificate, the check of the seller's ID, and the choice to tell the
seller of a sale held for its checks."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, DateField, RadioField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, ValidationError

from app.forms.fields import not_in_future, options, words
from app.leads.display import business_today
from app.sale.purchase import authentication, register_asks, stolen_register
from app.sale.purchase.stolen_register import RESULTS as REGISTER_RESULTS
from app.shipping import returns


def line(label: str, description: str, length: int = 60) -> StringField:
    """A required one-line text field, trimmed."""
    return StringField(
        label,
        validators=[DataRequired(), Length(max=length)],
        filters=[lambda value: (value or "").strip()],
        description=description,
    )


class FindingsForm(FlaskForm):
    """The authentication's findings: the watch's identity as the watchmaker read it."""

    audited = "authentication_recorded"
    done = "Findings recorded. The final offer can now be made."

    brand = line(
        "Brand",
        "As the watch bears it, e.g. Rolex: the stolen-watch register is asked with this brand, "
        "not the one chosen on the sell form.",
    )
    model_reference = line("Model reference number", "As on the case, e.g. 126610LN.")
    serial_number = line("Serial number", "Exactly as engraved.")
    case_marks = words("Case marks (optional)", description="Hallmarks, engravings, case number.")
    movement_marks = words("Movement marks (optional)", description="Caliber and its numbers.")
    condition_findings = words("Condition findings", required=True)

    def take(self, lead_id: int, actor: str) -> int:
        """Put the findings on the record (a correction is a new event); the event's id."""
        return register_asks.record_findings_and_ask(lead_id, actor, self.data)


class RegisterCheckForm(FlaskForm):
    """A stolen-watch register check: where, when, what it said, and its certificate."""

    audited = "register_checked"
    done = "Register check recorded."

    provider = line("Register searched", "The register's name.", length=100)
    checked_on = DateField(
        "Date checked", validators=[InputRequired(), not_in_future], default=business_today
    )
    result = RadioField(
        "Result",
        choices=options(REGISTER_RESULTS),
        validators=[InputRequired(message="Choose the register's result.")],
    )
    certificate = FileField(
        "Certificate",
        validators=[FileRequired("Attach the register's certificate.")],
        description="The register's PDF or a photo of it, up to 10 MB.",
        render_kw={"accept": "application/pdf,image/png,image/jpeg,image/webp"},
    )

    def validate_certificate(self, field) -> None:
        """A PDF or an image, known by its bytes, of at most 10 MB; kept on the form."""
        data = field.data.read(stolen_register.CERTIFICATE_MAX_BYTES + 1)
        if len(data) > stolen_register.CERTIFICATE_MAX_BYTES:
            raise ValidationError("This file is over 10 MB: attach a smaller PDF or photo.")
        self.media_type = stolen_register.certificate_type(data)
        if self.media_type is None:
            raise ValidationError("This file is not a PDF or an image we can read.")
        self.certificate_bytes = data

    def take(self, lead_id: int, actor: str) -> int:
        """Put the check and its certificate on the record; the event's id."""
        check = {
            "provider": self.provider.data,
            "checked_on": self.checked_on.data.isoformat(),
            "result": self.result.data,
        }
        return stolen_register.record_check(
            lead_id, actor, check, self.certificate_bytes, self.media_type
        )


class VerifyIdForm(FlaskForm):
    """Staff confirm they compared the ID with the seller (on the paperwork page)."""

    audited = "id_verified"
    done = "ID verified: recorded with your name and the time."

    compared = BooleanField(
        "I have compared the ID photos and details with the seller",
        validators=[InputRequired(message="Tick the box once you have compared them.")],
    )

    def take(self, lead_id: int, actor: str) -> int:
        """Record that `actor` checked the ID, now; the event's id."""
        return authentication.verify_id(lead_id, actor)


class TellHoldForm(FlaskForm):
    """A staff member's choice to tell the seller their sale is on hold pending checks: until
    then, nothing the seller reads depends on the register's answer (returns.on_hold)."""

    audited = "hold_told"
    done = "The seller's page and e-mails now say only that the sale is on hold pending checks."

    told = BooleanField(
        "Tell the seller their sale is on hold pending checks (never why)",
        validators=[InputRequired(message="Tick the box to tell the seller.")],
    )

    def take(self, lead_id: int, actor: str) -> int:
        """Record the choice; the event's id."""
        return returns.tell_seller(lead_id, actor)
