"""A lead's events (history.lead_events) as the staff timeline reads them: who, what, details.

Entries carry plain strings; templates escape them. The seller's own timeline on the status page
is another view of the same events (app/sale/seller_steps.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.leads.display import appointment_start, clock, local_time, quote_amount, usd
from app.leads.email_kinds import kind_of
from app.leads.state import State
from app.privacy.choice import DESCRIPTIONS as OPT_OUT_DESCRIPTIONS
from app.rendering.dates import display_date
from app.sale import lifecycle
from app.sale.purchase import approvals, bank_payouts

WORK_DONE = {
    "photos_processed": "Photos checked and cleaned",
    "staff_notified": "Lead e-mailed to staff",
    "conversions_sent": "Conversion events sent",
    "seller_confirmed": "Confirmation e-mailed to the seller",
}
EMAILS = {
    "quote": "preliminary quote",
    "appointment": "appointment, with calendar invitation",
    "offer": "final offer",
    "paperwork": "sale paperwork to sign",
    "completed": "payment receipt",
    "closed": "enquiry closed",
}
SELLER_ACTIONS = {
    "question": "the seller's question",
    "photos_added": "photos the seller added",
    "paperwork_signed": "the seller's signed paperwork",
    "payout_denied": "the seller's refusal of the payout account",
    "state_changed": "the seller's answer",
    "shipment_exception": "a carrier's exception on a parcel",
    "return_held": "HELD, do not return the watch",
    "shipment_attention": "a parcel that needs one of you",
} | bank_payouts.ALERTS
TONES = {"seller": "seller", "system": "system", "register_api": "system"}
AD_PLATFORMS = {"meta": "Meta", "ga4": "GA4"}
AD_EVENTS = {"lead": "Lead event", "purchase": "Purchase"}
ACCEPTED_VIA = {"phone": " (by phone)", "status_page": " (on the status page)"}
REGISTER_RESULTS = {"clear": "clear", "flagged": "FLAGGED"}
# Purchase events without details: their titles.
PURCHASE_STEPS = {
    "id_verified": "Seller's ID verified against the paperwork",
    "payout_details_erased": "Seller's bank details erased (no longer needed after payment)",
    "purchase_record_erased": "Purchase record erased (its retention period ended)",
    "payment_late_alerted": "E-mail to staff: still unpaid at the end of the business day",
    "record_unreadable_alerted": (
        "E-mail to staff: the purchase record does not open with the configured keys"
    ),
    "payout_denied": (
        "Seller said “this wasn't me” to the payout account: paperwork voided, status links "
        "switched off; call the seller on the number on file"
    ),
}


@dataclass
class Entry:
    """One event as the staff timeline shows it."""

    at: str
    when: str
    actor: str
    title: str
    tone: str  # seller, system or staff: how the entry is marked
    details: list[tuple[str, str]] = field(default_factory=list)
    text: str = ""  # a note or message in someone's own words


def plural(count: int, noun: str) -> str:
    """'1 photo', '3 photos': a count with its noun, plural by adding s."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def actor_name(actor: str, staff_names: dict[str, str]) -> str:
    """Who acted, as staff read it: Seller, System, or a staff member's name (else as stored)."""
    if actor in ("seller", "system"):
        return actor.capitalize()
    return staff_names.get(actor, actor)


def state_title(data: dict) -> str:
    """A state change's title on the timeline, e.g. 'Quote revised' or 'Closed: Not a fit'."""
    before, after = data["from"], data["to"]
    if after in (State.ACCEPTED, State.AGREED):
        what = "quote" if after == State.ACCEPTED else "final offer"
        return f"Seller accepted the {what}" + ACCEPTED_VIA.get(data.get("via"), "")
    if after == State.CLOSED:
        return f"Closed: {lifecycle.CLOSE_REASONS.get(data.get('reason'), 'no reason')}"
    if before == State.CLOSED:
        return "Reopened"
    titles = {
        State.CONTACTED: ("Marked contacted", "Marked contacted"),
        State.QUOTED: ("Preliminary quote sent", "Quote revised"),
        State.APPOINTMENT: ("Appointment booked", "Appointment rebooked"),
        State.OFFERED: ("Final offer recorded", "Final offer revised"),
        State.BOUGHT: ("Bought", "Bought"),
    }
    return titles[after][before == after]


def state_details(data: dict) -> list[tuple[str, str]]:
    """A state change's amounts, dates, appointment or erasure request, as (label, value) pairs."""
    after = data["to"]
    if after == State.QUOTED:
        return [("Amount", quote_amount(data)), ("Valid until", display_date(data["valid_until"]))]
    if after == State.APPOINTMENT:
        start = appointment_start(data)
        return [
            ("When", f"{display_date(data['date'])}, {clock(start)}"),
            ("Kind", lifecycle.APPOINTMENT_MODES.get(data["mode"], data["mode"])),
            ("Place", data.get("place", "(erased)")),
        ]
    if after == State.OFFERED:
        return offer_details(data)
    if after == State.BOUGHT:
        return [("Paid", usd(data["amount"])), ("Payment date", display_date(data["paid_on"]))]
    if data.get("erasure_requested"):
        # Done by the seller's own confirmation, from the link e-mailed to them (erasure.py).
        return [("Seller asks", "Delete my personal data and photos, once confirmed by e-mail")]
    return []


def offer_details(data: dict) -> list[tuple[str, str]]:
    """A final offer's amount, validity and each way it differs from the quote, with why."""
    details = [("Amount", usd(data["amount"]))]
    if data.get("valid_until"):
        details.append(("Valid until", display_date(data["valid_until"])))
    return details + [
        (f"Differs: {row['what']}", row["why"]) for row in data.get("differences", [])
    ]


REGISTER_REASONS = {
    "sellers_serial": "the seller gave the serial number",
    "serial_on_record": "serial number on record",
    "before_payment": "the latest clear check is too old to pay on",
}
REGISTER_OUTCOMES = {
    "clear": "clear",
    "flagged": "FLAGGED: the sale is on hold",
    "unknown": "unknown: the register cannot say; check by hand",
    "failed": "no answer after every retry: check by hand",
    "not_recorded": "not recorded: the lead moved on or its serial number changed",
}


def register_question(kind: str, data: dict) -> tuple[str, list[tuple[str, str]]]:
    """(title, details) of the register asked by API, and of how the question ended."""
    if kind == "register_asked":
        return "Stolen-watch register asked by API", [("Why", REGISTER_REASONS[data["reason"]])]
    outcome = REGISTER_OUTCOMES.get(data["outcome"], data["outcome"])
    return "Stolen-watch register answered", [("Answer", outcome)]


def purchase_event(kind: str, data: dict) -> tuple[str, list[tuple[str, str]]] | None:
    """(title, details) of a step of the purchase on record (never more than the last 4
    characters of an ID, bank or serial number); None for another kind of event."""
    if kind in PURCHASE_STEPS:
        return PURCHASE_STEPS[kind], []
    if kind == "payout_confirmed":
        how = "from their e-mail" if data.get("how") == "email" else "on a call-back"
        return f"Payout account confirmed by the seller {how}", []
    if kind in ("authentication_recorded", "sellers_serial_given"):
        title = "Authentication findings recorded" if kind[0] == "a" else "Seller gave the serial"
        return title, [("Serial number ends", data["serial_last4"])]
    if kind in ("register_asked", "register_answered"):
        return register_question(kind, data)
    if kind == "register_checked":
        result = REGISTER_RESULTS.get(data["result"], data["result"])
        checked = [("Register", data["provider"]), ("Checked on", display_date(data["checked_on"]))]
        if data.get("awaits_approval"):
            checked.append(("Counts", "once a second staff member approves clearing the flag"))
        return f"Stolen-watch register checked: {result}", checked
    if kind in ("exception_requested", "exception_approved"):
        verb = "asked for" if kind == "exception_requested" else "approved"
        what = approvals.KINDS.get(data["kind"], data["kind"])
        covers = usd(int(data["subject"])) if data["kind"] == approvals.PAYMENT_AMOUNT else ""
        return f"Exception {verb}: {what.lower()}", [("Amount", covers)] if covers else []
    if kind == "paperwork_signed":  # the ends of the numbers go with the record (retention)
        labels = {
            "id_last4": "ID number ends",
            "account_last4": "Account number ends",
            "declaration_sha256": "Declaration SHA-256",
        }
        return "Seller signed the sale paperwork", [
            (label, data[key]) for key, label in labels.items() if key in data
        ]
    if kind == "document_made":
        title = f"{data['kind'].replace('_', ' ').capitalize()} made (version {data['version']})"
        return title, [("SHA-256", data["sha256"])]
    return None


def ad_report_title(data: dict) -> str:
    """What an ad platform was told (app/conversions/records.py), e.g. 'Purchase reported to
    Meta' or 'Purchase not reported to GA4: too late'."""
    what = AD_EVENTS.get(data["event"], data["event"])
    where = AD_PLATFORMS.get(data["platform"], data["platform"])
    titles = {
        "sent": f"{what} reported to {where}",
        "failed": f"{what} to {where} failed (attempt {data.get('attempts', 1)}), to be retried",
        "too_late": f"{what} not reported to {where}: too late",
        "opted_out": f"{what} not reported to {where}: the seller opted out",
    }
    return titles.get(data["status"], f"{what} not reported to {where}")


# The sale by mail's parcels (app/shipping/), as the timeline names them.
PARCEL_LEGS = {"inbound": "The seller's parcel", "return": "The return parcel"}
PARCEL_STATES = {
    "label_ready": "label ready", "in_transit": "in transit",
    "out_for_delivery": "out for delivery", "delivered": "delivered",
    "received": "received, opened on record",
    "voided": "label refunded unused, parcel voided", "lost": "lost (a claim is open)",
}  # fmt: skip
CLAIM_KINDS = {"lost": "lost", "damaged": "damaged"}
HELD = "HELD, do not return: the register check stands flagged; no return parcel is opened"


def shipment_title(kind: str, data: dict, at: str = "") -> str:
    """A parcel's step on the staff timeline: its label, a move (a return's delivery ends the
    deal), a carrier's exception, a watch held from its return, or a claim."""
    parcel = PARCEL_LEGS.get(data.get("leg"), "A parcel")
    if kind == "shipment_label_bought":
        return f"{parcel}: prepaid label bought ({data.get('carrier') or 'carrier'})"
    if kind == "shipment_moved" and data["leg"] == "return" and data["state"] == "delivered":
        return f"Deal ended: returned to the seller, delivered {display_date(at[:10])}"
    if kind == "shipment_moved":
        return f"{parcel}: {PARCEL_STATES.get(data['state'], data['state'])}"
    if kind == "shipment_return_held":
        return HELD
    if kind == "shipment_attention":
        return f"{parcel}: needs staff: {data['why']}"
    if kind == "shipment_claim_opened":
        what = CLAIM_KINDS.get(data["kind"], data["kind"])
        return f"{parcel}: claim opened, {what} (insurer's reference {data['reference']})"
    if kind == "shipment_claim_settled" and data["state"] == "paid":
        return f"{parcel}: claim paid by the insurer, {usd(data['amount'])}"
    if kind == "shipment_claim_settled":
        return f"{parcel}: claim refused by the insurer"
    return f"{parcel}: carrier reports {data.get('status', 'a problem').replace('_', ' ')}"


def arrival_description(kind: str, data: dict) -> tuple[str, list[tuple[str, str]], str]:
    """A parcel opened on record (app/shipping/arrival.py), or a mismatch signed off."""
    mismatch = (
        [("Did not match", "; ".join(data.get("mismatch") or ()))] if data.get("mismatch") else []
    )
    if kind == "arrival_signed_off":
        return "Arrival signed off by a second staff member", mismatch, data.get("note", "")
    label = data.get("label_weight_oz")
    details = [
        ("Weight", f"{data['weight_oz']:g} oz (label: {f'{label:g} oz' if label else 'none'})"),
        ("Seal", "Intact" if data.get("seal_intact") else "Broken or missing"),
        ("Serial", data.get("serial", "")),
        ("Files", str(data.get("files", 0))),
    ]
    title = "Parcel opened on record" + (
        ": a mismatch, for a second staff member" if mismatch else ""
    )
    return title, details + mismatch, data.get("note", "")


def lost_details(data: dict) -> list[tuple[str, str]]:
    """Which of a lead's photos and files a restore found the machine had taken with it."""
    named = (
        ("Photos (copy not yet made)", ", ".join(map(str, data["photos"]))),
        ("Photos (still waiting to be checked)", ", ".join(map(str, data["waiting"]))),
        ("Files", ", ".join(kind.replace("_", " ") for kind in data["files"])),
    )
    return [(label, value) for label, value in named if value]


def describe(event: dict) -> tuple[str, list[tuple[str, str]], str]:
    """(title, details, own words) for one event."""
    kind, data = event["kind"], event["data"]
    if kind == "submitted":
        return "Submitted on the website", [("Photos", str(data.get("photos", 0)))], ""
    if kind == "work_done" and data.get("withheld"):
        how = OPT_OUT_DESCRIPTIONS.get(data["withheld"], data["withheld"])
        return "No conversion events sent: the seller opted out", [("How", how)], ""
    if kind == "work_done":
        return WORK_DONE.get(data["work"], data["work"]), [], ""
    if kind == "conversion":
        return ad_report_title(data), [("Why", data["reason"])] if data.get("reason") else [], ""
    if kind == "state_changed":
        words = data.get("message") or data.get("note") or ""
        return state_title(data), state_details(data), words
    if kind == "note":
        return "Note", [], data.get("note", "(erased)")
    if kind == "email_sent":
        return f"E-mail to the seller: {EMAILS.get(data['template'], data['template'])}", [], ""
    if kind == "staff_alerted":
        return f"E-mail to staff: {SELLER_ACTIONS.get(data['template'], 'seller action')}", [], ""
    if kind == "email_unsure":  # worker/unsure_mail.py e-mails staff what to do
        title = f"Unsure whether this e-mail went: {kind_of(data['about']).words}"
        return title, [("Message-ID", data["message_id"] or "none")], ""
    if kind == "question":
        return "Seller asked a question", [], data.get("message", "(erased)")
    if kind == "photos_added":
        return f"Seller added {plural(data['photos'], 'photo')}", [], ""
    if kind == "erased":
        return "Personal data erased", [("Photos removed", str(data.get("photos", 0)))], ""
    if kind == "link_resent":
        revoked = [("Earlier links revoked", str(data.get("revoked", 0)))]
        return "New status link e-mailed (asked for on the lost-link form)", revoked, ""
    if kind == "ad_opt_out":
        how = OPT_OUT_DESCRIPTIONS.get(data["how"], data["how"])
        return "Seller opted out of sharing with ad platforms", [("How", how)], ""
    if kind == "links_revoked":
        return "Status links revoked", [("Links", str(data.get("links", 0)))], ""
    if kind.startswith("shipment_"):
        return shipment_title(kind, data, event["at"]), [], ""
    if kind in ("arrival_recorded", "arrival_signed_off"):
        return arrival_description(kind, data)
    if kind == "files_lost":
        return "Lost with the machine, found missing at the restore", lost_details(data), ""
    if kind in bank_payouts.TIMELINE:
        return (*bank_payouts.timeline_words(kind, data), "")
    purchase = purchase_event(kind, data)
    if purchase:
        return (*purchase, "")
    return kind.replace("_", " ").capitalize(), [], ""


def entries(events: list[dict], staff_names: dict[str, str]) -> list[Entry]:
    """The timeline, newest first."""
    timeline = []
    for event in reversed(events):
        title, details, text = describe(event)
        timeline.append(
            Entry(
                at=event["at"],
                when=local_time(event["at"]),
                actor=actor_name(event["actor"], staff_names),
                title=title,
                tone=TONES.get(event["actor"], "staff"),
                details=details,
                text=text,
            )
        )
    return timeline
