"""The staff area's forms (Flask-WTF: every POST carries a CSRF token)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, StringField
from wtforms.validators import EqualTo, InputRequired, Length, ValidationError

from app.staff.accounts import PASSWORD_MAX_LENGTH, password_problem

CODE_HELP = "The 6-digit code from your authenticator app, or one of your recovery codes."


class SignInForm(FlaskForm):
    """Sign-in, first step: e-mail and password."""

    email = EmailField(
        "E-mail",
        validators=[InputRequired(), Length(max=254)],
        render_kw={"autocomplete": "username", "autofocus": True},
    )
    password = PasswordField(
        "Password", validators=[InputRequired()], render_kw={"autocomplete": "current-password"}
    )


def code_field(label: str = "Code", autofocus: bool = True) -> StringField:
    """A field for a TOTP or recovery code, as on the sign-in and confirm forms."""
    return StringField(
        label,
        validators=[InputRequired(), Length(max=40)],
        description=CODE_HELP,
        render_kw={"autocomplete": "one-time-code", "autofocus": autofocus, "spellcheck": "false"},
    )


class CodeForm(FlaskForm):
    """Sign-in, second step: a TOTP code or a recovery code."""

    code = code_field()


class NewPasswordForm(FlaskForm):
    """Enrolment: choose a password, typed twice."""

    password = PasswordField(
        "New password",
        validators=[InputRequired(), Length(max=PASSWORD_MAX_LENGTH)],
        description="At least 12 characters. A few unrelated words make a good one.",
        render_kw={"autocomplete": "new-password", "autofocus": True},
    )
    confirm = PasswordField(
        "The same password again",
        validators=[InputRequired(), EqualTo("password", message="The two passwords differ.")],
        render_kw={"autocomplete": "new-password"},
    )


class FirstCodeForm(FlaskForm):
    """Enrolment: a first code from the newly set-up app, to confirm it works."""

    code = StringField(
        "Code from the app",
        validators=[InputRequired(), Length(max=10)],
        description="Six digits; the app shows a new one every 30 seconds.",
        render_kw={"autocomplete": "one-time-code", "inputmode": "numeric"},
    )


class ConfirmForm(FlaskForm):
    """Both factors again, before an export or an erasure."""

    password = PasswordField(
        "Password",
        validators=[InputRequired()],
        render_kw={"autocomplete": "current-password", "autofocus": True},
    )
    code = code_field(autofocus=False)


def sound_password(_form: FlaskForm, field: PasswordField) -> None:
    """A validator holding a new password to the rules of enrolment (accounts.password_problem)."""
    problem = password_problem(field.data or "")
    if problem:
        raise ValidationError(problem)


class ChangePasswordForm(FlaskForm):
    """The account page: the current password, then a new one typed twice."""

    current_password = PasswordField(
        "Current password",
        validators=[InputRequired()],
        render_kw={"autocomplete": "current-password", "autofocus": True},
    )
    password = PasswordField(
        "New password",
        validators=[InputRequired(), sound_password],
        description="At least 12 characters. A few unrelated words make a good one.",
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "The same new password again",
        validators=[InputRequired(), EqualTo("password", message="The two passwords differ.")],
        render_kw={"autocomplete": "new-password"},
    )


class NewRecoveryCodesForm(FlaskForm):
    """The account page: one button (with its CSRF token) for new recovery codes."""
