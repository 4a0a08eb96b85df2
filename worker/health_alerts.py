"""The health check deploy/watchbuyers-health.timer runs every minute (`flask leads health
check`): owed work queued again and stranded uploads removed, so no operator has to remember a
command after a part failed; then each fault (app/health/checks.py, and the mail relay, tried
here) e-mailed to staff once, with what a person runs. When the mail relay is the fault nobody
can be e-mailed: every check logs each fault not yet told at CRITICAL (the unit's journal),
and the first e-mail once the relay takes mail again tells them all, the relay's own outage
with when it ended."""

from __future__ import annotations

import secrets
from email.message import EmailMessage

from flask import current_app

from app import queue
from app.health import checks, faults
from app.leads.display import local_time
from app.leads.email_kinds import HEALTH
from app.photos import intake
from app.sale import pending
from worker import mail


def sweep() -> str:
    """With Redis, queue again the owed work no worker has in hand (without it, each of the
    site's processes sweeps its own way: app/queue.py); what was done."""
    if not queue.on_redis():
        return "no Redis: the site's own processes sweep"
    try:
        queued = pending.sweep()
    except pending.QueueDown:
        return "Redis does not answer: nothing queued"
    return f"queued {queued.count()} owed jobs"


def mail_fault() -> str | None:
    """The relay refusing what an e-mail to staff would need (when mail is configured)."""
    refusal = mail.relay_refusal() if mail.is_configured() else None
    return f"The mail relay refuses ({refusal}): no e-mail leaves the site." if refusal else None


def check_health() -> str:
    """Sweep, remove the uploads a crash stranded, look for faults and tell staff of each new
    one; what was done and seen."""
    swept = sweep()
    removed = intake.remove_stranded_uploads()
    seen = checks.observe()
    if refused := mail_fault():
        seen["mail"] = refused
    faults.record(seen)
    told = tell_staff("mail" in seen)
    state = "; ".join(faults.TITLES[kind] for kind in seen) or "no fault"
    return f"{swept}; removed {removed} stranded uploads; {state}; {told}"


def tell_staff(mail_refused: bool) -> str:
    """E-mail staff every fault not told yet, claimed first so each is told once; while the
    relay refuses (or mail is not set up), log each at CRITICAL instead."""
    if mail_refused or not mail.is_configured():
        untold = [fault for fault in faults.open_faults() if not fault["told_at"]]
        for fault in untold:
            current_app.logger.critical(
                "Staff cannot be e-mailed (the mail relay refuses, or STAFF_EMAIL/SMTP_HOST are "
                "not set): %s since %s. %s", faults.TITLES[fault["kind"]], fault["since"],
                fault["detail"],
            )  # fmt: skip
        return f"staff not told of {len(untold)} faults: logged"
    claimed = faults.claim_untold()
    if not claimed:
        return "staff told already"
    # The faults' own claims make the alert once; a fault back within the second is another.
    label = ", ".join(f"{fault['kind']} since {fault['since']}" for fault in claimed)
    about = HEALTH.key(f"{label} ({secrets.token_hex(4)})")
    try:
        sent = mail.send_once(about, None, lambda: alert_message(claimed))
    except Exception as error:  # not taken (send_once gave its claim back), nor are the faults
        faults.release(claimed)
        current_app.logger.critical("Staff not told of %s faults: %s", len(claimed), error)
        return "the alert was refused: told again at the next check"
    return f"staff alert {sent}: " + ", ".join(faults.TITLES[fault["kind"]] for fault in claimed)


def alert_message(claimed: list[dict]) -> EmailMessage:
    """The staff e-mail: each fault, since when (and until when, if it cleared before it could
    be told), what was seen and what a person runs."""
    shown = [
        fault | {"title": faults.TITLES[fault["kind"]], "since": local_time(fault["since"]),
                 "cleared": fault["cleared_at"] and local_time(fault["cleared_at"])}
        for fault in claimed
    ]  # fmt: skip
    standing = [fault for fault in shown if not fault["cleared"]]
    first = (standing or shown)[0]["title"]
    more = f", and {len(shown) - 1} more" if len(shown) > 1 else ""
    subject = f"The site needs a person: {first}{more}" if standing else f"Cleared: {first}{more}"
    return mail.to_staff(subject, "emails/health_alert.txt", {"faults": shown})
