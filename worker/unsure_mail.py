"""Staff told of an e-mail whose send may or may not have happened (app/leads/email_claims.py):
the worker died or the disk filled between the relay taking it and the record, or the relay went
quiet after the whole message. Such an e-mail is never sent again automatically; the lead's
timeline and one staff e-mail say what it was and its Message-ID, so a person checks the relay's
log and, if it did not go, tells the seller by hand."""

from __future__ import annotations

from email.message import EmailMessage

from flask import current_app

from app.leads import email_claims, email_kinds, store
from app.leads.display import local_time
from worker import mail


def unsure_message(claim: dict) -> EmailMessage:
    """The staff e-mail about one unsure claim: what it was, for whom, and what to do."""
    config = current_app.config
    kind = email_kinds.kind_of(claim["about"])
    lead = store.get_lead(claim["lead_id"]) if claim["lead_id"] is not None else None
    site_url = config["SITE_URL"].rstrip("/")
    context = {
        "what": kind.words,
        "to_seller": kind.to == email_kinds.SELLER,
        "staff_email": config["STAFF_EMAIL"],
        "claimed": local_time(claim["claimed_at"]),
        "message_id": claim["message_id"],
        "lead": lead,
        "lead_url": f"{site_url}/staff/leads/{claim['lead_id']}",
        "site_url": site_url,
    }
    subject = "Unsure whether an e-mail went" + (f": lead {lead['reference']}" if lead else "")
    return mail.to_staff(subject, "emails/email_unsure.txt", context)


def report_unsure_email(claim_id: int) -> str:
    """Put the unsure claim `claim_id` on its lead's timeline and e-mail staff about it, each
    once; nothing for a claim recorded sent meanwhile."""
    claim = email_claims.get(claim_id)
    if claim is None or claim["sent_at"]:
        return "sent after all" if claim else "claim given back: nothing to report"
    email_claims.mark_unsure(claim_id)
    if claim["about"].startswith(f"{email_kinds.UNSURE.name}:"):
        return "on the timeline (an e-mail about an unsure one is not reported by another)"
    if not mail.is_configured():
        current_app.logger.warning("STAFF_EMAIL/SMTP_HOST not set: e-mail %s unsure.", claim_id)
        return "not configured"
    about = email_kinds.UNSURE.key(claim_id)
    return mail.send_once(about, claim["lead_id"], lambda: unsure_message(claim))
