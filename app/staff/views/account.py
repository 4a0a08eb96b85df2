"""Staff routes: sign-in (two steps), sign-out, enrolment and the account page with its new
password and new recovery codes (the leads inbox is app/staff/views/inbox.py).

Every view here except those marked `public` needs a full aal2 session (app/staff/auth.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from flask import flash, redirect, session, url_for

from app.leads import audit
from app.security.client import client_address
from app.staff import accounts, credentials, forms, queries, sessions, signin, throttle, totp
from app.staff.auth import (
    current_staff,
    public,
    record,
    require_recent_auth,
    staff_required,
)
from app.staff.pages import page

WAIT = "Too many attempts. Please wait {seconds} seconds, then try again."


def form_step(
    template: str, title: str, form, attempt: Callable[[], str | None], then: Callable[[], str]
):
    """The page with its form; on a valid POST, `attempt()` and a redirect to `then`, or the
    form again with the refusal (429 with Retry-After when throttled)."""
    if not form.validate_on_submit():
        return page(template, title, 400 if form.errors else 200, form=form)
    try:
        error = attempt()
    except throttle.Wait as wait:
        response = page(template, title, 429, form=form, error=WAIT.format(seconds=wait.seconds))
        response.headers["Retry-After"] = str(wait.seconds)
        return response
    if error:
        return page(template, title, 401, form=form, error=error)
    return redirect(then(), code=303)


def after(remembered: str, default_endpoint: str) -> str:
    """Where to go once a step succeeds: the page that sent the person here, else a default."""
    return session.pop(remembered, None) or url_for(default_endpoint)


@staff_required
def home():
    """The staff area's front page is the leads inbox."""
    return redirect(url_for("staff.leads"))


@public
def login():
    """Sign-in, first step: e-mail and password, then on to the code."""
    if current_staff():
        return redirect(url_for("staff.leads"))
    form = forms.SignInForm()
    attempt = partial(signin.with_password, form.email.data, form.password.data)
    return form_step(
        "login.html", "Staff sign-in", form, attempt, partial(url_for, "staff.login_code")
    )


@public
def login_code():
    """Sign-in, second step: a code, on the aal1 session the password began."""
    if current_staff():
        return redirect(url_for("staff.leads"))
    if sessions.load() is None:
        return redirect(url_for("staff.login"), code=303)
    form = forms.CodeForm()
    attempt = partial(signin.with_code, form.code.data)
    return form_step(
        "code.html", "Enter your code", form, attempt, partial(after, "staff_next", "staff.leads")
    )


@public
def logout():
    """Sign out and go to the sign-in page."""
    if current_staff():
        record("signed_out")
    sessions.end_current()
    flash("You are signed out.")
    return redirect(url_for("staff.login"), code=303)


@staff_required
def confirm():
    """Both factors again before a sensitive action, then back to the page that asked."""
    form = forms.ConfirmForm()
    attempt = partial(signin.confirm_again, form.password.data, form.code.data)
    then = partial(after, "staff_confirm_next", "staff.account")
    return form_step("confirm.html", "Confirm it is you", form, attempt, then)


@staff_required
def account():
    """The signed-in account: its open sessions and how many recovery codes are left."""
    staff = current_staff()
    return page(
        "account.html",
        "Your account",
        staff=staff,
        sessions=queries.open_sessions_of(staff["id"]),
        current_id=sessions.load()["id"],
        recovery_left=queries.unused_recovery_codes(staff["id"]),
    )


@staff_required
def end_session(session_id: int):
    """End one of the account's sessions; ending the current one signs out."""
    staff = current_staff()
    if session_id == sessions.load()["id"]:
        return logout()
    if queries.end_session(session_id, staff["id"]):
        record("session_ended", data={"session": session_id})
        flash("That session has ended.")
    return redirect(url_for("staff.account"), code=303)


def password_changed() -> str:
    """Say the password is changed, and go back to the account page."""
    flash("Your password is changed. Your other sessions have ended.")
    return url_for("staff.account")


@require_recent_auth
def change_password():
    """A new password, once the current one is typed again (after a recent sign-in)."""
    form = forms.ChangePasswordForm()
    attempt = partial(credentials.change_password, form.current_password.data, form.password.data)
    return form_step("password.html", "Change your password", form, attempt, password_changed)


@require_recent_auth
def new_recovery_codes():
    """New recovery codes replacing the old ones, shown once: in the POST's own answer, since a
    redirect would need them kept somewhere to show them."""
    form = forms.NewRecoveryCodesForm()
    if not form.validate_on_submit():
        left = queries.unused_recovery_codes(current_staff()["id"])
        status = 400 if form.errors else 200
        return page("recovery_codes.html", "New recovery codes", status, form=form, left=left)
    codes = credentials.renew_recovery_codes()
    return page("recovery_codes.html", "Your new recovery codes", codes=codes)


@public
def enrol(token: str):
    """An enrolment link: first a password, then the authenticator app."""
    staff = accounts.account_enrolling(token)
    if staff is None:
        return page("enrol_invalid.html", "Enrolment link not valid", 404)
    if not staff["password_hash"]:
        return enrol_password(staff, token)
    return enrol_totp(staff)


def enrol_password(staff: dict, token: str):
    """Enrolment, first step: choose a password."""
    form = forms.NewPasswordForm()
    error = None
    if form.validate_on_submit():
        try:
            accounts.set_password(staff, form.password.data)
        except accounts.AccountError as problem:
            error = str(problem)
        else:
            return redirect(url_for("staff.enrol", token=token), code=303)
    status = 400 if form.errors or error else 200
    return page("enrol_password.html", "Set your password", status, form=form, error=error)


def enrol_totp(staff: dict):
    """Enrolment, second step: scan the QR code and confirm a code, then the recovery codes."""
    form = forms.FirstCodeForm()
    error = None
    if form.validate_on_submit():
        try:
            codes = accounts.confirm_totp(staff, form.code.data)
        except accounts.AccountError as problem:
            error = str(problem)
        else:
            audit.record("enrolled", staff["id"], address=client_address())
            return page("enrol_done.html", "Your recovery codes", codes=codes)
    secret = accounts.pending_totp_secret(staff)
    uri = totp.provisioning_uri(secret, staff["email"])
    status = 400 if form.errors or error else 200
    context = {"uri": uri, "qr": totp.qr_svg(uri), "key": totp.manual_key(secret)}
    return page("enrol_totp.html", "Set up your code", status, form=form, error=error, **context)
