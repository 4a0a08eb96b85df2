"""A watch received by mail goes back only after a clear check of the serial seen at its arrival
(app/shipping/returns.py): the arrival asks the stolen-watch register, as the findings do; the
return waits until a clear answer about that serial is on record, or staff record a clear check
by hand; a flag holds the watch; and while the return waits on a person, staff are told once.
A seller who withdraws before the findings no longer gets the watch back unchecked. Against the
fake EasyPost and the fake register, the jobs run by the in-process runner."""

from __future__ import annotations

import pytest

from app.leads import history
from app.leads.db import get_db
from app.leads.display import business_today
from app.leads.state import State
from app.sale import lifecycle
from app.sale.purchase import record, stolen_register
from app.shipping import arrival, reconcile, returns
from app.shipping.arrival import Opened
from tests.data.photos import photo_bytes
from tests.helpers import lead_work_done
from tests.sale.purchase.fake_register import (  # noqa: F401 (fixtures)
    PDF,
    register,
    register_server,
    register_settings,
)
from tests.shipping.deal_steps import delivered_deal, mail_deal, move
from tests.shipping.return_steps import held_not_returned, parcels, staff_on  # noqa: F401
from tests.shipping.steps import mailin_settings

SERIAL = "7Z41K9Q2"  # as the register is asked it; staff type "7z41 k9q2" at the arrival


@pytest.fixture
def checked_app(make_app, easypost, register, mail_settings):
    """Selling by mail, the register asked by API (no retry), e-mail to the loopback server."""
    return make_app(**mailin_settings(easypost), **register_settings(register), **mail_settings,
                    STAFF_EMAIL="staff@example.com", JOB_RETRY_INTERVALS=())  # fmt: skip


def open_on_record(app, parcel: dict, serial: str = "7z41 k9q2") -> None:
    """Staff open the delivered parcel on record: it matches its label; the serial as typed."""
    photo = photo_bytes(size=(480, 360))
    opened = Opened(weight_oz=32.0, seal_intact=True, serial=serial, box_photos=[photo],
                    opening_photos=[photo], serial_photo=photo)  # fmt: skip
    with app.app_context():
        arrival.record_arrival(parcel["lead_id"], opened, "staff:1")
    lead_work_done(app)


def withdraw(app, lead_id: int) -> None:
    """The seller withdraws from the accepted quote, before any findings."""
    with app.app_context():
        lifecycle.transition(lead_id, State.CLOSED, "seller", {"reason": "withdrawn"},
                             State.ACCEPTED)  # fmt: skip
    lead_work_done(app)


def waiting_told(app, lead_id: int) -> list[str]:
    """The reasons staff were told a parcel of the lead needs them, in order."""
    with app.app_context():
        events = history.lead_events(lead_id)
    return [e["data"]["reason"] for e in events if e["kind"] == "shipment_attention"]


def alerts(smtp_server, lead_id: int) -> list[str]:
    return [m["Subject"] for m in smtp_server.messages if f"lead #{lead_id} " in m["Subject"]]


def test_a_watch_delivered_after_a_withdrawal_goes_back_after_its_arrival_is_checked_clear(
    checked_app, register, easypost, smtp_server, staff_on
):
    parcel = mail_deal(checked_app)
    move(checked_app, parcel, "in_transit")
    withdraw(checked_app, parcel["lead_id"])
    move(checked_app, parcel, "delivered")  # with us now, nobody has looked at it
    assert parcels(checked_app, parcel["lead_id"], "return") == []
    assert waiting_told(checked_app, parcel["lead_id"]) == [returns.WAITS_FOR_ARRIVAL]
    assert any("open it on record" in s for s in alerts(smtp_server, parcel["lead_id"]))
    staff, _ = staff_on(checked_app)  # it is to be opened, not sent back unopened
    to_open = staff.get("/staff/shipments?tab=to-open").get_data(as_text=True)
    assert parcel["tracking_code"] in to_open
    assert register.searches() == []
    open_on_record(checked_app, parcel)
    [asked] = register.searches()
    assert asked["body"] == {"serial_number": SERIAL, "brand": None, "item": "watch"}
    with checked_app.app_context():
        kept = record.get(parcel["lead_id"])
    assert (kept["register_result"], kept["register_serial"]) == ("clear", "7z41 k9q2")
    [back] = parcels(checked_app, parcel["lead_id"], "return")
    assert back["state"] == "label_ready"
    assert waiting_told(checked_app, parcel["lead_id"]) == [returns.WAITS_FOR_ARRIVAL]


@pytest.mark.parametrize("register_answers", ["failed", "not asked by API"])
def test_without_a_clear_answer_the_return_waits_until_staff_record_a_clear_check_by_hand(
    checked_app, register, smtp_server, register_answers
):
    if register_answers == "failed":
        register.plan("search", 500)
    else:
        checked_app.config["REGISTER_API_URL"] = ""
    parcel = delivered_deal(checked_app)
    lead_id = parcel["lead_id"]
    open_on_record(checked_app, parcel)
    withdraw(checked_app, lead_id)
    with checked_app.app_context():  # the reconciler, twice: it opens nothing, tells staff once
        assert returns.owed() == [lead_id]
        reconcile.reconcile()
        reconcile.reconcile()
    lead_work_done(checked_app)
    assert parcels(checked_app, lead_id, "return") == []
    assert waiting_told(checked_app, lead_id) == [returns.WAITS_FOR_CHECK]
    assert sum("record a clear register check" in s for s in alerts(smtp_server, lead_id)) == 1
    with checked_app.app_context():  # searched by hand: recorded for the closed lead
        check = {"provider": "The Watch Register", "checked_on": business_today().isoformat(),
                 "result": "clear"}  # fmt: skip
        stolen_register.record_check(lead_id, "staff:1", check, PDF, "application/pdf")
    lead_work_done(checked_app)
    [back] = parcels(checked_app, lead_id, "return")
    assert back["state"] == "label_ready"


def test_a_flag_on_the_arrival_serial_after_a_withdrawal_holds_the_watch(
    checked_app, register, easypost, smtp_server
):
    register.answer(SERIAL, "flagged")
    parcel = delivered_deal(checked_app)
    lead_id = parcel["lead_id"]
    withdraw(checked_app, lead_id)
    bought = easypost.bought()
    open_on_record(checked_app, parcel)
    held_not_returned(checked_app, easypost, lead_id, bought)
    assert any(s.startswith("HELD, do not return") for s in alerts(smtp_server, lead_id))
    with checked_app.app_context():
        assert record.get(lead_id)["register_result"] == "flagged"
        assert returns.owed() == []


def test_a_clear_check_of_a_serial_corrected_since_sends_nothing_back(checked_app, register):
    parcel = delivered_deal(checked_app)
    lead_id = parcel["lead_id"]
    open_on_record(checked_app, parcel, serial="7Z41K9Q3")  # misread at the arrival
    with checked_app.app_context():  # the findings read the watch again: another serial
        db = get_db()
        db.execute("UPDATE purchases SET serial_number = ? WHERE lead_id = ?", (SERIAL, lead_id))
        db.commit()
    withdraw(checked_app, lead_id)
    assert parcels(checked_app, lead_id, "return") == []  # its clear check is of the misread
    assert waiting_told(checked_app, lead_id) == [returns.WAITS_FOR_CHECK]


def test_staff_can_record_the_check_by_hand_on_the_closed_leads_page(checked_app, staff_on):
    checked_app.config["REGISTER_API_URL"] = ""
    parcel = delivered_deal(checked_app)
    open_on_record(checked_app, parcel)
    withdraw(checked_app, parcel["lead_id"])
    client, _ = staff_on(checked_app)
    page = client.get(f"/staff/leads/{parcel['lead_id']}").get_data(as_text=True)
    assert 'name="register_check-provider"' in page
    assert 'name="findings-serial_number"' not in page  # the sale is over: no findings now
