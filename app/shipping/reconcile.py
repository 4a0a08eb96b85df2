"""What webhooks may have missed, asked of the provider every few hours (`flask shipping
reconcile`, deploy/watchbuyers-shipping.timer): each parcel still on its way is read again and
its tracking status applied as an event's would be; a label still unscanned 3 days after it was
bought is an exception for staff; an inbound one unused after MAILIN_LABEL_VOID_DAYS is refunded
and the parcel voided. One parcel's failure is recorded and the run goes on. Then any return a
lost job owed (a closed sale by mail whose watch is with us) is opened, and a pickup booking the
provider never answered is put before staff (app/shipping/attention.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from flask import current_app

from app import queue
from app.leads.db import get_db, immediate_transaction, now
from app.leads.history import append_event
from app.shipping import attention, easypost_api, notices, pickups, returns
from app.shipping.easypost_api import ProviderError
from app.shipping.shipment_state import NO_FIRST_SCAN, Leg, ShipmentState
from app.shipping.tracking import apply_status, note_weight, record_exception

ON_THE_WAY = (ShipmentState.LABEL_READY, ShipmentState.IN_TRANSIT, ShipmentState.OUT_FOR_DELIVERY)
FIRST_SCAN_WITHIN = timedelta(days=3)


@dataclass
class Reconciled:
    """What one run did, parcel by parcel."""

    outcomes: dict[int, str] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)
    returns: dict[int, str] = field(default_factory=dict)  # by lead: returns a lost job owed
    unanswered: list[int] = field(default_factory=list)  # pickups never answered, before staff

    def summary(self) -> str:
        """The run as the command prints it: each parcel read and what it did, then failures."""
        done = "; ".join(f"#{number}: {what}" for number, what in self.outcomes.items())
        failed = "; ".join(f"#{number}: {why}" for number, why in self.failed.items())
        owed = "; ".join(f"lead {number}: {what}" for number, what in self.returns.items())
        unanswered = ", ".join(f"#{number}" for number in self.unanswered)
        return (f"{len(self.outcomes)} parcels read" + (f" ({done})" if done else "")
                + (f"; {len(self.failed)} failed ({failed})" if failed else "")
                + (f"; returns owed: {owed}" if owed else "")
                + (f"; pickups never answered: {unanswered}" if unanswered else ""))  # fmt: skip


def reconcile() -> Reconciled:
    """Read every parcel still on its way (a lost one included: the carrier may yet deliver
    it) from the provider and bring its record up to date."""
    done = Reconciled()
    rows = (
        get_db()
        .execute(
            f"SELECT * FROM shipments WHERE (state IN ({', '.join('?' * len(ON_THE_WAY))}) "
            "OR (state = ? AND delivered_at IS NULL)) "
            "AND provider_shipment_id IS NOT NULL ORDER BY id",
            (*ON_THE_WAY, ShipmentState.LOST),
        )
        .fetchall()
    )
    for row in rows:
        try:
            done.outcomes[row["id"]] = bring_up_to_date(dict(row))
        except ProviderError as error:
            current_app.logger.warning("Shipment %s not reconciled: %s", row["id"], error)
            done.failed[row["id"]] = str(error)
    for lead_id in returns.owed():
        done.returns[lead_id] = returns.open_return(lead_id)
    for parcel in pickups.unanswered():
        attention.raise_once(parcel, attention.PICKUP_UNANSWERED, pickup=parcel["pickup_id"])
        done.unanswered.append(parcel["pickup_id"])
    return done


def bring_up_to_date(row: dict) -> str:
    """One parcel: its label voided if unused too long, else its status applied, and an unused
    label past FIRST_SCAN_WITHIN made an exception. A return's label is never voided (the watch
    is with us and must go back): unscanned, it stays an exception for staff, who hand it over."""
    shipment = easypost_api.retrieve_shipment(row["provider_shipment_id"])
    status = (shipment.get("tracker") or {}).get("status") or "unknown"
    unscanned = row["state"] == ShipmentState.LABEL_READY and status in ("unknown", "pre_transit")
    void_days = current_app.config["MAILIN_LABEL_VOID_DAYS"]
    if unscanned and row["leg"] == Leg.INBOUND and older_than(row["bought_at"], void_days):
        return void_label(row)
    with immediate_transaction() as db:
        current = dict(db.execute("SELECT * FROM shipments WHERE id = ?", (row["id"],)).fetchone())
        note_weight(db, current, (shipment.get("tracker") or {}).get("weight"))
        outcome, alert = apply_status(db, current, status)
        if unscanned and older_than(row["bought_at"], FIRST_SCAN_WITHIN.days):
            outcome, alert = record_exception(db, current, NO_FIRST_SCAN)
    if alert:
        queue.enqueue(*alert)
    notices.queue_owed(current["tracking_code"])
    return outcome


def older_than(moment: str, days: int) -> bool:
    """Whether `moment` (as leads.db stores times) is more than `days` days ago."""
    return datetime.fromisoformat(moment) < datetime.now(UTC) - timedelta(days=days)


def void_label(row: dict) -> str:
    """Ask for an unused label's postage back, then void the parcel, once, on its timeline."""
    easypost_api.refund_shipment(row["provider_shipment_id"])
    with immediate_transaction() as db:
        voided = db.execute(
            "UPDATE shipments SET state = ?, updated_at = ? WHERE id = ? AND state = ?",
            (ShipmentState.VOIDED, now(), row["id"], ShipmentState.LABEL_READY),
        ).rowcount
        if voided:
            append_event(db, row["lead_id"], "system", "shipment_moved",
                         {"leg": row["leg"], "state": str(ShipmentState.VOIDED)})  # fmt: skip
    return "label unused: refund asked, parcel voided" if voided else "already moved on"
