"""The seller's steps before the label of a sale by mail, once the quote is accepted: the
return address verified by the label provider, the ID photos (kept as the paperwork keeps them,
in purchase_files, sealed to the lead), and the shipping conditions ticked one by one. Then
staff verify the ID and only that opens the parcel, insured for the quote's high end.

Every write names the deal (the acceptance event) the page showed and holds only while the lead
is still an accepted mail deal: once staff have verified the ID, the status link alone changes
nothing here (a new return address then needs the seller's mailbox: address_change.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask import current_app

from app.leads import history
from app.leads.db import get_db, immediate_transaction, now
from app.leads.history import append_event
from app.leads.state import State
from app.replica import copies
from app.sale.purchase import files
from app.shipping import labels
from app.shipping.addresses import SUGGESTED, VERIFIED, Checked
from app.shipping.shipment_state import Leg

# The shipping policy's conditions, as the seller ticks them one by one (the same rules as the
# /sell-by-mail page's packing section and the terms' "Selling by Mail").
CONDITIONS = {
    "double_box": "I will pack the watch in a small, well-padded inner box inside a plain outer "
    "box: two boxes, with padding between them.",
    "plain_outside": "I will write nothing on the outside about watches, a brand or a value, "
    "and use the label exactly as printed.",
    "staffed_counter": "I will hand the parcel to a staffed counter of the carrier, never a drop "
    "box, a locker or a doorstep pickup without a receipt.",
    "adult_signature": "I understand that an adult must sign for the parcel when it is "
    "delivered, to you and, if it comes back, to me.",
    "keep_receipt": "I will keep the counter receipt until my status page shows that you have "
    "my watch.",
    "keep_packaging": "If a parcel reaches me damaged or opened, I will keep it and all its "
    "packaging as they are until any claim is settled.",
}
JSON_COLUMNS = ("entered", "suggestion", "address", "conditions")
# The lead must still be an accepted sale by mail, not erased, for any step to count.
OPEN_DEAL = (
    "EXISTS (SELECT 1 FROM leads WHERE leads.id = mail_preparations.lead_id "
    f"AND leads.state = '{State.ACCEPTED}' AND leads.handover = 'mail' "
    "AND leads.erased_at IS NULL)"
)


class NotReady(ValueError):
    """The step cannot be taken now; the message says why, in words for staff or the seller."""


def is_mail_deal(lead: dict) -> bool:
    """Whether the lead is sold by mail (the seller's choice on /sell) while the business
    offers it."""
    return bool(current_app.config["MAILIN_ENABLED"]) and lead.get("handover") == "mail"


def goes_by_mail(lead: dict, quote_high: int | None = None) -> bool:
    """Whether the seller reads the sale by mail's words: a mail deal whose quote, once there is
    one, is within the policy's per-parcel limit (above it the watch is bought in person, and
    the in-person words stay)."""
    return is_mail_deal(lead) and (quote_high or 0) <= current_app.config["MAILIN_MAX_VALUE"]


def deal_of(events: list[dict]) -> int | None:
    """The deal: the event of the seller's latest acceptance of a quote."""
    return history.latest_change_id(events, State.ACCEPTED)


def quote_high(events: list[dict]) -> int | None:
    """The accepted quote's high end: the parcel's declared and insured value."""
    quote = history.latest_change(events, State.QUOTED)
    return int(quote["amount_high"]) if quote else None


def over_the_limit(events: list[dict]) -> bool:
    """Whether the watch is worth more than the policy covers per parcel (MAILIN_MAX_VALUE): it
    is bought in person instead."""
    return (quote_high(events) or 0) > current_app.config["MAILIN_MAX_VALUE"]


def decoded(row) -> dict:
    """A row with its JSON columns read."""
    found = dict(row)
    for name in JSON_COLUMNS:
        found[name] = json.loads(found[name]) if found[name] else None
    return found


def get(lead_id: int, deal: int | None) -> dict:
    """The steps taken for this deal (an empty record if none yet, or only for an older deal)."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM mail_preparations WHERE lead_id = ? AND deal_event_id = ?",
            (lead_id, deal),
        )
        .fetchone()
    )
    if row is None:
        return {"lead_id": lead_id, "deal_event_id": deal} | dict.fromkeys(
            (
                *JSON_COLUMNS,
                "address_id",
                "id_given_at",
                "id_verified_by",
                "id_verified_at",
                "shipment_id",
            )
        )
    return decoded(row)


def missing(record: dict) -> list[str]:
    """The seller's parts not given yet: address, id, conditions."""
    parts = {
        "address": record.get("address_id"),
        "id": record.get("id_given_at"),
        "conditions": record.get("conditions"),
    }
    return [name for name, given in parts.items() if not given]


def start(db, lead_id: int, deal: int) -> None:
    """The row of this deal, inside the caller's transaction: made, or started again when it
    belonged to an earlier deal whose parcel was never opened."""
    db.execute(
        "INSERT INTO mail_preparations (lead_id, deal_event_id, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (lead_id) DO UPDATE SET deal_event_id = excluded.deal_event_id, "
        "entered = NULL, suggestion = NULL, address = NULL, address_id = NULL, "
        "address_at = NULL, id_given_at = NULL, conditions = NULL, conditions_at = NULL, "
        "updated_at = excluded.updated_at "
        "WHERE deal_event_id != excluded.deal_event_id AND shipment_id IS NULL",
        (lead_id, deal, now()),
    )


def write(db, lead_id: int, deal: int, columns: dict, also: str = "") -> bool:
    """Set `columns` on this deal's row while the deal is open and no staff member has verified
    the ID yet (and `also` holds); whether it did."""
    start(db, lead_id, deal)
    values = {
        name: json.dumps(value) if name in JSON_COLUMNS and value is not None else value
        for name, value in columns.items()
    }
    assignments = ", ".join(f"{name} = :{name}" for name in values)
    return bool(
        db.execute(
            f"UPDATE mail_preparations SET {assignments}, updated_at = :at WHERE lead_id = :lead "
            f"AND deal_event_id = :deal AND id_verified_at IS NULL AND {OPEN_DEAL} {also}",
            values | {"at": now(), "lead": lead_id, "deal": deal},
        ).rowcount
    )


def closed() -> NotReady:
    """The one refusal of a step the deal no longer takes."""
    return NotReady("This step is closed: we have already checked your ID for this parcel.")


def record_address(lead_id: int, deal: int, typed: dict, checked: Checked) -> int | None:
    """What the provider said of the address typed: verified, it is the return address (the
    event's id); a correction, kept as the suggestion; undeliverable, only what was typed."""
    columns: dict = {"entered": typed, "suggestion": None}
    if checked.outcome == SUGGESTED:
        columns["suggestion"] = checked.address | {"id": checked.address_id}
    with immediate_transaction() as db:
        if checked.outcome != VERIFIED:
            if not write(db, lead_id, deal, columns):
                raise closed()
            return None
        return confirm_address(db, lead_id, deal, checked.address, checked.address_id, columns)


def confirm_address(
    db, lead_id: int, deal: int, address: dict, address_id: str, columns: dict | None = None
) -> int:
    """The return address on record (its provider id the parcel's from_address_id); the
    event's id. The event names nothing of the address: the timeline is kept after an erasure,
    the preparation's row is not."""
    done = {"address": address, "address_id": address_id, "address_at": now()}
    if not write(db, lead_id, deal, (columns or {}) | done | {"suggestion": None}):
        raise closed()
    return append_event(db, lead_id, "seller", "return_address_confirmed", {})


def accept_suggestion(lead_id: int, deal: int) -> int:
    """The provider's suggested correction, accepted in one click: the return address."""
    with immediate_transaction() as db:
        suggestion = get(lead_id, deal).get("suggestion")
        if not suggestion:
            raise NotReady("There is no suggested address to accept: please type the address.")
        address_id = suggestion.pop("id")
        return confirm_address(db, lead_id, deal, suggestion, address_id)


def give_id(lead_id: int, deal: int, photos: dict[str, bytes]) -> int:
    """The ID's two photos (clean JPEGs), stored sealed as the paperwork stores them: the next
    version of each, for the later paperwork to find; the event's id."""
    written: list[str] = []
    try:
        with immediate_transaction() as db:
            if not write(db, lead_id, deal, {"id_given_at": now()}):
                raise closed()
            for kind in files.ID_PHOTOS:
                written.append(
                    files.add_file(db, lead_id, kind, photos[kind], "image/jpeg")["file_name"]
                )
            event_id = append_event(db, lead_id, "seller", "identity_photos_given", {})
    except BaseException:
        files.remove_files(written)
        raise
    copies.sync_later(lead_id)
    return event_id


def accept_conditions(lead_id: int, deal: int, ticked: list[str]) -> int:
    """Every shipping condition ticked; the event's id (it names them)."""
    if sorted(ticked) != sorted(CONDITIONS):
        raise NotReady("Please tick each of the shipping conditions.")
    with immediate_transaction() as db:
        if not write(db, lead_id, deal, {"conditions": list(CONDITIONS), "conditions_at": now()}):
            raise closed()
        return append_event(
            db, lead_id, "seller", "shipping_conditions_accepted", {"conditions": list(CONDITIONS)}
        )


def register_flagged(lead_id: int) -> bool:
    """Whether the lead's register check that counts is flagged (the serial the seller gave,
    asked before any label, can be): such a watch is not sent for."""
    row = (
        get_db()
        .execute("SELECT register_result FROM purchases WHERE lead_id = ?", (lead_id,))
        .fetchone()
    )
    return row is not None and row[0] == "flagged"


@dataclass(frozen=True)
class Seen:
    """What the lead page showed staff when they verified the ID: the return address's provider
    id and the ID photos' public ids (front, back). The check holds only for what was seen."""

    address_id: str
    id_photos: tuple[str, ...]


def id_photos_of(lead_id: int, record: dict) -> list[dict]:
    """The ID photos this deal's steps gave, the newest of each side (front, back)."""
    photos = files.files_of(lead_id, files.ID_PHOTOS) if record.get("id_given_at") else []
    latest = {row["kind"]: row for row in photos}  # by version: the newest last
    return [latest[kind] for kind in files.ID_PHOTOS if kind in latest]


def seen_now(lead_id: int, record: dict) -> Seen:
    """What the lead page shows staff of this deal's steps now."""
    photos = tuple(row["public_id"] for row in id_photos_of(lead_id, record))
    return Seen(record.get("address_id") or "", photos)


CHANGED = (
    "The seller changed their return address or ID photos after this page was shown: look at "
    "them again before you verify the ID. Nothing was changed."
)


def verify_id_and_open(lead_id: int, actor: str, seen: Seen) -> int:
    """Staff compared the ID they were shown (`seen`) with the seller's details: the parcel is
    opened, insured for the quote's high end, from the verified return address; its id. Again
    (a double click), the same parcel. NotReady, nothing changed, while a part is missing, the
    deal is not open, or the address or a photo is not the one staff saw: all read in the
    transaction that opens the parcel, so no step of the seller's slips in between."""
    with immediate_transaction() as db:
        lead = db.execute("SELECT * FROM leads WHERE id = ?", (lead_id,)).fetchone()
        if lead is None or not is_mail_deal(dict(lead)) or lead["state"] != State.ACCEPTED:
            raise NotReady("Only an accepted sale by mail gets a label. Nothing was changed.")
        events = history.lead_events(lead_id)
        record = get(lead_id, deal_of(events))
        if record["shipment_id"]:
            return record["shipment_id"]
        if missing(record):
            raise NotReady(
                f"The seller has not given: {', '.join(missing(record))}. Nothing was changed."
            )
        if seen != seen_now(lead_id, record):
            raise NotReady(CHANGED)
        if register_flagged(lead_id):
            raise NotReady(
                "The stolen-watch register check stands FLAGGED: the sale is on hold and no "
                "label is bought. Do not tell the seller why. Nothing was changed."
            )
        try:
            shipment_id = labels.record_shipment(
                db, lead_id, Leg.INBOUND, record["deal_event_id"], quote_high(events) or 0,
                record["address_id"],
            )  # fmt: skip
        except labels.OverTheLimit as error:
            raise NotReady(
                f"{error}: this watch is bought in person. Nothing was changed."
            ) from None
        db.execute(
            "UPDATE mail_preparations SET id_verified_by = ?, id_verified_at = ?, "
            "shipment_id = ?, updated_at = ? WHERE lead_id = ? AND deal_event_id = ?",
            (actor, now(), shipment_id, now(), lead_id, record["deal_event_id"]),
        )
        append_event(db, lead_id, actor, "identity_verified_for_label", {"shipment": shipment_id})
    return shipment_id
