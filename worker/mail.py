"""The staff e-mails: every detail of a new lead with its photo thumbnails, and a short alert
for each thing a seller does later on their status page, over plain SMTP. `send_once()` is the
one way any e-mail (these, the seller's) leaves: claimed first (app/leads/email_claims.py), so
it goes at most once however many runners try, and put before staff when a send is unsure.

Seller-supplied values are escaped by Jinja's autoescaping in the HTML part; the subject is
built from validated fields and stripped of line breaks all the same.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from email.message import EmailMessage
from email.utils import make_msgid
from enum import StrEnum
from urllib.parse import urlsplit

from flask import current_app

from app import queue
from app.leads import email_claims, storage
from app.leads.display import local_time, watch_name
from app.sale import lifecycle, timeline

SMTP_TIMEOUT = 15


class Outcome(StrEnum):
    """What `send_once` did with an e-mail."""

    SENT = "sent"  # the relay took it, from this runner
    CLAIMED = "already claimed"  # another runner's: sent, being sent, or unsure and before staff
    UNSURE = "unsure, staff told"  # the relay may have taken it: never sent again automatically


class MaybeSent(RuntimeError):
    """The relay went quiet or dropped the connection after the whole message was handed to
    it: it may have taken the message, so it is not sent again."""


def is_configured() -> bool:
    """Whether staff e-mails can be sent: STAFF_EMAIL and SMTP_HOST are both set."""
    config = current_app.config
    return bool(config["STAFF_EMAIL"] and config["SMTP_HOST"])


def smtp_configured() -> bool:
    """Whether any e-mail can go out (SMTP_HOST is set); the seller's e-mails need nothing more."""
    return bool(current_app.config["SMTP_HOST"])


def held_back(lead: dict, configured: bool, what: str) -> str | None:
    """Why an e-mail about this lead is not sent now, or None: an erased lead gets none, and
    without mail settings it stays pending (the job says so and is not recorded as done)."""
    if lead["erased_at"]:
        return "lead erased"
    if not configured:
        current_app.logger.warning("Lead %s: mail not configured, no %s.", lead["id"], what)
        return "not configured"
    return None


def render(name: str, context: dict) -> str:
    """A template outside any request (no page context processors); .html autoescapes."""
    return current_app.jinja_env.get_template(name).render(context)


def to_staff(subject: str, template: str, context: dict) -> EmailMessage:
    """A plain-text e-mail to STAFF_EMAIL from MAIL_FROM: `template` rendered with `context`,
    under `subject` (line breaks folded away)."""
    config = current_app.config
    message = EmailMessage()
    message["Subject"] = " ".join(subject.split())
    message["From"] = config["MAIL_FROM"]
    message["To"] = config["STAFF_EMAIL"]
    message.set_content(render(template, context))
    return message


def build_message(lead: dict, photos: list[dict]) -> EmailMessage:
    """The new-lead e-mail to staff: every detail, thumbnails inline, replies to the seller."""
    config = current_app.config
    kept = [photo for photo in photos if photo["thumb_name"]]
    cids = {photo["id"]: make_msgid(domain="watch-photos")[1:-1] for photo in kept}
    context = {"lead": lead, "photos": photos, "cids": cids, "site_url": config["SITE_URL"]}
    message = EmailMessage()
    subject = f"New lead #{lead['id']}: {lead['watch_brand']} from {lead['full_name']}"
    message["Subject"] = " ".join(subject.split())
    message["From"] = config["MAIL_FROM"]
    message["To"] = config["STAFF_EMAIL"]
    message["Reply-To"] = lead["email"]
    message.set_content(render("sell/staff_email.txt", context))
    message.add_alternative(render("sell/staff_email.html", context), subtype="html")
    html_part = message.get_payload()[1]
    for photo in kept:
        data = (storage.photos_dir() / photo["thumb_name"]).read_bytes()
        html_part.add_related(
            data,
            "image",
            "webp",
            cid=f"<{cids[photo['id']]}>",
            filename=f"photo-{photo['position']}.webp",
        )
    return message


def seller_action_message(lead: dict, event: dict) -> EmailMessage:
    """Staff's alert for one seller action, titled as the inbox's timeline titles it."""
    title, details, words = timeline.describe(event)
    return staff_alert(lead, title, local_time(event["at"]), details, words)


def staff_alert(
    lead: dict,
    title: str,
    when: str,
    details: list[tuple[str, str]],
    words: str = "",
    reply_to_seller: bool = True,
) -> EmailMessage:
    """A short e-mail to staff about one lead (emails/staff_alert.txt): what happened and when,
    its details, any words of the seller's, the lead and a link to it; replies go to the seller,
    unless a reply must not reach them (`reply_to_seller`: the register's alerts, where a
    hurried answer would tip a thief off)."""
    config = current_app.config
    context = {
        "title": title,
        "when": when,
        "words": words,
        "details": details,
        "lead": lead,
        "watch": watch_name(lead),
        "state": lifecycle.STATE_LABELS[lead["state"]],
        "lead_url": f"{config['SITE_URL'].rstrip('/')}/staff/leads/{lead['id']}",
    }
    message = EmailMessage()
    message["Subject"] = " ".join(f"{lead['reference']}: {title}".split())
    message["From"] = config["MAIL_FROM"]
    message["To"] = config["STAFF_EMAIL"]
    if reply_to_seller:
        message["Reply-To"] = lead["email"]
    message.set_content(render("emails/staff_alert.txt", context))
    return message


def send_once(
    about: str,
    lead_id: int | None,
    build: Callable[[], EmailMessage],
    record: Callable[[], object] = lambda: None,
) -> Outcome:
    """Send the e-mail `about` (an email_claims key) at most once, however many runners try at
    once: claimed first (an INSERT one runner wins), then built (so a link's token is made only
    by the winner), handed to the relay, recorded sent, and then `record` (the job's own record
    of it, which its finder of owed work and its next run read).

    A failure before the relay could have taken it (no connection, TLS or login refused, a
    refusal of the sender, the recipient or the message) gives the claim back and is raised, so
    the job's retry sends it. After one that may have left it delivered (MaybeSent; or the
    worker killed, the disk full before the record), the claim stands: it is never sent again
    automatically, and staff are told so a person checks (worker/unsure_mail.py)."""
    claim_id = email_claims.claim(about, lead_id)
    if claim_id is None:
        return Outcome.CLAIMED
    try:
        message = build()
        if message["Message-ID"] is None:
            message["Message-ID"] = make_msgid(f"claim-{claim_id}", domain=site_host())
        email_claims.note_message_id(claim_id, message["Message-ID"])
        deliver(message)
    except MaybeSent as unsure:
        current_app.logger.warning("E-mail %s may not have gone (%s).", about, unsure.__cause__)
        if email_claims.mark_unsure(claim_id):
            queue.enqueue(queue.REPORT_UNSURE_EMAIL, claim_id)
        return Outcome.UNSURE
    except Exception:
        email_claims.release(claim_id)
        raise
    email_claims.mark_sent(claim_id)
    record()
    return Outcome.SENT


def site_host() -> str:
    """SITE_URL's host name, which the site's Message-IDs end with."""
    return urlsplit(current_app.config["SITE_URL"]).hostname or "localhost"


class Relay(smtplib.SMTP):
    """smtplib's client, noting when the whole message (its closing dot) has been handed to the
    relay: from then on only the relay's refusal means it was not taken."""

    handed_over = False

    def send(self, s) -> None:
        """Send a command or the message; the message is the only one sent as bytes."""
        super().send(s)
        if isinstance(s, bytes) and s.endswith(b"\r\n.\r\n"):
            self.handed_over = True

    def hand_over(self, message: EmailMessage) -> None:
        """Send the message; MaybeSent for a failure after its end was handed over other than
        the relay's answer refusing it (SMTPDataError)."""
        try:
            self.send_message(message)
        except Exception as error:
            if self.handed_over and not isinstance(error, smtplib.SMTPDataError):
                raise MaybeSent("no answer from the relay after the whole message") from error
            raise

    def __exit__(self, *exc_info) -> None:
        """Say goodbye if the relay still listens; a failed goodbye changes nothing sent."""
        with suppress(smtplib.SMTPException, OSError):
            self.quit()
        self.close()


def deliver(message: EmailMessage) -> None:
    """Hand one message to the configured SMTP server (STARTTLS and login when configured);
    only send_once calls it. Raises MaybeSent when the relay may have taken the message
    (Relay.hand_over), any other error when it did not."""
    with open_relay() as relay:
        relay.hand_over(message)


@contextmanager
def open_relay() -> Iterator[Relay]:
    """A session with the configured SMTP server, STARTTLS and login done when configured.

    STARTTLS checks the relay's certificate against the system's CAs (OpenSSL's
    SSL_CERT_FILE/SSL_CERT_DIR apply) and its name against SMTP_HOST, and fails closed: a relay
    that offers no STARTTLS or a certificate that does not check out gets nothing, so the job
    fails and is retried, rather than a status link going out in clear."""
    config = current_app.config
    with Relay(config["SMTP_HOST"], config["SMTP_PORT"], timeout=SMTP_TIMEOUT) as relay:
        if config["SMTP_USE_TLS"]:  # typed once, in app/config.py
            relay.starttls(context=ssl.create_default_context())
        if config["SMTP_USER"]:
            relay.login(config["SMTP_USER"], config["SMTP_PASSWORD"])
        yield relay


def relay_refusal() -> str | None:
    """Why the relay would refuse an e-mail to staff now, asked without sending one: the
    session, then MAIL FROM and RCPT TO, then RSET. None when it would take it."""
    sender, staff = current_app.config["MAIL_FROM"], current_app.config["STAFF_EMAIL"]
    try:
        with open_relay() as relay:
            relay.ehlo_or_helo_if_needed()
            for code, answer in (relay.mail(sender), relay.rcpt(staff)):
                if code >= 400:
                    return f"{code} {answer.decode(errors='replace')}"
            relay.rset()
    except (smtplib.SMTPException, OSError) as error:
        return f"{type(error).__name__}: {error}"
    return None
