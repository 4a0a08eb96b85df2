"""The staff side of the purchase on record, from a lead's page: the authentication's findings,
the stolen-watch register check, the ID check, the seller's paperwork behind re-authentication,
the purchase's files, and /staff/register, the transaction register (docs/sale.md, "The
purchase on record").

The lead page shows the purchase record by the last 4 characters of each number
(purchase_panel.py); the full paperwork, the ID photos and the register need both factors again
within STAFF_REAUTH_MINUTES (require_recent_auth), and each view of them is audited.
"""

from __future__ import annotations

from datetime import timedelta

from flask import Response, abort, current_app, request, url_for

from app.leads.display import business_today
from app.leads.state import State
from app.rendering.dates import display_date
from app.sale.purchase import approvals, authentication, bank_payouts, crypto, files, register
from app.sale.purchase import record as purchases
from app.sale.purchase.authentication import Refused
from app.sale.purchase.documents import PDF
from app.sale.purchase.paperwork import ID_TYPES
from app.staff import purchase_panel
from app.staff.auth import record, require_recent_auth, staff_required
from app.staff.money_forms import ApproveForm
from app.staff.pages import page
from app.staff.purchase_panel import REGISTER_DAYS, RegisterPeriodForm, id_verified
from app.staff.views import inbox

OUT_OF_DATE = "That form was out of date; nothing was changed."
UNOPENED = (
    "This purchase's paperwork or file does not open with the configured keys, or was altered, "
    "so nothing of it is shown. The operator can run flask purchases check-keys to see what."
)


# The lead page's forms


def take_step(lead_id: int, name: str):
    """Check the purchase panel's form `name`, then take its step: audited, and back to the
    lead with what was done, or with the refusal and nothing changed."""
    lead = inbox.lead_or_404(lead_id)
    form = purchase_panel.FORMS[name](prefix=name)
    if not form.validate():
        if name == "verify_id" and lead["state"] == State.AGREED:
            return paperwork_page(lead, form, 400)
        if purchase_panel.offered(name, lead, purchases.get(lead_id) or {}):
            return inbox.lead_page(lead, failed=(name, form), status=400)
        return inbox.back(lead_id, OUT_OF_DATE, "error")
    try:
        event_id = form.take(lead_id, inbox.actor())
    except Refused as error:
        record("purchase_step_refused", lead_id, {"step": name})
        return inbox.back(lead_id, str(error), "error")
    record(form.audited, lead_id, {"event": event_id})
    return inbox.back(lead_id, form.done)


@staff_required
def findings(lead_id: int):
    """The authentication's findings, from the lead page."""
    return take_step(lead_id, "findings")


@staff_required
def register_check(lead_id: int):
    """A stolen-watch register check with its certificate, from the lead page."""
    return take_step(lead_id, "register_check")


@staff_required
def tell_hold(lead_id: int):
    """Tell the seller of a sale held for its checks that it is on hold, from the lead page."""
    return take_step(lead_id, "tell_hold")


@require_recent_auth
def verify_id(lead_id: int):
    """The seller's ID compared with the seller, from the paperwork page (which shows it)."""
    return take_step(lead_id, "verify_id")


@staff_required
def payment_exception(lead_id: int):
    """Ask to pay another amount than the accepted offer, from the lead page."""
    return take_step(lead_id, "payment_exception")


@staff_required
def clear_flag(lead_id: int):
    """Ask to let a clear register check count over a flagged one, from the lead page."""
    return take_step(lead_id, "clear_flag")


@staff_required
def holder_name(lead_id: int):
    """Ask to pay into an account held by someone other than the seller, from the lead page."""
    return take_step(lead_id, "holder_name")


@staff_required
def payout_callback(lead_id: int):
    """A call-back to the phone on file that confirmed the payout account, from the lead page."""
    return take_step(lead_id, "payout_callback")


@require_recent_auth
def approve_exception(lead_id: int, approval_id: int):
    """Approve an exception another staff member asked for: both factors again recently, the
    approver never the one who asked; audited either way."""
    inbox.lead_or_404(lead_id)
    if not ApproveForm(prefix="approve").validate():
        return inbox.back(lead_id, OUT_OF_DATE, "error")
    try:
        event_id = approvals.approve(lead_id, approval_id, inbox.actor())
    except Refused as error:
        record("exception_approval_refused", lead_id, {"approval": approval_id})
        return inbox.back(lead_id, str(error), "error")
    record("exception_approved", lead_id, {"approval": approval_id, "event": event_id})
    return inbox.back(lead_id, "Exception approved: recorded with your name and the time.")


# The seller's paperwork, in full: both factors again, every view audited


def paperwork_sections(purchase: dict, names: dict[str, str]) -> list[tuple[str, list]]:
    """The paperwork as (heading, [(label, value)]) sections, its numbers decrypted."""
    by_api = bank_payouts.sent_by_api()  # then the numbers go to the bank, never to a page
    numbers = authentication.unsealed(purchase, bank_numbers=not by_api)
    erased = "Erased after payment"
    if by_api and purchase["account_number_enc"]:
        numbers["routing_number"] = "On record, sent to the bank only"
        numbers["account_number"] = (
            f"Ending {purchase['account_number_last4']}, sent to the bank only"
        )
    address = ", ".join(
        part for part in (purchase["street_address"], purchase["city"], purchase["region"]) if part
    )
    return [
        ("Seller", [
            ("Legal name", purchase["legal_name"]),
            ("Address", f"{address} {purchase['postal_code'] or ''}".strip()),
            ("Date of birth", purchase_panel.day(numbers["birth_date"])),
        ]),
        ("Photo ID", [
            ("Type", ID_TYPES.get(purchase["id_type"], purchase["id_type"])),
            ("Number", numbers["id_number"]),
            ("Issued by", purchase["id_issuer"]),
            ("Expires", purchase_panel.day(purchase["id_expires_on"])),
        ]),
        ("Bank transfer", [
            ("Account holder", purchase["account_holder"] or erased),
            ("Routing number", numbers["routing_number"] or erased),
            ("Account number", numbers["account_number"] or erased),
        ]),
        ("Signature", [
            ("Typed name", purchase["signed_name"]),
            ("Signed", purchase_panel.when(purchase["signed_at"])),
            ("IP address", purchase["signed_ip"]),
            ("Browser", purchase["signed_user_agent"]),
            ("Declaration SHA-256", purchase["declaration_sha256"]),
        ]),
        ("ID check", [
            ("Verified", id_verified(purchase, names)),
        ]),
    ]  # fmt: skip


def paperwork_page(lead: dict, form=None, status: int = 200):
    """The full paperwork with the ID photos (each view audited) and, while the ID waits to be
    checked, the form that records the check."""
    purchase = purchases.get(lead["id"]) or {}
    signed = purchase_panel.paperwork_kept(purchase)
    if signed:
        record("paperwork_viewed", lead["id"])
    if form is None and purchase_panel.offered("verify_id", lead, purchase):
        form = purchase_panel.empty_form("verify_id", purchase)
    photos = {row["kind"]: row for row in files.files_of(lead["id"], files.ID_PHOTOS)}
    try:
        sections = paperwork_sections(purchase, inbox.staff_names()) if signed else []
    except crypto.InvalidToken:
        current_app.logger.error("Lead %s: its paperwork opens with no configured key.", lead["id"])
        return inbox.back(lead["id"], UNOPENED, "error")
    return page(
        "purchase/paperwork.html",
        f"Paperwork · {lead['reference']}",
        status,
        lead=lead,
        sections=sections,
        photos=[photos[side] for side in files.ID_PHOTOS if side in photos],
        form=form,
        erased_on=purchase_panel.erased_on(purchase),
    )


@require_recent_auth
def paperwork(lead_id: int):
    """The seller's paperwork in full; every view is audited."""
    return paperwork_page(inbox.lead_or_404(lead_id))


# The purchase's files: only through the lead they belong to


def file_answer(lead: dict, row: dict) -> Response:
    """A stored file with the private headers of the lead photos; PDFs as downloads (a browser's
    PDF viewer does not open under the sandbox policy)."""
    try:
        data = files.read(row)
    except FileNotFoundError:
        abort(404)
    except files.Unreadable as error:
        current_app.logger.error("Lead %s: %s", lead["id"], error)
        return inbox.back(lead["id"], UNOPENED, "error")
    response = Response(data, mimetype=row["media_type"])
    response.headers.update(inbox.PHOTO_HEADERS)
    if row["media_type"] == PDF:
        name = f"{row['kind'].replace('_', '-')}-{lead['reference']}-v{row['version']}.pdf"
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_recent_auth
def id_photo(lead: dict, row: dict) -> Response:
    """A photo of the seller's ID: both factors again recently; every view audited."""
    record("id_photo_viewed", lead["id"], {"side": row["kind"], "version": row["version"]})
    return file_answer(lead, row)


@staff_required
def purchase_file(lead_id: int, public_id: str):
    """A file of the lead's purchase: an ID photo (re-authentication), the register's
    certificate or a document; audited. Another lead's file is not found."""
    lead = inbox.lead_or_404(lead_id)
    row = files.file_of(lead_id, public_id)
    if row is None:
        abort(404)
    if row["kind"] in files.ID_PHOTOS:
        return id_photo(lead, row)
    record("purchase_file_viewed", lead_id, {"kind": row["kind"], "version": row["version"]})
    return file_answer(lead, row)


# The transaction register


def register_period() -> RegisterPeriodForm:
    """The period from the query string; by default the last REGISTER_DAYS days."""
    today = business_today()
    first = today - timedelta(days=REGISTER_DAYS - 1)
    return RegisterPeriodForm(request.args or None, date_from=first, date_to=today)


@require_recent_auth
def register_page():
    """The transaction register: a period, its purchases at a glance and the CSV download."""
    form = register_period()
    if not form.validate():
        return page("purchase/register.html", "Transaction register", 400, form=form, rows=None)
    first, last = form.date_from.data, form.date_to.data
    shown = register.register_of(first, last)
    record("register_viewed", data=register.period_facts(first, last, shown))
    download = url_for("staff.register_csv", date_from=first.isoformat(), date_to=last.isoformat())
    period = f"{display_date(first.isoformat())} to {display_date(last.isoformat())}"
    return page(
        "purchase/register.html",
        "Transaction register",
        form=form,
        rows=shown.rows,
        unreadable=register.unreadable_warning(shown.unreadable) if shown.unreadable else "",
        period=period,
        download=download,
    )


@require_recent_auth
def register_csv():
    """The register of the period as CSV; every download audited."""
    form = register_period()
    if not form.validate():
        abort(400)
    first, last = form.date_from.data, form.date_to.data
    shown = register.register_of(first, last)
    record("register_exported", data=register.period_facts(first, last, shown))
    name = f"transaction-register-{first.isoformat()}-to-{last.isoformat()}.csv"
    return Response(
        register.csv_text(shown.rows),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
