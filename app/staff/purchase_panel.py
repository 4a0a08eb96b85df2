"""The purchase panel of a lead's page: the forms staff fill in at the authentication (findings,
the stolen-watch register check, the ID check: authentication_forms.py), the exceptions a second
staff member approves (money_forms.py), and what the purchase record holds, as staff read it.
Identity and bank numbers appear here by their last 4 characters only; the full paperwork is a
page of its own behind re-authentication (app/staff/views/purchase.py).
"""

from __future__ import annotations

from datetime import date

from wtforms import DateField, Form
from wtforms.validators import DataRequired, ValidationError

from app.leads.db import get_db
from app.leads.display import business_today, local_time, usd
from app.leads.state import State
from app.rendering.dates import display_date
from app.sale.purchase import (
    approvals,
    authentication,
    checklist,
    files,
    payout,
    record,
    stolen_register,
)
from app.sale.purchase.authentication import authenticating as at_authentication
from app.sale.purchase.paperwork import ID_TYPES, agreed_price
from app.sale.purchase.stolen_register import RESULTS as REGISTER_RESULTS
from app.shipping import returns
from app.staff import money_forms
from app.staff.authentication_forms import (
    FindingsForm,
    RegisterCheckForm,
    TellHoldForm,
    VerifyIdForm,
)

REGISTER_DAYS = 30  # the register page's default period


class RegisterPeriodForm(Form):
    """The period of the transaction register (read from the query string)."""

    date_from = DateField("Paid from", validators=[DataRequired()])
    date_to = DateField("to", validators=[DataRequired()])

    def validate_date_to(self, field) -> None:
        """The period ends on or after its first day."""
        if self.date_from.data and field.data and field.data < self.date_from.data:
            raise ValidationError("The last day is before the first.")


def offered(name: str, lead: dict, purchase: dict) -> bool:
    """Whether the lead's state and record let staff send the form `name` now."""
    if lead["erased_at"]:
        return False
    authenticating = at_authentication(get_db(), lead)
    if name == "findings":  # the signed declaration names the serial number: it stays
        return authenticating and not purchase.get("signed_at")
    if name == "register_check":  # a watch by mail: from its arrival, its return waits on it
        return stolen_register.checkable(get_db(), lead)
    if name == "tell_hold":
        return returns.held_for_checks(lead["id"]) and not returns.told_event(lead["id"])
    agreed = lead["state"] == State.AGREED
    if name == "payment_exception":
        return agreed
    if name == "clear_flag":
        return agreed and purchase.get("register_result") == "flagged"
    signed = agreed and paperwork_kept(purchase)
    if name == "holder_name":
        return signed and not payout.names_match(purchase["account_holder"], purchase["legal_name"])
    if name == "payout_callback":
        return signed and not purchase.get("payout_confirmed_at")
    signed, verified = purchase.get("signed_at"), purchase.get("id_verified_at")
    return name == "verify_id" and agreed and bool(signed) and not verified


FORMS = {
    "findings": FindingsForm,
    "register_check": RegisterCheckForm,
    "verify_id": VerifyIdForm,
    "tell_hold": TellHoldForm,
    "payment_exception": money_forms.PaymentExceptionForm,
    "clear_flag": money_forms.ClearFlagForm,
    "holder_name": money_forms.HolderNameForm,
    "payout_callback": money_forms.PayoutCallbackForm,
}


def empty_form(name: str, purchase: dict, waiting: dict | None = None, phone: str = ""):
    """The form `name` as the page shows it: findings filled with what is on record, the flag's
    clearing naming the check that waits for it, the account in another name naming the two
    names, the call-back the phone on file."""
    data = {
        "findings": {column: purchase.get(column) for column in authentication.FINDINGS},
        "clear_flag": {"check": waiting and waiting["id"]},
        "holder_name": {"names": payout.holder_subject(purchase)},
        "payout_callback": {"phone_called": phone},
    }.get(name)
    return FORMS[name](prefix=name, formdata=None, data=data)


def hold_words(lead_id: int, names: dict[str, str]) -> str:
    """What the seller of a sale held for its checks reads, and who chose it; empty when the
    sale is not held."""
    if not returns.held_for_checks(lead_id):
        return ""
    told = returns.told_event(lead_id)
    if told:
        by = by_whom(told["actor"], names, told["at"])
        return f"The seller was told their sale is on hold pending checks ({by}), never why."
    return (
        "The seller's page and e-mails read as for any sale at this step: nothing tells them of "
        "the hold until a staff member chooses to tell them, below."
    )


def exception_words(approval: dict, agreed: int | None, checks: dict[int, dict]) -> str:
    """What an exception allows, as staff read it (one asked for an earlier deal, nothing)."""
    if not approval["current"]:
        return f"{approvals.KINDS[approval['kind']]}, asked for an earlier deal: it counts no more"
    if approval["kind"] == approvals.PAYMENT_AMOUNT:
        amount = usd(int(approval["subject"]))
        return f"Pay {amount} instead of the accepted offer of {usd(agreed or 0)}"
    if approval["kind"] == approvals.REGISTER_FLAG:
        check = checks.get(int(approval["subject"]), {})
        when = display_date(check["checked_on"]) if check else ""
        return f"Let the clear check of {when} ({check.get('provider', '')}) count over the flag"
    return "Pay into an account held by someone other than the seller (see the paperwork)"


def listed_exceptions(lead_id: int, checks: list[dict], names: dict[str, str]) -> list[dict]:
    """Every exception on the lead, newest first, as the page lists it."""
    agreed, by_id = agreed_price(lead_id), {check["id"]: check for check in checks}
    return [
        approval
        | {
            "words": exception_words(approval, agreed, by_id),
            "asked": by_whom(approval["requested_by"], names, approval["requested_at"]),
            "approved": by_whom(approval["approved_by"], names, approval["approved_at"]),
        }
        for approval in approvals.of_lead(lead_id)
    ]


def hold_label(purchase: dict, today: date | None = None) -> str:
    """'On hold until 9 December 2026' or 'Hold ended 9 December 2026' for a paid purchase."""
    ends = purchase.get("hold_ends_on")
    if not ends:
        return ""
    today = today or business_today()
    on_hold = date.fromisoformat(ends) > today
    return f"{'On hold until' if on_hold else 'Hold ended'} {display_date(ends)}"


def when(iso: str | None) -> str:
    """A stored time as the page shows it, or empty."""
    return local_time(iso) if iso else ""


def day(iso: str | None) -> str:
    """A stored day as the page shows it, or empty."""
    return display_date(iso) if iso else ""


def by_whom(actor: str | None, names: dict[str, str], at: str | None) -> str:
    """'Ana Lima, 3 December 2026, 2:30 pm EST': who recorded something, and when."""
    return f"{names.get(actor, actor)}, {when(at)}" if actor else ""


def id_verified(purchase: dict, names: dict[str, str]) -> str:
    """Who verified the seller's ID and when, or 'Not yet'."""
    return by_whom(purchase["id_verified_by"], names, purchase["id_verified_at"]) or "Not yet"


def findings_facts(purchase: dict, names: dict[str, str]) -> list[tuple[str, str]]:
    """The watch as authenticated."""
    recorded = by_whom(purchase["authenticated_by"], names, purchase["authenticated_at"])
    return [
        ("Brand", purchase["brand"]),
        ("Reference", purchase["model_reference"]),
        ("Serial number", purchase["serial_number"]),
        ("Case marks", purchase["case_marks"]),
        ("Movement marks", purchase["movement_marks"]),
        ("Condition", purchase["condition_findings"]),
        ("Recorded by", recorded),
    ]


def register_facts(purchase: dict, names: dict[str, str]) -> list[tuple[str, str]]:
    """The register check that counts (and the register's reference, when asked by API)."""
    return [
        ("Register", purchase["register_provider"]),
        ("Checked on", day(purchase["register_checked_on"])),
        ("Result", REGISTER_RESULTS[purchase["register_result"]]),
        ("Recorded by", names.get(purchase["register_recorded_by"], "")),
    ] + [("Register's reference", ref) for ref in [purchase.get("register_reference")] if ref]


def payout_confirmed(purchase: dict, names: dict[str, str]) -> str:
    """How the payout account was confirmed, or that the seller's e-mail still waits."""
    by, at = purchase.get("payout_confirmed_by"), purchase.get("payout_confirmed_at")
    if not at:
        return "Not yet: the seller was e-mailed a link to confirm it"
    if by == "seller":
        return f"By the seller from their e-mail, {when(at)}"
    return f"Call-back to {purchase['payout_callback_phone']} by {by_whom(by, names, at)}"


def paperwork_facts(purchase: dict, names: dict[str, str]) -> list[tuple[str, str]]:
    """The signed paperwork by its last 4 characters, and the ID check."""
    id_type = ID_TYPES.get(purchase["id_type"], purchase["id_type"])
    account = purchase["account_number_last4"] if purchase["account_number_enc"] else None
    return [
        ("Legal name", purchase["legal_name"]),
        ("ID", f"{id_type}, number ending {purchase['id_number_last4']}" if id_type else "—"),
        ("Bank account", f"Number ending {account}" if account else "Erased after payment"),
        ("Account holder", purchase["account_holder"]),
        ("Account confirmed", payout_confirmed(purchase, names)),
        ("Signed", when(purchase["signed_at"])),
        ("ID verified", id_verified(purchase, names)),
    ]


def payment_facts(purchase: dict, names: dict[str, str]) -> list[tuple[str, str]]:
    """The payment as recorded when the lead was bought, with the hold and the retention."""
    return [
        ("Amount", usd(purchase["paid_amount"])),
        ("Method", record.PAYMENT_METHODS.get(purchase["payment_method"], "")),
        ("Paid on", day(purchase["paid_on"])),
        ("Confirmation", purchase["bank_confirmation"]),
        ("Recorded by", names.get(purchase["paid_recorded_by"], purchase["paid_recorded_by"])),
        ("Hold ends on", day(purchase["hold_ends_on"])),
        ("Kept until", day(purchase["retain_until"])),
    ]


def erased_on(purchase: dict) -> str:
    """The day the record's personal details were erased at the end of its retention, or ''."""
    erased = purchase.get("record_erased_at")
    return day(erased[:10]) if erased else ""


def paperwork_kept(purchase: dict) -> bool:
    """Whether the seller signed paperwork that is still on record (not erased at the end of
    its retention)."""
    return bool(purchase.get("signed_at")) and not purchase.get("record_erased_at")


def panel(lead: dict, names: dict[str, str], failed: tuple[str, object] | None = None) -> dict:
    """What the lead page's purchase panel shows; `failed` is (name, form) of a submission to
    show with its errors."""
    purchase = record.get(lead["id"]) or {}
    waiting = stolen_register.awaiting_approval(get_db(), lead["id"])
    forms = {
        name: empty_form(name, purchase, waiting, lead["phone"])
        for name in FORMS
        if offered(name, lead, purchase) and (name != "clear_flag" or waiting)
    }
    if failed and failed[0] in forms:
        forms[failed[0]] = failed[1]
    checks = stolen_register.history(lead["id"])
    return {
        "shown": bool(purchase) or stolen_register.checkable(get_db(), lead),
        "record": purchase,
        "forms": forms,
        "findings": findings_facts(purchase, names) if purchase.get("serial_number") else [],
        "register": register_facts(purchase, names) if purchase.get("register_result") else [],
        "checks": [
            check | {"by": names.get(check["recorded_by"], ""), "checked": day(check["checked_on"])}
            for check in checks
        ],
        "waiting_check": waiting,
        "held": hold_words(lead["id"], names),
        "exceptions": listed_exceptions(lead["id"], checks, names),
        "approve_form": money_forms.ApproveForm(prefix="approve", formdata=None),
        "paperwork": paperwork_facts(purchase, names) if paperwork_kept(purchase) else [],
        "checklist": checklist.status(purchase) if lead["state"] == State.AGREED else [],
        "payment": payment_facts(purchase, names) if purchase.get("paid_on") else [],
        "documents": files.files_of(lead["id"], files.DOCUMENTS),
        "hold": hold_label(purchase),
        "erased_on": erased_on(purchase),
    }
