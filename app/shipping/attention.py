"""What the sale by mail needs a person for when no carrier says so: a replaced label whose
postage the provider did not give back, a pickup whose booking never got an answer, a return
that could not be opened because the watch is worth more than the policy covers per parcel, and
a parcel claimed lost that the carrier then delivered (the insurer must be told), and a return
that waits for the watch to be opened on record or for a clear register check.
Each goes on the lead's timeline once per parcel and reason (`shipment_attention`, with what to
do in staff's words) and staff are e-mailed once (worker/shipping_alerts.py), however often the
job or the reconciler that finds it runs."""

from __future__ import annotations

from app import queue
from app.leads.db import immediate_transaction
from app.leads.history import append_event

REFUND_FAILED = "refund_failed"
PICKUP_UNANSWERED = "pickup_unanswered"
RETURN_OVER_LIMIT = "return_over_limit"
DELIVERED_AFTER_LOST = "delivered_after_lost"
RETURN_WAITS_FOR_ARRIVAL = "return_waits_for_arrival"
RETURN_WAITS_FOR_CHECK = "return_waits_for_check"
# What staff read: the e-mail's subject, and on the timeline and in the e-mail what happened
# and what to do.
TITLES = {
    REFUND_FAILED: "a replaced label's postage was not refunded",
    PICKUP_UNANSWERED: "its pickup booking was never answered",
    RETURN_OVER_LIMIT: "its return could not be opened",
    DELIVERED_AFTER_LOST: "delivered after it was claimed lost",
    RETURN_WAITS_FOR_ARRIVAL: "its return waits: open it on record",
    RETURN_WAITS_FOR_CHECK: "its return waits: record a clear register check",
}
WHY = {
    REFUND_FAILED: (
        "its label, replaced after the seller confirmed a new return address, is void, but the "
        "label provider did not give its postage back: ask for the refund on the provider's "
        "dashboard"
    ),
    PICKUP_UNANSWERED: (
        "the carrier never answered the seller's pickup booking: book it with the carrier by "
        "phone, or ask the seller to take the parcel to a staffed counter"
    ),
    RETURN_OVER_LIMIT: (
        "the watch is with us and its sale has ended, but no return label was bought: its "
        "insured value is above the policy's per-parcel limit (MAILIN_MAX_VALUE). Return it in "
        "person or under cover arranged with the insurer"
    ),
    DELIVERED_AFTER_LOST: (
        "the carrier reports this parcel delivered after its claim as lost was opened: it "
        "counts as delivered again (to us: open it on record; to the seller: their watch is "
        "back). Tell the insurer, with the claim's reference: an open claim is withdrawn, and "
        "a claim already paid is owed back"
    ),
    RETURN_WAITS_FOR_ARRIVAL: (
        "the watch is with us and its sale has ended, but its parcel was never opened on record: "
        "a watch goes back only after a clear stolen-watch register check of the serial seen at "
        "its arrival. Open it on record (the arrival asks the register), and the return follows "
        "a clear answer"
    ),
    RETURN_WAITS_FOR_CHECK: (
        "the watch is with us and its sale has ended, but no clear stolen-watch register check "
        "of the serial seen on it is on record (the register gave no usable answer, could not "
        "say, or is not asked by API). Search the register by hand and record the check with "
        "its certificate on the lead's purchase panel: a clear one opens the return. Keep the "
        "watch until then"
    ),
}


def raise_once(parcel: dict, reason: str, pickup: int = 0) -> int | None:
    """Put `reason` for this parcel (and its booking `pickup`, if it is about one) on its
    lead's timeline and queue staff's e-mail, unless it is there already; the new event's id,
    or None."""
    with immediate_transaction() as db:
        event_id = note_once(db, parcel, reason, pickup)
    if event_id is not None:
        queue.enqueue(queue.ALERT_SHIPPING_ATTENTION, parcel["lead_id"], event_id)
    return event_id


def note_once(db, parcel: dict, reason: str, pickup: int = 0) -> int | None:
    """raise_once's timeline event inside the caller's transaction, the e-mail left for the
    caller to queue once it has committed; the new event's id, or None if it is there."""
    seen = db.execute(
        "SELECT 1 FROM lead_events WHERE lead_id = ? AND kind = 'shipment_attention' "
        "AND json_extract(data, '$.shipment') = ? AND json_extract(data, '$.reason') = ? "
        "AND json_extract(data, '$.pickup') = ?",
        (parcel["lead_id"], parcel["id"], reason, pickup),
    ).fetchone()
    if seen:
        return None
    event = {"leg": parcel["leg"], "shipment": parcel["id"], "pickup": pickup,
             "reason": reason, "title": TITLES[reason], "why": WHY[reason]}  # fmt: skip
    return append_event(db, parcel["lead_id"], "system", "shipment_attention", event)
