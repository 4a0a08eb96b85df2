"""The sale by mail's parcels for staff (app/shipping/): `/staff/shipments`, by tab, and the
insurer's monthly declaration as a download (`/staff/shipments/declarations.csv?month=`),
audited. Both exist only while MAILIN_ENABLED is on."""

from __future__ import annotations

import io
from datetime import date

from flask import Response, abort, current_app, request

from app.shipping import declarations, shipment_tabs
from app.shipping.shipment_state import EXCEPTIONS
from app.staff.auth import record
from app.staff.pages import page


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


def declarations_csv():
    """The insurer's declaration of a month (YYYY-MM; 400 for anything else), as a download."""
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
