"""The sale by mail's parcels for staff (app/shipping/): `/staff/shipments`, by tab, each parcel's
own page with its claim under the policy (opened by one staff member, settled by another), and
the insurer's monthly declaration as a download (`/staff/shipments/declarations.csv?month=`,
behind re-authentication like the other exports); every claim step and download audited. All
exist only while MAILIN_ENABLED is on."""

from __future__ import annotations

import io
from datetime import date

from flask import Response, abort, current_app, flash, redirect, request, url_for

from app.shipping import claims, declarations, shipment_tabs
from app.shipping.claims import ClaimRefused
from app.shipping.shipment_state import EXCEPTIONS
from app.staff.auth import record, require_recent_auth
from app.staff.claim_forms import ClaimForm, SettleForm
from app.staff.pages import page
from app.staff.views import inbox


def refuse_unless_mailin() -> None:
    """404 while the business does not sell by mail."""
    if not current_app.config["MAILIN_ENABLED"]:
        abort(404)


def shipments():
    """The parcels of one tab (the query string's `tab`, by default those on their way)."""
    refuse_unless_mailin()
    tab = request.args.get("tab", "on-the-way")
    tab = tab if tab in shipment_tabs.WHERE else "on-the-way"
    return page(
        "shipments.html",
        "Shipments",
        tab=tab,
        tabs=shipment_tabs.tab_counts(),
        parcels=shipment_tabs.parcels(tab),
        exceptions=EXCEPTIONS,
        this_month=f"{date.today():%Y-%m}",
    )


@require_recent_auth
def declarations_csv():
    """The insurer's declaration of a month (YYYY-MM; 400 for anything else), as a download:
    every tracking number and insured value of the month, so both factors again recently, as
    for the other exports."""
    refuse_unless_mailin()
    month = request.args.get("month", "").strip()
    try:
        declarations.month_bounds(month)
    except ValueError:
        abort(400)
    file = io.StringIO()
    count = declarations.write_csv(file, month)
    record("shipments_declared", data={"month": month, "count": count})
    name = f"shipping-declaration-{month}.csv"
    return Response(
        file.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def parcel(shipment_id: int, claim_form: ClaimForm | None = None,
           settle_form: SettleForm | None = None, status: int = 200):  # fmt: skip
    """One parcel: where it stands, whether its watch is held, and its claim with the form
    open to this staff member (open one, or record how the insurer settled it)."""
    refuse_unless_mailin()
    shipment = shipment_tabs.one(shipment_id)
    if shipment is None:
        abort(404)
    return page(
        "shipment.html",
        f"Parcel {shipment['reference']}-{shipment['leg']}",
        status,
        parcel=shipment,
        claim=claims.of_shipment(shipment_id),
        claim_form=claim_form or ClaimForm(prefix="claim", formdata=None),
        settle_form=settle_form or SettleForm(prefix="settle", formdata=None),
        me=inbox.actor(),
        names=inbox.staff_names(),
        exceptions=EXCEPTIONS,
        kinds=claims.KINDS,
        claimable=any(shipment["state"] in states for states in claims.CLAIMABLE.values()),
        states=claims.STATES,
    )


def back_to(shipment_id: int, message: str, category: str = "message"):
    """Post/Redirect/Get: to the parcel's page, with a message."""
    flash(message, category)
    return redirect(url_for("staff.parcel", shipment_id=shipment_id), code=303)


def open_claim(shipment_id: int):
    """Open the parcel's claim (lost moves it to `lost`); audited, refused or not."""
    refuse_unless_mailin()
    form = ClaimForm(prefix="claim")
    if not form.validate():
        return parcel(shipment_id, claim_form=form, status=400)
    facts = {"shipment": shipment_id, "kind": form.kind.data}
    try:
        event_id = claims.open_claim(
            shipment_id, form.kind.data, form.reference.data, form.note.data, inbox.actor()
        )
    except ClaimRefused as error:
        record("shipment_claim_refused", data=facts | {"why": str(error)})
        return back_to(shipment_id, str(error), "error")
    record("shipment_claim_opened", lead_of(shipment_id), facts | {"event": event_id})
    return back_to(shipment_id, "Claim opened: another staff member records the insurer's answer.")


def settle_claim(shipment_id: int):
    """Record how the insurer settled the parcel's claim, by another staff member than the one
    who opened it; audited, refused or not."""
    refuse_unless_mailin()
    form = SettleForm(prefix="settle")
    if not form.validate():
        return parcel(shipment_id, settle_form=form, status=400)
    facts = {"shipment": shipment_id, "outcome": form.outcome.data, "amount": form.amount.data}
    try:
        event_id = claims.settle(shipment_id, form.outcome.data, form.amount.data, inbox.actor())
    except ClaimRefused as error:
        record("shipment_claim_settle_refused", data=facts | {"why": str(error)})
        return back_to(shipment_id, str(error), "error")
    record("shipment_claim_settled", lead_of(shipment_id), facts | {"event": event_id})
    return back_to(shipment_id, "The insurer's answer is on record, with your name and the time.")


def lead_of(shipment_id: int) -> int | None:
    """The lead a parcel belongs to, for the audit log."""
    shipment = shipment_tabs.one(shipment_id)
    return shipment["lead_id"] if shipment else None
