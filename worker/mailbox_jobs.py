"""The jobs whose e-mail goes to the seller's address on file with a link of its own: new status
links asked for on the lost-link form, the link that confirms an erasure, and the one that
confirms the payout account. Each e-mail goes once (mail.send_once), and its link's token is made
only by the runner that claimed it; worker/jobs.py names them for the queue."""

from __future__ import annotations

from flask import current_app

from app.leads import email_kinds, links
from app.sale import erasure
from app.sale.purchase import payout
from worker import erasure_mail, mail, payout_mail, seller_mail


def send_status_links(request_id: int) -> str:
    """The lost-link form's e-mails: a new link for each open lead of the address asked for,
    then the request (and the address in it) is forgotten. Nothing is sent to an address
    without open leads; the form said the same either way. Each lead's earlier links are
    revoked only once its new one has been handed to the mail server, so a request that sends
    nothing (a stranger's, a mail outage) leaves the seller's working link alone."""
    email = links.link_request(request_id)
    if email is None:
        return "already answered"
    if not mail.smtp_configured():
        current_app.logger.warning("SMTP_HOST not set, status links not sent.")
        return "not configured"
    sent = sum(send_new_link(request_id, lead) for lead in links.open_leads_of(email))
    links.drop_link_request(request_id)
    return f"sent {sent}"


def send_new_link(request_id: int, lead: dict) -> bool:
    """E-mail one lead's new status link for the request, once; its earlier links are revoked
    once it went. Whether it went now."""
    issued = []

    def message():
        """The e-mail, with a link made for it."""
        issued.append(links.issue_link(lead["id"]))
        return seller_mail.new_link_message(lead, issued[0].url)

    sent = mail.send_once(
        email_kinds.STATUS_LINK.key(request_id, lead["id"]),
        lead["id"],
        message,
        lambda: links.revoke_links_before(lead["id"], issued[0].link_id),
    )
    return sent == mail.Outcome.SENT


def send_erasure_link(request_id: int) -> str:
    """E-mail the link that confirms a seller's erasure request to the address on file
    (app/sale/erasure.py), so whoever else holds a status link cannot erase the lead. The
    token is made here and kept only as a digest, never in the queue; sent once per request."""
    lead = erasure.lead_awaiting_link(request_id)
    if lead is None:
        return "already sent"  # or the lead was reopened or erased meanwhile: nothing to ask
    if held := mail.held_back(lead, mail.smtp_configured(), "erasure link"):
        return held
    return mail.send_once(
        email_kinds.ERASURE_LINK.key(lead["id"], request_id),
        lead["id"],
        lambda: erasure_mail.confirm_erasure_message(lead, erasure.issue_link(request_id)),
        lambda: erasure.mark_link_sent(request_id),
    )


def send_payout_check(check_id: int) -> str:
    """E-mail the seller, at the address on file, the payout account they signed for (by its
    last 4 digits) with the link that confirms or refuses it (app/sale/purchase/payout.py), so
    whoever else holds a status link cannot have the payment sent to their own account. The
    token is made here and kept only as a digest; sent once per signing."""
    lead = payout.lead_awaiting_link(check_id)
    if lead is None:
        return "already sent"  # or the paperwork was voided or the lead moved on meanwhile
    if held := mail.held_back(lead, mail.smtp_configured(), "payout check"):
        return held
    return mail.send_once(
        email_kinds.PAYOUT_CHECK.key(check_id),
        lead["id"],
        lambda: payout_mail.confirm_payout_message(lead, payout.issue_link(check_id)),
        lambda: payout.mark_link_sent(check_id),
    )
