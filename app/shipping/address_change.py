"""A return address changed after the label is bought. A status link can be forwarded or
leaked, and whoever holds it must not redirect the parcel or have a label re-issued: so the new
address, verified by the provider, only waits here, and the address on file gets a one-time link
(256 bits, kept as a digest, as the payout account's check). Only the seller's confirmation from
that e-mail replaces the parcel: the old label is voided and its postage asked back, and a new
parcel from the new address is opened for the label job. Once the carrier has scanned the
parcel, no change is taken at all.
"""

from __future__ import annotations

import json
from datetime import timedelta

from flask import current_app

from app.leads import links
from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.history import append_event
from app.leads.state import State
from app.security.tokens import TOKEN_LENGTH, digest
from app.shipping import attention, easypost_api
from app.shipping.addresses import Checked
from app.shipping.easypost_api import ProviderError
from app.shipping.shipment_state import ShipmentState

CONFIRM_WITHIN = timedelta(days=2)
CONFIRM_WITHIN_WORDS = "2 days"
# A change that still stands: not answered, its parcel's label still unscanned, its lead still
# an accepted deal not erased.
STANDING = (
    "FROM address_changes JOIN leads ON leads.id = address_changes.lead_id "
    "JOIN shipments ON shipments.id = address_changes.shipment_id "
    f"WHERE address_changes.answered_at IS NULL AND leads.state = '{State.ACCEPTED}' "
    f"AND leads.erased_at IS NULL AND shipments.state = '{ShipmentState.LABEL_READY}'"
)
# Not whether its e-mail is noted as sent: the seller may open it first (see payout.LIVE_LINK).
LIVE_LINK = f"{STANDING} AND token_hash = :hash AND expires_at > :now"


class NotChangeable(ValueError):
    """The parcel's address cannot be changed now (the message says why, to the seller)."""


def pending(lead_id: int, shipment: dict) -> bool:
    """Whether a change of this parcel's address waits for the seller's confirmation."""
    row = (
        get_db()
        .execute(
            f"SELECT 1 {STANDING} AND address_changes.lead_id = ? "
            "AND address_changes.shipment_id = ? AND (expires_at IS NULL OR expires_at > ?)",
            (lead_id, shipment["id"], now()),
        )
        .fetchone()
    )
    return row is not None


def ask(lead_id: int, shipment: dict, checked: Checked) -> int:
    """Put a verified new address aside for the seller's confirmation by e-mail; the change's
    id (the caller queues its e-mail). NotChangeable once the carrier has the parcel."""
    if shipment["state"] == ShipmentState.CREATED:
        raise NotChangeable(
            "We are buying your label now. Once it appears on this page, you can change the "
            "return address here."
        )
    if shipment["state"] != ShipmentState.LABEL_READY:
        raise NotChangeable(
            "The carrier already has your parcel, so its address can no longer be changed. "
            "Please call us if it needs to come back to another address."
        )
    with transaction() as db:
        change_id = db.execute(
            "INSERT INTO address_changes (lead_id, shipment_id, address, address_id, asked_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (lead_id, shipment["id"], json.dumps(checked.address), checked.address_id, now()),
        ).lastrowid
        append_event(db, lead_id, "seller", "return_address_change_asked", {"change": change_id})
    return change_id


def lead_awaiting_link(change_id: int) -> dict | None:
    """The lead of a change whose e-mail has not gone yet and which still stands."""
    row = (
        get_db()
        .execute(
            f"SELECT leads.*, address_changes.address AS new_address {STANDING} "
            "AND address_changes.id = ? AND sent_at IS NULL",
            (change_id,),
        )
        .fetchone()
    )
    return dict(row) | {"new_address": json.loads(row["new_address"])} if row else None


def issue_link(change_id: int) -> str:
    """A new link for the e-mail about to be sent (links.issue_one_time_link)."""
    return links.issue_one_time_link(
        "address_changes", change_id, "/status/address", CONFIRM_WITHIN
    )


def mark_link_sent(change_id: int) -> None:
    """Record that the e-mail has gone, so a retry sends no other."""
    with transaction() as db:
        db.execute("UPDATE address_changes SET sent_at = ? WHERE id = ?", (now(), change_id))


def lead_for_link(token: str) -> dict | None:
    """The lead and new address a live link would confirm; None for every failure alike."""
    if len(token) != TOKEN_LENGTH:
        return None
    row = (
        get_db()
        .execute(
            f"SELECT leads.*, address_changes.address AS new_address {LIVE_LINK}",
            {"hash": digest(token), "now": now()},
        )
        .fetchone()
    )
    return dict(row) | {"new_address": json.loads(row["new_address"])} if row else None


def confirm(token: str) -> tuple[int, int] | None:
    """The seller confirms the change from their e-mail, once: the old parcel voided, a new one
    opened from the new address for the same deal's value (lead id, new parcel id), or None,
    changing nothing, for a link that is not live. The old label's postage is then asked back."""
    if len(token) != TOKEN_LENGTH:
        return None
    with immediate_transaction() as db:
        change = db.execute(
            f"SELECT address_changes.* {LIVE_LINK}", {"hash": digest(token), "now": now()}
        ).fetchone()
        if change is None:
            return None
        old = dict(
            db.execute("SELECT * FROM shipments WHERE id = ?", (change["shipment_id"],)).fetchone()
        )
        db.execute(
            "UPDATE shipments SET state = ?, updated_at = ? WHERE id = ? AND state = ?",
            (ShipmentState.VOIDED, now(), old["id"], ShipmentState.LABEL_READY),
        )
        event_id = append_event(
            db,
            change["lead_id"],
            "seller",
            "return_address_changed",
            {"change": change["id"], "old_shipment": old["id"]},
        )
        new_id = db.execute(
            "INSERT INTO shipments (lead_id, leg, deal_event_id, insured_value, policy, "
            "from_address_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                old["lead_id"],
                old["leg"],
                event_id,
                old["insured_value"],
                old["policy"],
                change["address_id"],
                now(),
                now(),
            ),
        ).lastrowid
        db.execute(
            "UPDATE address_changes SET answered_at = ?, new_shipment_id = ? WHERE id = ?",
            (now(), new_id, change["id"]),
        )
        db.execute(
            "UPDATE mail_preparations SET address = ?, address_id = ?, address_at = ?, "
            "shipment_id = ?, updated_at = ? WHERE lead_id = ? AND shipment_id = ?",
            (
                change["address"],
                change["address_id"],
                now(),
                new_id,
                now(),
                old["lead_id"],
                old["id"],
            ),
        )
    refund(old)
    return old["lead_id"], new_id


def refund(old: dict) -> None:
    """Ask the provider for the voided label's postage back; a failure is put before staff, who
    ask again (the label is void on our side already: no parcel is accepted on it)."""
    if not old.get("provider_shipment_id"):
        return
    try:
        easypost_api.refund_shipment(old["provider_shipment_id"])
    except ProviderError as error:
        current_app.logger.warning(
            "Lead %s: the replaced label's refund failed: %s", old["lead_id"], error
        )
        attention.raise_once(old, attention.REFUND_FAILED)
