"""The free insured return: a sale by mail that ends without a purchase while we hold the watch
sends it back to the seller, under the same policy, adult signature required, tracked to
delivered, once a clear stolen-watch register check of the serial seen on the watch (at its
arrival, or in the findings) is on record; while there is none it waits, and staff are told once
when a person must act (open the parcel on record, or record a check by hand). A watch whose
register check stands flagged is held as the law requires, and staff are told not to return it.
Its seller reads the same as for a return waiting for its checks until a staff member chooses
to tell them the sale is on hold (on_hold); the same holds for any sale whose check is flagged.

The lead is closed at once, as any lead is (app/sale/lifecycle.py is unchanged); the return
parcel is what staff and the seller follow from there, and its delivery is the deal's end on the
timeline. One return per deal: the return's row is keyed by the inbound parcel's deal, so a
second close (declined again, closed after a reopening) or a retried job finds the first one.
The return is opened by a job (`worker.jobs.open_return_parcel`, queued by the move to closed,
by the inbound parcel's delivery to a closed lead, and swept up by the reconciler) and its label
bought by another (`worker.jobs.buy_shipping_label`), ids only, both retried.
"""

from __future__ import annotations

from app import queue
from app.leads.db import get_db, immediate_transaction, now
from app.leads.history import append_event
from app.leads.state import State
from app.rendering.dates import display_date
from app.sale.purchase import record, stolen_register
from app.sale.purchase.authentication import Refused
from app.shipping import attention, labels
from app.shipping.shipment_state import Leg, ShipmentState

# The inbound parcel's states that mean the watch is with us.
WITH_US = (ShipmentState.DELIVERED, ShipmentState.RECEIVED)
# A staff member chose to tell the seller of the hold (the event's kind).
TOLD = "seller_told_on_hold"
# Why a return waits on a person (attention.py says what to do).
WAITS_FOR_ARRIVAL = attention.RETURN_WAITS_FOR_ARRIVAL
WAITS_FOR_CHECK = attention.RETURN_WAITS_FOR_CHECK


def watch_we_hold(db, lead_id: int) -> dict | None:
    """The lead's latest inbound parcel, if it reached us (delivered or opened); else None."""
    row = db.execute(
        "SELECT * FROM shipments WHERE lead_id = ? AND leg = ? AND state IN (?, ?) "
        "ORDER BY id DESC LIMIT 1",
        (lead_id, Leg.INBOUND, *WITH_US),
    ).fetchone()
    return dict(row) if row else None


def return_of(db, inbound: dict) -> dict | None:
    """The return parcel of the inbound parcel's deal, if one is on record."""
    row = db.execute(
        "SELECT * FROM shipments WHERE lead_id = ? AND leg = ? AND deal_event_id = ?",
        (inbound["lead_id"], Leg.RETURN, inbound["deal_event_id"]),
    ).fetchone()
    return dict(row) if row else None


def is_flagged(lead_id: int) -> bool:
    """Whether the register check that counts for the lead's watch is flagged (a clear check
    still waiting for a second staff member's approval leaves the flag standing)."""
    return (record.get(lead_id) or {}).get("register_result") == "flagged"


def held_for_checks(lead_id: int) -> bool:
    """Whether the sale is held for its checks: its register check stands flagged, or its
    watch is held from its return (staff's facts; the seller reads them only through on_hold)."""
    if is_flagged(lead_id):
        return True
    inbound = watch_we_hold(get_db(), lead_id)
    return bool(inbound and inbound["return_held_at"])


def told_event(lead_id: int) -> dict | None:
    """The event of a staff member choosing to tell the seller of the hold, if one did."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM lead_events WHERE lead_id = ? AND kind = ? ORDER BY id LIMIT 1",
            (lead_id, TOLD),
        )
        .fetchone()
    )
    return dict(row) if row else None


def on_hold(lead_id: int) -> bool:
    """Whether the seller is told only that the sale is on hold pending checks (ON_HOLD, and
    never why): held for its checks, and a staff member chose to tell them. Until then nothing
    the seller sees depends on the register's answer: their page and e-mails read as a clear
    sale's at the same step, so a thief is not tipped off by the page."""
    return held_for_checks(lead_id) and told_event(lead_id) is not None


def tell_seller(lead_id: int, actor: str) -> int:
    """A staff member's choice to tell the seller their sale is on hold pending checks, once;
    the event's id. Refused for a sale not held, or one whose seller was told already."""
    with immediate_transaction() as db:
        if not held_for_checks(lead_id) or told_event(lead_id):
            raise Refused(
                "This sale is not held for its checks, or its seller was told already. Nothing "
                "was changed."
            )
        return append_event(db, lead_id, actor, TOLD, {})


def open_return(lead_id: int) -> str:
    """The job: for a closed lead whose watch we hold, its return parcel opened and its label's
    purchase queued, or the watch held when its register check stands flagged, or the return
    left waiting for a clear check of the serial seen on the watch; what it did. A watch above
    the policy's per-parcel limit gets no return parcel: staff are asked to look.
    Anything else (the lead reopened or bought, the watch never reached us, a return already
    opened) changes nothing."""
    with immediate_transaction() as db:
        lead = db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()
        if lead is None:
            raise LookupError(f"Lead {lead_id} does not exist.")
        inbound = watch_we_hold(db, lead_id)
        if lead["state"] != State.CLOSED or inbound is None:
            return "nothing to return: the lead is not closed, or the watch is not with us"
        if inbound["return_held_at"]:
            return "held: not returned"
        existing = return_of(db, inbound)
        if existing is None and is_flagged(lead_id):
            event_id = hold(db, inbound)
            queue.enqueue(queue.ALERT_RETURN_HELD, lead_id, event_id)
            return "held: the register check stands flagged, not returned"
        checked = existing is not None or stolen_register.clear_of_serial_seen(db, lead_id)
        waits_for = None if checked else what_it_waits_for(db, lead_id)
    if not checked:
        if waits_for:
            attention.raise_once(inbound, waits_for)
        return "waits: no clear register check of the serial seen on the watch yet"
    if existing is not None:
        shipment_id = existing["id"]
    else:
        try:
            shipment_id = labels.open_shipment(
                lead_id, Leg.RETURN, inbound["deal_event_id"], inbound["insured_value"],
                inbound["from_address_id"],
            )  # fmt: skip
        except labels.OverTheLimit as error:  # the policy's limit was lowered since it came in
            attention.raise_once(inbound, attention.RETURN_OVER_LIMIT)
            return f"not opened: {error}"
    if labels.get(shipment_id)["state"] == ShipmentState.CREATED:
        queue.enqueue(queue.BUY_LABEL, shipment_id)
        return f"return parcel {shipment_id} on record, its label to buy"
    return f"return parcel {shipment_id} already has its label"


def what_it_waits_for(db, lead_id: int) -> str | None:
    """Why a return waits on a person: the parcel never opened on record, or no clear check of
    the serial seen on the watch and no question to the register still open; None while the
    register's answer is awaited (it decides, by a job: stolen_register.record_check)."""
    if stolen_register.serial_seen(db, lead_id)[0] is None:
        return WAITS_FOR_ARRIVAL
    asking = db.execute(
        "SELECT 1 FROM register_asks WHERE lead_id = ? AND outcome IS NULL", (lead_id,)
    ).fetchone()
    return None if asking else WAITS_FOR_CHECK


def hold(db, inbound: dict) -> int:
    """Inside the caller's transaction: mark the watch held on its inbound parcel and put
    "held: do not return" on the timeline; the event's id."""
    db.execute(
        "UPDATE shipments SET return_held_at = ?, updated_at = ? "
        "WHERE id = ? AND return_held_at IS NULL",
        (now(), now(), inbound["id"]),
    )
    return append_event(db, inbound["lead_id"], "system", "shipment_return_held",
                        {"leg": Leg.INBOUND, "shipment": inbound["id"]})  # fmt: skip


def owed() -> list[int]:
    """Closed leads whose watch we hold with neither a return parcel nor a hold: the returns a
    lost job would have opened, for the reconciler to open."""
    rows = get_db().execute(
        "SELECT DISTINCT inbound.lead_id FROM shipments AS inbound "
        "JOIN leads ON leads.id = inbound.lead_id "
        "WHERE inbound.leg = ? AND inbound.state IN (?, ?) AND inbound.return_held_at IS NULL "
        "AND leads.state = ? AND NOT EXISTS (SELECT 1 FROM shipments AS back "
        "WHERE back.lead_id = inbound.lead_id AND back.leg = ? "
        "AND back.deal_event_id = inbound.deal_event_id)",
        (Leg.INBOUND, *WITH_US, State.CLOSED, Leg.RETURN),
    )
    return [row["lead_id"] for row in rows]


def queue_if_owed(tracking_code: str) -> bool:
    """After an inbound parcel's delivery: queue its return if its lead is closed already (the
    seller withdrew while the watch travelled); whether it did."""
    row = (
        get_db()
        .execute(
            "SELECT shipments.lead_id FROM shipments JOIN leads ON leads.id = shipments.lead_id "
            "WHERE tracking_code = ? AND leg = ? AND leads.state = ?",
            (tracking_code, Leg.INBOUND, State.CLOSED),
        )
        .fetchone()
    )
    if row is not None:
        queue.enqueue(queue.OPEN_RETURN_PARCEL, row["lead_id"])
    return row is not None


# What the seller reads of the return on their status page: never a word of why a watch is held.
SELLER_WORDS = {
    ShipmentState.CREATED: "We are preparing your watch's return.",
    ShipmentState.LABEL_READY: "We are preparing your watch's return.",
    ShipmentState.IN_TRANSIT: "Your watch is on its way back to you.",
    ShipmentState.OUT_FOR_DELIVERY: "Your watch is out for delivery to you today.",
    ShipmentState.DELIVERED: "Your watch was delivered back to you.",
    ShipmentState.LOST: (
        "The carrier has not delivered your watch. We are dealing with the carrier and our "
        "insurer, and will call you."
    ),
}
ON_HOLD = "Your sale is on hold pending checks. We will contact you."


def seller_view(lead_id: int) -> dict | None:
    """The return as the seller's status page shows it, or None when there is none (a watch
    held, or whose return waits for its checks, shows none alike): the words, the carrier and
    tracking number once it travels, and the delivery date."""
    db = get_db()
    inbound = watch_we_hold(db, lead_id)
    if inbound is None or inbound["return_held_at"]:
        return None
    back = return_of(db, inbound)
    if back is None or back["state"] == ShipmentState.VOIDED:
        return None
    travels = back["state"] not in (ShipmentState.CREATED, ShipmentState.LABEL_READY)
    return {
        "state": back["state"],
        "words": SELLER_WORDS.get(back["state"], SELLER_WORDS[ShipmentState.CREATED]),
        "carrier": back["carrier"] if travels else None,
        "tracking_code": back["tracking_code"] if travels else None,
        "delivered_on": display_date(back["delivered_at"][:10]) if back["delivered_at"] else "",
    }
