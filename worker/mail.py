"""The staff e-mails: every detail of a new lead with its photo thumbnails, and a short alert
for each thing a seller does later on their status page, over plain SMTP. `deliver()` is the
one way any e-mail (these, the seller's) leaves.

Seller-supplied values are escaped by Jinja's autoescaping in the HTML part; the subject is
built from validated fields and stripped of line breaks all the same.
"""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.utils import make_msgid

from flask import current_app

from app.leads import storage
from app.leads.display import local_time, watch_name
from app.sale import lifecycle, timeline

SMTP_TIMEOUT = 15


def is_configured() -> bool:
    """Whether staff e-mails can be sent: STAFF_EMAIL and SMTP_HOST are both set."""
    config = current_app.config
    return bool(config["STAFF_EMAIL"] and config["SMTP_HOST"])


def smtp_configured() -> bool:
    """Whether any e-mail can go out (SMTP_HOST is set); the seller's e-mails need nothing more."""
    return bool(current_app.config["SMTP_HOST"])


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


def send_lead_email(lead: dict, photos: list[dict]) -> None:
    """Send staff the new-lead e-mail."""
    deliver(build_message(lead, photos))


def deliver(message: EmailMessage) -> None:
    """Hand one message to the configured SMTP server (STARTTLS and login when configured).

    STARTTLS checks the relay's certificate against the system's CAs (OpenSSL's
    SSL_CERT_FILE/SSL_CERT_DIR apply) and its name against SMTP_HOST, and fails closed: a relay
    that offers no STARTTLS or a certificate that does not check out gets nothing, so the job
    fails and is retried, rather than a status link going out in clear."""
    config = current_app.config
    with smtplib.SMTP(config["SMTP_HOST"], config["SMTP_PORT"], timeout=SMTP_TIMEOUT) as smtp:
        if config["SMTP_USE_TLS"]:  # typed once, in app/config.py
            smtp.starttls(context=ssl.create_default_context())
        if config["SMTP_USER"]:
            smtp.login(config["SMTP_USER"], config["SMTP_PASSWORD"])
        smtp.send_message(message)
