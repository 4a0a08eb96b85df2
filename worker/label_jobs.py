"""The sale by mail's jobs before the parcel moves: the label bought once staff have verified
the seller's ID (app/shipping/labels.py buys it once, however often the job runs), staff
e-mailed once its retries are used up; and the e-mail that asks the seller, at the address on
file, to confirm a new return address (app/shipping/address_change.py). Neither e-mail carries a
tracking number or a label: those stay on the status page and the staff pages."""

from __future__ import annotations

import secrets

from flask import current_app

from app.leads import email_kinds, history, store
from app.leads.display import local_time, watch_name
from app.shipping import address_change, labels, notices
from app.shipping.addresses import one_line
from worker import mail
from worker.seller_mail import Letter, letter_message

FAILED = "label_purchase_failed"


def buy_shipping_label(shipment_id: int) -> str:
    """Buy the parcel's label (once: a retry takes the label a timed-out try bought). A failure
    is on the lead's timeline and raised, so the job is retried on JOB_RETRY_INTERVALS; after
    the last try staff are e-mailed."""
    row = labels.get(shipment_id)
    try:
        bought = labels.buy_label(shipment_id)
    except Exception as error:
        event_id = history.add_event(
            row["lead_id"], "system", FAILED, {"shipment": shipment_id, "error": str(error)[:300]}
        )
        if failures(row["lead_id"], shipment_id) % (len(retry_intervals()) + 1) == 0:
            alert_staff(row["lead_id"], event_id, str(error))
        raise
    notices.queue_label_mail(bought)  # the seller told, once, that it is on the status page
    return f"label {bought['state']}"


def retry_intervals() -> list:
    """The job's retries (JOB_RETRY_INTERVALS)."""
    return list(current_app.config["JOB_RETRY_INTERVALS"])


def failures(lead_id: int, shipment_id: int) -> int:
    """How many tries to buy this parcel's label failed."""
    return sum(
        1
        for event in history.lead_events(lead_id)
        if event["kind"] == FAILED and event["data"].get("shipment") == shipment_id
    )


def alert_staff(lead_id: int, event_id: int, error: str) -> str:
    """E-mail staff that the label could not be bought after every retry, once per failure."""
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no alert.", lead_id)
        return "not configured"
    if history.email_sent(event_id, kind="staff_alerted"):
        return "already sent"
    lead = store.get_lead(lead_id)
    event = history.get_event(event_id)
    details = [
        ("What the label provider said", error[:300]),
        ("What to do", "Look at the lead, then press the label button again"),
    ]
    title = "The prepaid label could not be bought"
    return mail.send_once(
        email_kinds.STAFF_ALERT.key(event_id),
        lead_id,
        lambda: mail.staff_alert(lead, title, local_time(event["at"]), details),
        lambda: history.record_email(lead_id, event_id, FAILED, kind="staff_alerted"),
    )


def send_address_change_check(change_id: int) -> str:
    """E-mail the seller, at the address on file, the new return address asked for on their
    status page with the link that confirms it; sent once per change."""
    lead = address_change.lead_awaiting_link(change_id)
    if lead is None:
        return "already sent"  # or the parcel moved on, or the lead, meanwhile
    if lead["erased_at"]:
        return "lead erased"
    if not mail.smtp_configured():
        current_app.logger.warning("Lead %s: mail not configured, no address check.", lead["id"])
        return "not configured"
    return mail.send_once(
        email_kinds.ADDRESS_CHECK.key(lead["id"], change_id),
        lead["id"],
        lambda: address_check_message(lead, address_change.issue_link(change_id)),
        lambda: address_change.mark_link_sent(change_id),
    )


def address_check_message(lead: dict, confirm_url: str):
    """The new return address and the link that confirms it; no label, no tracking number."""
    letter = Letter(
        subject="Confirm the new return address for your watch",
        heading="Is this your new address?",
        paragraphs=[
            f"Someone with the link to your status page asked us to change the return address "
            f"of your {watch_name(lead)} parcel to {one_line(lead['new_address'])}.",
            f"If that was you, confirm it with the link below within "
            f"{address_change.CONFIRM_WITHIN_WORDS}: your label is replaced only then, and the "
            "old one stops working.",
            "If it was not you, do nothing: your label and address stay as they are. Please call "
            "us, as someone else may have your status link.",
        ],
        facts=[("New address", one_line(lead["new_address"]))],
        link_label="Confirm the new address",
        link_note="This link is yours alone and works once: please do not forward it.",
    )
    key = f"lead-{lead['id']}-address-{secrets.token_hex(8)}"
    return letter_message(lead, letter, key, confirm_url)
