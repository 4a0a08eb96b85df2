"""A carrier pickup at the seller's door, booked from the status page once the label is there:
optional (the seller may hand the parcel over at a staffed counter instead), and offered only
while MAILIN_PICKUPS is on, as the policy must accept a handover to the carrier's driver.

Booked once however often it is asked or retried, as the label is bought: the booking's row
first (one live booking per parcel, the database's unique index), then the provider's pickup
created and its id stored before it is booked; a retry reads that pickup and takes a booking a
timed-out try made. The carrier's refusal of a day (no pickups there then) ends the booking as
failed, in its words, and the seller may choose another day; an outage is retried by the job.
A booking the seller cancels while the job is making it is called off at the provider as well.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from flask import current_app

from app import queue
from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.display import business_today
from app.leads.history import append_event
from app.shipping import easypost_api
from app.shipping.easypost_api import ProviderError
from app.shipping.shipment_state import Leg, ShipmentState

DAYS_OFFERED = 5  # the next working days a seller may choose
WINDOW = ("09:00:00", "17:00:00")  # local to the seller's address
# How long after the booking job's last retry a booking still asked counts as never answered.
ANSWER_WITHIN = timedelta(minutes=30)


class PickupRefused(ValueError):
    """A booking that cannot be asked or cancelled now; str() is fit to show the seller."""


def days_offered(today: date | None = None) -> list[date]:
    """The next DAYS_OFFERED working days (Monday to Friday), from tomorrow."""
    day, days = today or business_today(), []
    while len(days) < DAYS_OFFERED:
        day += timedelta(days=1)
        if day.weekday() < 5:
            days.append(day)
    return days


def live(shipment_id: int) -> dict | None:
    """The parcel's booking asked or scheduled, if any."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM pickups WHERE shipment_id = ? AND state IN ('asked', 'scheduled')",
            (shipment_id,),
        )
        .fetchone()
    )
    return dict(row) if row else None


def latest(shipment_id: int) -> dict | None:
    """The parcel's last booking, whatever became of it (for the status page)."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM pickups WHERE shipment_id = ? ORDER BY id DESC LIMIT 1", (shipment_id,)
        )
        .fetchone()
    )
    return dict(row) if row else None


def ask(shipment: dict, day: date) -> int:
    """Ask for a pickup of the seller's parcel on `day` (the job books it); the booking's id,
    the live one's if it is asked already for that day. PickupRefused in the seller's words."""
    if not current_app.config["MAILIN_PICKUPS"]:
        raise PickupRefused("Pickups are not offered: please take the parcel to a staffed counter.")
    if shipment["leg"] != Leg.INBOUND or shipment["state"] != ShipmentState.LABEL_READY:
        raise PickupRefused(
            "A pickup is booked for a parcel whose label is ready and not yet with the carrier."
        )
    if day not in days_offered():
        raise PickupRefused("Please choose one of the days offered.")
    with immediate_transaction() as db:
        booked = live(shipment["id"])
        if booked is not None:
            if booked["day"] == day.isoformat():
                return booked["id"]
            raise PickupRefused(
                "A pickup is already booked: cancel it first to choose another day."
            )
        pickup_id = db.execute(
            "INSERT INTO pickups (shipment_id, lead_id, day, asked_at) VALUES (?, ?, ?, ?)",
            (shipment["id"], shipment["lead_id"], day.isoformat(), now()),
        ).lastrowid
        append_event(db, shipment["lead_id"], "seller", "pickup_asked", {"day": day.isoformat()})
    queue.enqueue(queue.BOOK_PICKUP, pickup_id)
    return pickup_id


def get(pickup_id: int) -> dict:
    """One booking with its parcel's provider ids; LookupError if there is none."""
    row = (
        get_db()
        .execute(
            "SELECT pickups.*, shipments.provider_shipment_id, shipments.from_address_id, "
            "shipments.tracking_code FROM pickups "
            "JOIN shipments ON shipments.id = pickups.shipment_id WHERE pickups.id = ?",
            (pickup_id,),
        )
        .fetchone()
    )
    if row is None:
        raise LookupError(f"Pickup {pickup_id} does not exist.")
    return dict(row)


def unanswered() -> list[dict]:
    """Bookings still asked well after the job's last retry (the provider never answered, or
    the job was lost), each with its parcel's row, for the reconciler to put before staff."""
    retries = timedelta(seconds=sum(current_app.config["JOB_RETRY_INTERVALS"]))
    since = (datetime.now(UTC) - retries - ANSWER_WITHIN).isoformat(timespec="seconds")
    rows = get_db().execute(
        "SELECT shipments.*, pickups.id AS pickup_id FROM pickups "
        "JOIN shipments ON shipments.id = pickups.shipment_id "
        "WHERE pickups.state = 'asked' AND pickups.asked_at < ? ORDER BY pickups.id",
        (since,),
    )
    return [dict(row) for row in rows]


def book(pickup_id: int) -> str:
    """The job's work: the booking made at the provider, once. Raises ProviderError for the job
    to retry when the provider failed (no answer, 5xx); a refusal (4xx) ends it as failed. A
    booking the seller cancelled while the job made it is called off at the provider too."""
    row = get(pickup_id)
    if row["state"] == "cancelled" and row["provider_pickup_id"]:
        return call_off(row["provider_pickup_id"])  # a retry after calling it off failed
    if row["state"] != "asked":
        return f"already {row['state']}"
    try:
        provider_id = row["provider_pickup_id"] or create_once(row)
        pickup = easypost_api.retrieve_pickup(provider_id)
        if pickup.get("status") != "scheduled":
            pickup = easypost_api.buy_pickup(provider_id, cheapest(pickup))
    except ProviderError as error:
        if error.status is None or error.status >= 500:
            raise
        return end(row, "failed", {"failure": str(error)[:300]})
    booked = end(row, "scheduled", {"confirmation": pickup.get("confirmation") or ""})
    return call_off(provider_id) if get(pickup_id)["state"] == "cancelled" else booked


def call_off(provider_id: str) -> str:
    """A booking the seller cancelled while the job was making it: called off at the provider,
    so no driver comes for a parcel that is not waiting (ProviderError for the job to retry)."""
    if easypost_api.retrieve_pickup(provider_id).get("status") != "scheduled":
        return "already cancelled"
    easypost_api.cancel_pickup(provider_id)
    return "cancelled while it was booked: called off at the carrier"


def create_once(row: dict) -> str:
    """The provider's pickup for this booking, created and its id stored before it is booked
    (a concurrent try's stored id wins; its spare costs nothing)."""
    day = row["day"]
    window = (f"{day}T{WINDOW[0]}", f"{day}T{WINDOW[1]}")
    reference = f"lead-{row['lead_id']}-pickup-{row['id']}"
    made = easypost_api.create_pickup(
        row["provider_shipment_id"], row["from_address_id"], window, reference
    )
    with transaction() as db:
        db.execute(
            "UPDATE pickups SET provider_pickup_id = ? WHERE id = ? AND provider_pickup_id IS NULL",
            (made["id"], row["id"]),
        )
    return get(row["id"])["provider_pickup_id"]


def cheapest(pickup: dict) -> dict:
    """The pickup's cheapest rate; ProviderError if the carrier offers none that day."""
    rates = pickup.get("pickup_rates") or []
    if not rates:
        raise ProviderError("the carrier offers no pickup at this address on that day", 422)
    return min(rates, key=lambda rate: float(rate["rate"]))


def end(row: dict, state: str, values: dict) -> str:
    """Record the booking's outcome once (a repeated job finds it recorded) and put it on the
    lead's timeline; the outcome."""
    column = "confirmation" if state == "scheduled" else "failure"
    with transaction() as db:
        moved = db.execute(
            f"UPDATE pickups SET state = ?, {column} = ?, scheduled_at = ? "
            "WHERE id = ? AND state = 'asked'",
            (state, values[column], now() if state == "scheduled" else None, row["id"]),
        ).rowcount
        if moved:
            event = {"day": row["day"]} | ({"why": values[column]} if state == "failed" else {})
            append_event(db, row["lead_id"], "system", f"pickup_{state}", event)
    return state


def cancel(shipment: dict) -> None:
    """The seller calls their booked pickup off (the provider first, then the record);
    PickupRefused when there is none, ProviderError if the provider would not."""
    booked = live(shipment["id"])
    if booked is None:
        raise PickupRefused("There is no pickup booked for this parcel.")
    if booked["provider_pickup_id"]:
        easypost_api.cancel_pickup(booked["provider_pickup_id"])
    with transaction() as db:
        moved = db.execute(
            "UPDATE pickups SET state = 'cancelled' "
            "WHERE id = ? AND state IN ('asked', 'scheduled')",
            (booked["id"],),
        ).rowcount
        if moved:
            event = {"day": booked["day"]}
            append_event(db, booked["lead_id"], "seller", "pickup_cancelled", event)
