"""The payout's jobs (app/payouts/): the transfer created, released and read back, however often
the job runs (transfers.py makes each once), with staff e-mailed once its retries are used up;
the bank's event applied (bank_events.py: its transfer read back, never taken from the event);
and the staff e-mails about a payout, once per event on the lead's timeline, as the other staff
alerts are. None names more of the seller's account than its last 4 digits, nor the bank's key.
"""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, history, store
from app.leads.display import local_time, usd_cents
from app.payouts import bank_events, ledger, rails, transfers
from worker import mail

FAILED = "payout_failed"
# Each payout event staff are e-mailed about: the subject's words, and what to do.
TOLD = {
    "payout_rejected": (
        "The seller's bank did not accept the payout",
        "Call the seller and check the account with them. The lead stays at Offer accepted; "
        "ask for the payout again once the details are right (the seller's page says we will "
        "call).",
    ),
    "payout_canceled": (
        "A payout was cancelled before it was sent",
        "Look at the lead: ask for the payout again if it is still owed.",
    ),
    "payout_returned": (
        "A payout was returned after the watch was bought",
        "The purchase stays on record. Call the seller, and pay them again once the account "
        "is right.",
    ),
    FAILED: (
        "The bank API failed the payout after every retry",
        "Nothing more was sent. The sweep and the reconciler ask the bank again every few "
        "minutes without telling you again; look at the lead's timeline if it is still not "
        "sent.",
    ),
    "payout_not_recorded": (
        "The bank paid, but the lead could not be marked bought",
        "The money has left. Look at the lead: the reconciler tries again every few minutes.",
    ),
    "payout_released_elsewhere": (
        "A payout was sent from the bank's own site before its second approval here",
        "Find out who approved it at the bank. The money has left; once that is understood, a "
        "second staff member approves the payout on the lead's page to put it on record.",
    ),
    "payout_waiting": (
        "A payout is waiting for its second person",
        "Another staff member must approve it on the lead's page: the seller was promised "
        "payment within minutes.",
    ),
}


def send_payout(payout_id: int) -> str:
    """Do what the payout is owed at the bank (transfers.carry_on). A failure is on the lead's
    timeline and raised, so the job is retried on JOB_RETRY_INTERVALS; the last try of its first
    run says staff are e-mailed, once (`alert`, which the requeue's finder reads:
    bank_payouts.alerts_owed)."""
    row = ledger.get(payout_id)
    try:
        return transfers.carry_on(payout_id)
    except Exception as error:
        # Staff are told when the job's first run has used up its retries, once: a sweep that
        # runs it again later does not tell them again (its failures stay on the timeline).
        told = failures(row["lead_id"], payout_id) + 1 == len(retry_intervals()) + 1
        details = {"payout": payout_id, "error": str(error)[:300]}
        details |= {"alert": True} if told else {}
        event_id = history.add_event(row["lead_id"], "system", FAILED, details)
        if told:
            alert_payout(row["lead_id"], event_id)
        raise


def retry_intervals() -> list:
    """The job's retries (JOB_RETRY_INTERVALS)."""
    return list(current_app.config["JOB_RETRY_INTERVALS"])


def failures(lead_id: int, payout_id: int) -> int:
    """How many tries at this payout failed."""
    return sum(
        1
        for event in history.lead_events(lead_id)
        if event["kind"] == FAILED and event["data"].get("payout") == payout_id
    )


def alert_payout(lead_id: int, event_id: int) -> str:
    """E-mail staff the payout event `event_id` of lead `lead_id`, once (claimed before it is
    sent: mail.send_once)."""
    if history.email_sent(event_id, kind="staff_alerted"):
        return "already sent"
    event = history.get_event(event_id)
    if event is None or event["lead_id"] != lead_id or event["kind"] not in TOLD:
        raise LookupError(f"Lead {lead_id} has no payout event {event_id}.")
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no alert.", lead_id)
        return "not configured"
    title, what_to_do = TOLD[event["kind"]]
    payout = ledger.get(event["data"]["payout"])
    shown = [
        ("Amount", usd_cents(payout["amount_cents"])),
        ("Rail", rails.staff_words(payout["rail"])),
        ("What the bank said", event["data"].get("reason") or event["data"].get("error") or ""),
        ("What to do", what_to_do),
    ]
    details = [(label, words) for label, words in shown if words]
    lead = store.get_lead(lead_id)
    return mail.send_once(
        email_kinds.PAYOUT_ALERT.key(event_id),
        lead_id,
        lambda: mail.staff_alert(lead, title, local_time(event["at"]), details),
        lambda: history.record_email(lead_id, event_id, event["kind"], kind="staff_alerted"),
    )


apply_payout_event = bank_events.apply_event
