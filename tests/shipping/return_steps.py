"""Steps the return and claim tests share: a sale by mail at its final offer with the watch on
its way or with us, and staff members signed in to that app with both factors."""

from __future__ import annotations

import re

import pytest

from app.leads import history
from app.leads.db import get_db, immediate_transaction
from app.leads.state import State
from app.sale.purchase import record
from app.shipping import labels, tracking
from app.staff import totp
from tests.helpers import CLEAR_CHECK, FINDINGS, Clock, Staff
from tests.shipping.steps import bought_label

OFFER = {"from": "appointment", "to": "offered", "amount": 9400, "valid_until": "2099-01-01"}
# The tracking statuses that bring an inbound parcel to each state.
TO_STATE = {"label_ready": (), "in_transit": ("in_transit",),
            "delivered": ("in_transit", "delivered")}  # fmt: skip


def mail_deal(app, parcel_state: str = "delivered") -> dict:
    """A sale by mail at the final offer: the lead (handover by mail), its inbound label bought
    and the parcel moved to `parcel_state` as tracking moves it; the inbound row. A delivered
    watch was authenticated, its serial checked clear (as the final offer needs)."""
    inbound = bought_label(app)
    with app.app_context(), immediate_transaction() as db:
        db.execute("UPDATE leads SET handover = 'mail', state = ? WHERE id = ?",
                   (State.OFFERED, inbound["lead_id"]))  # fmt: skip
        history.append_event(db, inbound["lead_id"], "staff:1", "state_changed", OFFER)
        for status in TO_STATE[parcel_state]:
            tracking.apply_status(db, labels.get(inbound["id"]), status)
        if parcel_state == "delivered":
            record.update(db, inbound["lead_id"], FINDINGS | CLEAR_CHECK)
    with app.app_context():
        return labels.get(inbound["id"])


def parcels(app, lead_id: int, leg: str) -> list[dict]:
    """The lead's parcels of one leg, oldest first."""
    with app.app_context():
        rows = get_db().execute(
            "SELECT * FROM shipments WHERE lead_id = ? AND leg = ? ORDER BY id", (lead_id, leg)
        )
        return [dict(row) for row in rows]


def held_not_returned(app, easypost, lead_id: int, bought: int) -> dict:
    """Assert the lead's watch is held: no return parcel, no label bought beyond the `bought`
    before, its inbound parcel marked held; that parcel's row."""
    assert parcels(app, lead_id, "return") == []
    assert easypost.bought() == bought
    [held] = parcels(app, lead_id, "inbound")
    assert held["return_held_at"]
    return held


@pytest.fixture
def staff_on(monkeypatch):
    """Sign a staff member in to an app with both factors: (their client, the Staff driver)."""
    clock = Clock()
    monkeypatch.setattr(totp, "now", clock)

    def sign_in(app, email: str = "ana@example.com", name: str = "Ana Lima"):
        staff = Staff(app, app.test_cli_runner(), clock)
        client = app.test_client()
        staff.sign_in(client, staff.account(email, name))
        return client, staff

    return sign_in


def post_form(staff: Staff, client, page_path: str, action: str, prefix: str, fields: dict):
    """POST one prefixed form of a staff page, with a CSRF token of the page, as a browser would
    (the session's token also posts a form the page does not show, as a forged post would)."""
    page = staff.request(client, "GET", page_path).get_data(as_text=True)
    token = re.search(r'name="[\w-]*csrf_token"[^>]*value="([^"]+)"', page).group(1)
    data = {f"{prefix}-{key}": value for key, value in fields.items()}
    return staff.request(client, "POST", action, data=data | {f"{prefix}-csrf_token": token})
