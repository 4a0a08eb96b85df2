"""A seller's parcel opened on record: staff weigh it against the weight the carrier measured
(or, if it gave none, the label's: every label is bought for one standard weight), say whether
the seal held, photograph the box as received, the opening and the serial in frame (a short
video if they have one) and type the serial, which the stolen-watch register is then asked
about, as the findings' serial is (register_asks.py): the watch goes back only after a clear
check of it (returns.py).

The photos and the video are purchase files (app/sale/purchase/files.py): sealed to their lead
and kind in private storage, copied to the replica, re-sealed by a key rotation and erased with
the lead as the purchase's other files are. A match moves the parcel to received (a
conditional UPDATE, forward only, on the timeline); a mismatch (the weight outside the
tolerance, or the seal broken) is recorded as it is, and the parcel counts as received only
once a second staff member signs it off: the database refuses the one who recorded it. Both
steps are on the lead's timeline, the staff views audit them, and nothing is changed or deleted
afterwards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from flask import current_app

from app import queue
from app.leads import store
from app.leads.db import get_db, immediate_transaction, now
from app.leads.history import append_event
from app.leads.state import State
from app.replica import copies
from app.sale.purchase import files, register_asks
from app.shipping.shipment_state import ARRIVAL_MISMATCH, Leg, ShipmentState
from app.shipping.tracking import move_forward

NOTHING_CHANGED = "Nothing was changed."


class NotRecorded(ValueError):
    """The arrival (or its sign-off) was refused; str() says why, for staff."""


@dataclass
class Opened:
    """What staff found opening the parcel, as the arrival form checked it: photos as clean
    JPEG bytes, the video as (bytes, media type) or None."""

    weight_oz: float
    seal_intact: bool
    serial: str
    box_photos: list[bytes]
    opening_photos: list[bytes]
    serial_photo: bytes
    video: tuple[bytes, str] | None = None
    note: str = ""
    kinds: list[tuple[str, bytes, str]] = field(init=False)

    def __post_init__(self):
        jpeg = "image/jpeg"
        self.kinds = (
            [("arrival_box", photo, jpeg) for photo in self.box_photos]
            + [("arrival_opening", photo, jpeg) for photo in self.opening_photos]
            + [("arrival_serial", self.serial_photo, jpeg)]
            + ([("arrival_video", *self.video)] if self.video else [])
        )


def tolerance_oz() -> float:
    """How far the parcel's weight may be from its label's and still match, in ounces."""
    return float(current_app.config["MAILIN_WEIGHT_TOLERANCE_OZ"])


def inbound_parcel(lead_id: int, db=None) -> dict | None:
    """The lead's latest parcel on its way to us (its deal of now), or None."""
    row = (
        (db or get_db())
        .execute(
            "SELECT * FROM shipments WHERE lead_id = ? AND leg = ? ORDER BY id DESC LIMIT 1",
            (lead_id, Leg.INBOUND),
        )
        .fetchone()
    )
    return dict(row) if row else None


def arrival_of(shipment_id: int, db=None) -> dict | None:
    """The parcel's arrival on record, its `mismatch` and `files` as lists, or None."""
    row = (
        (db or get_db())
        .execute("SELECT * FROM arrivals WHERE shipment_id = ?", (shipment_id,))
        .fetchone()
    )
    if row is None:
        return None
    arrival = dict(row)
    arrival["mismatch"] = json.loads(arrival["mismatch"]) if arrival["mismatch"] else []
    arrival["files"] = json.loads(arrival["files"])
    return arrival


def arrival_files(arrival: dict) -> list[dict]:
    """The purchase files of an arrival still on record (an erasure drops them), in order."""
    if not arrival["files"]:
        return []
    rows = get_db().execute(
        "SELECT * FROM purchase_files WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
        (json.dumps(arrival["files"]),),
    )
    return [dict(row) for row in rows]


def expected_weight(parcel: dict) -> tuple[float | None, bool]:
    """What the parcel should weigh, and whether the carrier measured it: its measurement when
    it gave one (the label is bought for a standard weight), else the label's weight."""
    if parcel.get("carrier_weight_oz") is not None:
        return parcel["carrier_weight_oz"], True
    return parcel["label_weight_oz"], False


def mismatches(weight_oz: float, parcel: dict, seal_intact: bool) -> list[str]:
    """What did not match, in staff's words: the weight beyond the tolerance of the expected
    weight (or none to compare with), the seal broken. Empty for a match."""
    found = []
    expected, measured = expected_weight(parcel)
    whose = "the carrier's measured" if measured else "the label's"
    if expected is None:
        found.append("no label weight on record to compare with")
    elif abs(weight_oz - expected) > tolerance_oz():
        found.append(
            f"weighs {weight_oz:g} oz against {whose} {expected:g} oz "
            f"(more than {tolerance_oz():g} oz apart)"
        )
    if not seal_intact:
        found.append("the seal was broken or missing")
    return found


def refuse_unless_openable(parcel: dict | None, db) -> None:
    """Only a delivered parcel of ours, not yet opened on record, is recorded."""
    if parcel is None:
        raise NotRecorded(f"This lead has no parcel on its way to us. {NOTHING_CHANGED}")
    if arrival_of(parcel["id"], db) is not None:
        raise NotRecorded(f"This parcel's arrival is already on record. {NOTHING_CHANGED}")
    if parcel["state"] != ShipmentState.DELIVERED:
        state = str(parcel["state"]).replace("_", " ")
        raise NotRecorded(
            f"The carrier has this parcel as {state}, not delivered: record its arrival once "
            f"the carrier reports it delivered (the tracking catches up within 3 hours). "
            f"{NOTHING_CHANGED}"
        )


def record_arrival(lead_id: int, opened: Opened, actor: str) -> dict:
    """Put the opening on record with its files, in one transaction; a match moves the parcel
    to received, a mismatch makes it an exception waiting for a second staff member. The
    arrival. NotRecorded (nothing kept, no file left behind) unless the lead's inbound parcel
    is delivered and not yet opened on record."""
    written: list[str] = []
    try:
        with immediate_transaction() as db:
            parcel = inbound_parcel(lead_id, db)
            refuse_unless_openable(parcel, db)
            file_ids = []
            for kind, data, media_type in opened.kinds:
                row = files.add_file(db, lead_id, kind, data, media_type)
                written.append(row["file_name"])
                file_ids.append(row["id"])
            found = mismatches(opened.weight_oz, parcel, opened.seal_intact)
            facts = {
                "shipment_id": parcel["id"], "lead_id": lead_id, "weight_oz": opened.weight_oz,
                "label_weight_oz": parcel["label_weight_oz"], "tolerance_oz": tolerance_oz(),
                "carrier_weight_oz": parcel["carrier_weight_oz"],
                "seal_intact": int(opened.seal_intact), "serial": opened.serial,
                "files": json.dumps(file_ids), "mismatch": json.dumps(found) if found else None,
                "recorded_by": actor, "recorded_at": now(),
            }  # fmt: skip
            db.execute(
                f"INSERT INTO arrivals ({', '.join(facts)}) "
                f"VALUES ({', '.join(':' + name for name in facts)})",
                facts,
            )
            append_event(db, lead_id, actor, "arrival_recorded", {
                "weight_oz": opened.weight_oz, "label_weight_oz": parcel["label_weight_oz"],
                "carrier_weight_oz": parcel["carrier_weight_oz"],
                "seal_intact": opened.seal_intact, "serial": opened.serial,
                "files": len(file_ids), "mismatch": found, "note": opened.note,
            })  # fmt: skip
            if found:
                db.execute(
                    "UPDATE shipments SET exception_status = ?, updated_at = ? WHERE id = ?",
                    (ARRIVAL_MISMATCH, now(), parcel["id"]),
                )
            else:
                move_forward(db, parcel, ShipmentState.RECEIVED)
    except BaseException:
        files.remove_files(written)
        raise
    copies.sync_later(lead_id)
    current_app.logger.info("Lead %s: parcel %s opened on record.", lead_id, parcel["id"])
    register_asks.ask_about(lead_id, opened.serial, "serial_on_record")
    if store.get_lead(lead_id)["state"] == State.CLOSED:  # ended while the watch travelled:
        queue.enqueue(queue.OPEN_RETURN_PARCEL, lead_id)  # its return waits for this check
    return arrival_of(parcel["id"])


def sign_off(lead_id: int, actor: str, note: str) -> dict:
    """A second staff member's sign-off of an arrival that did not match: the parcel then
    counts as received. The arrival. NotRecorded for the one who recorded it, an arrival that
    matched or is signed off already, or none."""
    with immediate_transaction() as db:
        parcel = inbound_parcel(lead_id, db)
        arrival = arrival_of(parcel["id"], db) if parcel else None
        if arrival is None:
            raise NotRecorded(f"This parcel's arrival is not on record yet. {NOTHING_CHANGED}")
        if not arrival["mismatch"]:
            raise NotRecorded(
                f"This arrival matched: there is nothing to sign off. {NOTHING_CHANGED}"
            )
        if arrival["signed_off_by"]:
            raise NotRecorded(f"This arrival is already signed off. {NOTHING_CHANGED}")
        if arrival["recorded_by"] == actor:
            raise NotRecorded(
                "You recorded this arrival, so another staff member must sign it off. "
                f"{NOTHING_CHANGED}"
            )
        db.execute(
            "UPDATE arrivals SET signed_off_by = ?, signed_off_at = ? "
            "WHERE id = ? AND signed_off_by IS NULL",
            (actor, now(), arrival["id"]),
        )
        append_event(db, lead_id, actor, "arrival_signed_off",
                     {"mismatch": arrival["mismatch"], "note": note})  # fmt: skip
        move_forward(db, parcel, ShipmentState.RECEIVED)
    return arrival_of(parcel["id"])
