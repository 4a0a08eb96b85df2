"""A seller's parcel opened on record, for staff (app/shipping/arrival.py): the page of a lead's
parcel on its way to us, with the arrival form once the carrier has delivered it, then the
record (its photos and video through the purchase files' route, each view audited) and, for a
mismatch, a second staff member's sign-off. Only while MAILIN_ENABLED is on; every view,
recording, sign-off and refusal is audited."""

from __future__ import annotations

from flask import flash, redirect, url_for

from app.shipping import arrival
from app.shipping.shipment_state import EXCEPTIONS, ShipmentState
from app.staff.arrival_forms import SEALS, ArrivalForm, SignOffForm
from app.staff.auth import record, require_recent_auth, staff_required
from app.staff.pages import page
from app.staff.views.inbox import actor, lead_or_404, staff_names
from app.staff.views.shipments import refuse_unless_mailin

ARRIVAL_STEPS = {
    ShipmentState.CREATED: "Waiting for its label",
    ShipmentState.LABEL_READY: "Label ready: not scanned by the carrier yet",
    ShipmentState.IN_TRANSIT: "In transit to us",
    ShipmentState.OUT_FOR_DELIVERY: "Out for delivery to us",
    ShipmentState.DELIVERED: "Delivered: open it on record",
    ShipmentState.RECEIVED: "Received: opened on record",
    ShipmentState.VOIDED: "Voided: its label was refunded unused",
    ShipmentState.LOST: "Lost: a claim under the policy",
}


def arrival_page(lead: dict, form=None, sign_off=None, error: str = "", status: int = 200):
    """The lead's parcel and its arrival: the form while it can be opened on record, else the
    record with its files and, for a mismatch, the sign-off."""
    parcel = arrival.inbound_parcel(lead["id"])
    opened = arrival.arrival_of(parcel["id"]) if parcel else None
    openable = parcel is not None and opened is None and parcel["state"] == ShipmentState.DELIVERED
    if openable and form is None:
        form = ArrivalForm(formdata=None, parcel=parcel)
    waiting = opened is not None and opened["mismatch"] and not opened["signed_off_by"]
    if waiting and sign_off is None:
        sign_off = SignOffForm(formdata=None)
    kept = arrival.arrival_files(opened) if opened else []
    return page(
        "arrival.html",
        f"Arrival · {lead['reference']}",
        status,
        lead=lead,
        parcel=parcel,
        step=ARRIVAL_STEPS.get(parcel["state"], parcel["state"]) if parcel else "",
        exception=EXCEPTIONS.get(parcel["exception_status"], "") if parcel else "",
        opened=opened,
        form=form if openable else None,
        sign_off=sign_off if waiting else None,
        mine=opened is not None and opened["recorded_by"] == actor(),
        photos=[row for row in kept if row["media_type"].startswith("image/")],
        videos=[row for row in kept if row["media_type"].startswith("video/")],
        kinds={
            "arrival_box": "Box as received",
            "arrival_opening": "Opening",
            "arrival_serial": "Serial in frame",
        },  # fmt: skip
        seals=SEALS,
        tolerance=arrival.tolerance_oz(),
        names=staff_names(),
        error=error,
    )


@staff_required
def parcel_arrival(lead_id: int):
    """The lead's parcel on its way to us and its arrival on record; audited."""
    refuse_unless_mailin()
    lead = lead_or_404(lead_id)
    record("arrival_viewed", lead_id)
    return arrival_page(lead)


@require_recent_auth
def record_arrival(lead_id: int):
    """Put the parcel's opening on record: both factors recently; audited, a refusal too."""
    refuse_unless_mailin()
    lead = lead_or_404(lead_id)
    parcel = arrival.inbound_parcel(lead_id)
    form = ArrivalForm(parcel=parcel)
    if not form.validate():
        return arrival_page(lead, form=form, status=400)
    try:
        opened = arrival.record_arrival(lead_id, form.opened(), actor())
    except arrival.NotRecorded as refused:
        record("arrival_refused", lead_id)
        return arrival_page(lead, error=str(refused), status=409)
    record("arrival_recorded", lead_id, {"arrival": opened["id"], "files": len(opened["files"]),
                                         "mismatch": bool(opened["mismatch"])})  # fmt: skip
    flash(
        "Arrival recorded: another staff member must sign off what did not match before the "
        "parcel counts as received."
        if opened["mismatch"]
        else "Arrival recorded: the parcel is received, and the sale can go on to its offer."
    )
    return redirect(url_for("staff.parcel_arrival", lead_id=lead_id), code=303)


@require_recent_auth
def sign_off_arrival(lead_id: int):
    """A second staff member signs off an arrival that did not match: never the one who
    recorded it; audited either way."""
    refuse_unless_mailin()
    lead = lead_or_404(lead_id)
    form = SignOffForm()
    if not form.validate():
        return arrival_page(lead, sign_off=form, status=400)
    try:
        opened = arrival.sign_off(lead_id, actor(), form.note.data.strip())
    except arrival.NotRecorded as refused:
        record("arrival_sign_off_refused", lead_id)
        return arrival_page(lead, error=str(refused), status=409)
    record("arrival_signed_off", lead_id, {"arrival": opened["id"]})
    flash("Signed off: the parcel counts as received, with your name and the time.")
    return redirect(url_for("staff.parcel_arrival", lead_id=lead_id), code=303)
