"""The sale by mail's parcels as staff look for them (`/staff/shipments`): on their way, delivered
and waiting to be opened (not one opened already, whose mismatch waits for its sign-off, nor
one whose return is on record: it goes back unopened), with an exception, on their way back,
held and not to be returned, with a claim under the policy, or all; newest first."""

from __future__ import annotations

from app.leads.db import get_db
from app.shipping.shipment_state import ENDED, Leg, ShipmentState

ON_THE_WAY = (ShipmentState.LABEL_READY, ShipmentState.IN_TRANSIT, ShipmentState.OUT_FOR_DELIVERY)
BACK = (*ENDED, ShipmentState.DELIVERED)  # a return delivered to the seller is done
PAGE_SIZE = 50


def quoted(states) -> str:
    """States as an SQL list (they are this module's own constants, never a visitor's)."""
    return ", ".join(f"'{state}'" for state in states)


# An inbound parcel whose deal has its return parcel on record (the seller withdrew while it
# travelled): SQL, as TABS' conditions are.
RETURN_ON_RECORD = (
    "EXISTS (SELECT 1 FROM shipments AS back WHERE back.lead_id = shipments.lead_id "
    f"AND back.leg = '{Leg.RETURN}' AND back.deal_event_id = shipments.deal_event_id)"
)
# Each tab: its key in the query string, its label, and the parcels it holds (SQL).
TABS = (
    ("on-the-way", "On the way to us",
     f"leg = '{Leg.INBOUND}' AND shipments.state IN ({quoted(ON_THE_WAY)})"),
    ("to-open", "Delivered, to open",
     f"leg = '{Leg.INBOUND}' AND shipments.state = '{ShipmentState.DELIVERED}' "
     "AND NOT EXISTS (SELECT 1 FROM arrivals WHERE arrivals.shipment_id = shipments.id) "
     f"AND NOT {RETURN_ON_RECORD}"),
    ("exceptions", "Exceptions",
     f"exception_status IS NOT NULL AND shipments.state NOT IN ({quoted(ENDED)})"),
    ("returns", "Returns",
     f"leg = '{Leg.RETURN}' AND shipments.state NOT IN ({quoted(BACK)})"),
    ("held", "Held, do not return", "return_held_at IS NOT NULL"),
    ("claims", "Claims",
     "EXISTS (SELECT 1 FROM shipment_claims WHERE shipment_claims.shipment_id = shipments.id)"),
    ("all", "All", "1"),
)  # fmt: skip
WHERE = {key: where for key, _label, where in TABS}


def tab_counts() -> list[tuple[str, str, int]]:
    """(key, label, how many) of each tab, in one query."""
    counts = ", ".join(f"sum({where})" for _key, _label, where in TABS)
    row = get_db().execute(f"SELECT {counts} FROM shipments").fetchone()
    return [(key, label, row[index] or 0) for index, (key, label, _where) in enumerate(TABS)]


def parcels(tab: str, limit: int = PAGE_SIZE) -> list[dict]:
    """A tab's parcels with their lead's reference and any claim's kind and state, newest first;
    an unknown tab is `all`."""
    rows = get_db().execute(
        "SELECT shipments.*, leads.reference, shipment_claims.kind AS claim_kind, "
        "shipment_claims.state AS claim_state FROM shipments JOIN leads ON leads.id = lead_id "
        "LEFT JOIN shipment_claims ON shipment_claims.shipment_id = shipments.id "
        f"WHERE {WHERE.get(tab, WHERE['all'])} ORDER BY shipments.id DESC LIMIT ?",
        (limit,),
    )
    return [dict(row) for row in rows]


def one(shipment_id: int) -> dict | None:
    """One parcel as its staff page shows it, with its lead's reference; None if there is none."""
    row = (
        get_db()
        .execute(
            "SELECT shipments.*, leads.reference FROM shipments JOIN leads ON leads.id = lead_id "
            "WHERE shipments.id = ?",
            (shipment_id,),
        )
        .fetchone()
    )
    return dict(row) if row else None
