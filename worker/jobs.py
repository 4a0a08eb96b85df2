"""The jobs, queued by their dotted names through app.queue.enqueue. Each takes ids only, checks
the records of what is done, and records its completion: a retry never repeats finished work."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app

from app.conversions import events, send
from app.leads import email_claims, email_kinds, history, links, store
from app.leads.db import get_db
from app.leads.state import State
from app.photos import intake
from app.prices import market
from app.replica import copies, erasure_log
from app.sale import erasure, keeping, lifecycle, pending, retention
from app.sale.purchase import documents
from app.shipping import pickups, tracking
from worker import (
    erasure_mail,
    health_alerts,
    label_jobs,
    mail,
    mailbox_jobs,
    parcel_mail,
    payment_alerts,
    payout_jobs,
    photos,
    range_alerts,
    record_alerts,
    register_jobs,
    replica_alerts,
    return_jobs,
    seller_mail,
    shipping_alerts,
    staff_alerts,
    unsure_mail,
)


class WorkIncomplete(RuntimeError):
    """Some of a lead's work failed (each failure is logged); raised so RQ retries the job,
    which skips what is done."""


def load_lead(lead_id: int) -> dict:
    """The lead, or LookupError: a job for a lead that is gone fails loudly."""
    lead = store.get_lead(lead_id)
    if lead is None:
        raise LookupError(f"Lead {lead_id} does not exist.")
    return lead


def process_lead(lead_id: int) -> str:
    """Every piece of a lead's work not done yet, in order: its photos first, so the staff
    e-mail carries their thumbnails, then staff's e-mail, the seller's confirmation and the
    conversion events; last, the photos' copies in the replica are queued on a lane of their
    own, so no e-mail waits on the storage. One failing piece does not hold back the next."""
    failed = []
    for step in LEAD_WORK:
        try:
            step(lead_id)
        except Exception:
            current_app.logger.exception("Lead %s: %s failed.", lead_id, step.__name__)
            failed.append(step.__name__)
    if failed:
        raise WorkIncomplete(f"Lead {lead_id}: {', '.join(failed)} failed.")
    return "done"


def sweep_pending_work() -> str:
    """On a schedule: queue the owed work no runner has, remove the uploads a crash left."""
    queued, removed = pending.sweep(), intake.remove_stranded_uploads()
    return f"queued {queued.count()} jobs, removed {removed} stranded uploads"


def process_photos(lead_id: int) -> str:
    """Decode, clean and store every photo of the lead not done yet (see worker.photos): the
    sell form's, and any the seller added later from their status page."""
    done_before = load_lead(lead_id)["photos_processed_at"]
    processed = photos.process_lead_photos(lead_id)
    if done_before and not processed:
        return "already done"
    store.mark_done(lead_id, "photos_processed_at")
    return "done"


def notify_staff(lead_id: int) -> str:
    """E-mail the lead to staff, once; left pending while no SMTP server or address is
    configured."""
    lead = load_lead(lead_id)
    if lead["staff_notified_at"]:
        return "already done"
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no e-mail.", lead_id)
        return "not configured"
    return work_mailed(
        lead_id,
        "staff_notified_at",
        email_kinds.NEW_LEAD,
        lambda: mail.build_message(lead, store.lead_photos(lead_id)),
    )


def work_mailed(lead_id: int, column: str, kind: email_kinds.Kind, message: Callable) -> str:
    """Send a lead's work e-mail of `kind` once (mail.send_once), the piece of work `column`
    recorded done when it went: 'done', or why not."""
    sent = mail.send_once(
        kind.key(lead_id), lead_id, message, lambda: store.mark_done(lead_id, column)
    )
    return "done" if sent == mail.Outcome.SENT else sent


def send_conversions(lead_id: int) -> str:
    """Report the form's Lead to Meta and GA4 (each only when configured), once per platform
    (app/conversions/send.py), then mark the step done; never for a lead whose seller opted out,
    which the timeline records with how they did. A failed send raises, so it is retried."""
    lead = load_lead(lead_id)
    if lead["conversions_sent_at"]:
        return "already done"
    statuses = send.report(lead, events.lead_event(lead))
    if how := send.opted_out(lead):
        store.mark_done(lead_id, "conversions_sent_at", {"withheld": how})
        return f"not sent: the seller opted out ({how})"
    store.mark_done(lead_id, "conversions_sent_at")
    return send.summary(statuses)


def report_purchase(lead_id: int) -> str:
    """Report a bought lead's purchase to Meta (Purchase) and GA4 (purchase), each once and
    only when configured, so campaigns learn which leads sold: queued when the lead becomes
    bought. Opted-out sellers, events past a platform's window and purchases a platform cannot
    take are recorded instead of sent; a failed send raises, so it is retried."""
    lead = load_lead(lead_id)
    purchase = events.purchase_of(lead)
    if purchase is None:
        return "not bought"
    statuses = send.report(lead, events.purchase_event(lead, purchase))
    return send.summary(statuses)


def confirm_to_seller(lead_id: int) -> str:
    """E-mail the seller their reference, a summary and their private status link, once.

    The link's token is made here, by the runner that claimed the e-mail, and only its hash is
    stored, so it never sits in plain text in the database or the queue.
    """
    lead = load_lead(lead_id)
    if lead["seller_confirmed_at"]:
        return "already done"
    if held := mail.held_back(lead, mail.smtp_configured(), "confirmation"):
        return held
    return work_mailed(
        lead_id,
        "seller_confirmed_at",
        email_kinds.CONFIRMATION,
        lambda: seller_mail.confirmation_message(
            lead, len(store.lead_photos(lead_id)), links.issue_status_link(lead_id)
        ),
    )


def send_seller_email(lead_id: int, event_id: int) -> str:
    """E-mail the seller about one state change (quote, appointment, offer, paperwork, completed,
    closed).

    Once per event: the sent e-mail is recorded as an event of its own, which the database
    allows only once per announced event, and a retry finds it and stops.
    """
    if history.email_sent(event_id):
        return "already sent"
    lead = load_lead(lead_id)
    event = history.get_event(event_id)
    if event is None or event["lead_id"] != lead_id or event["kind"] != "state_changed":
        raise LookupError(f"Lead {lead_id} has no state change {event_id}.")
    template = lifecycle.SELLER_EMAILS.get(event["data"]["to"])
    if template is None:
        return "no e-mail for this change"
    if held := mail.held_back(lead, mail.smtp_configured(), "seller e-mail"):
        return held
    # The "paid" e-mail carries the files the documents job stored (queued first): attachments
    # raises while they are not made, so the e-mail is retried, never sent without them.
    attached = documents.attachments(lead) if template == "completed" else []
    return mail.send_once(
        email_kinds.SELLER_EMAIL.key(event_id),
        lead_id,
        lambda: seller_mail.build_message(
            lead, event, template, links.issue_status_link(lead_id), attached
        ),
        lambda: history.record_email(lead_id, event_id, template),
    )


def make_purchase_documents(lead_id: int) -> str:
    """Make a bought lead's bill of sale and receipt if they are owed (app/sale/purchase/
    documents.py): queued when the lead is bought, and again by a requeue. A failed rendering
    raises, so RQ retries it."""
    load_lead(lead_id)
    made = documents.make_documents(lead_id)
    if not made:
        return "nothing owed"
    copies.sync_later(lead_id)
    versions = ", ".join(f"{row['kind']} version {row['version']}" for row in made)
    current_app.logger.info("Lead %s: made %s.", lead_id, versions)
    return f"made {versions}"


def alert_staff(lead_id: int, event_id: int) -> str:
    """E-mail staff what a seller did on their status page (a question, photos added, an
    answer to a quote, a withdrawal), once per action, as send_seller_email does."""
    if history.email_sent(event_id, kind="staff_alerted"):
        return "already sent"
    lead = load_lead(lead_id)
    event = history.get_event(event_id)
    if event is None or event["lead_id"] != lead_id or event["actor"] != "seller":
        raise LookupError(f"Lead {lead_id} has no seller action {event_id}.")
    if held := mail.held_back(lead, mail.is_configured(), "staff alert"):
        return held
    return mail.send_once(
        email_kinds.STAFF_ALERT.key(event_id),
        lead_id,
        lambda: mail.seller_action_message(lead, event),
        lambda: history.record_email(lead_id, event_id, event["kind"], kind="staff_alerted"),
    )


def alert_sign_in_ceiling(audit_id: int) -> str:
    """E-mail staff that an account's failed sign-ins reached the ceiling (audit entry
    `audit_id`): its sign-in is stopped for the rest of the hour and a person should look."""
    return staff_alerts.send_ceiling_alert(audit_id)


def erase_at_sellers_request(lead_id: int) -> str:
    """Erase a lead whose seller confirmed it from their e-mail: first the last e-mail, which
    the withdrawal page promises, while the address is still there; the erasure is the last
    step, so a failed send is retried with nothing lost. Never without a confirmed request
    that still stands (staff reopening the lead voids it), nor while something keeps the lead
    (app/sale/keeping.py: the request waits, and the requeue carries it out once nothing does).
    A bought lead keeps the purchase record the law requires, as that e-mail says. The e-mail
    goes once: a run that finds it claimed erases too, unless the claim's runner may still be
    sending it (and erases after)."""
    lead = load_lead(lead_id)
    if lead["erased_at"]:
        return "already erased"
    if not erasure.confirmed(lead_id):
        return "no confirmed request stands: not erased"
    if why := keeping.kept_because(get_db(), lead_id):
        return f"kept while {why}: not erased yet"
    if held := mail.held_back(lead, mail.smtp_configured(), "erasure e-mail"):
        return held
    about = email_kinds.ERASED.key(lead_id)
    sent = mail.send_once(about, lead_id, lambda: erasure_mail.erased_message(lead))
    if sent == mail.Outcome.CLAIMED and email_claims.in_flight(about):
        return "its e-mail is being sent: erased by the run sending it"
    if lead["state"] == State.BOUGHT:
        erasure.erase_sale(lead_id, "seller")
        return "erased; the purchase record is kept"
    erasure.erase(lead_id, "seller")
    return "erased"


def fetch_market_prices() -> str:
    """The nightly market prices of the guide's references, for staff (app/prices/market.py);
    nothing while no provider is set up."""
    if not market.configured():
        return "no provider (MARKET_DATA_URL is empty)"
    return market.fetch_all().summary()


LEAD_WORK = (process_photos, notify_staff, confirm_to_seller, send_conversions, copies.sync_later)


def copy_files(lead_id: int) -> str:
    """Copy a lead's files to the replica and delete the copies of files its records dropped
    (app/replica/copies.py), then store the erasure entries the bucket does not hold yet
    (app/replica/erasure_log.py): queued, on the copies' own lane, by whatever wrote or
    dropped them, or by an erasure. A failure raises, so RQ retries it with backoff."""
    done = copies.sync_lead(lead_id)
    if done.failed:
        raise copies.CopiesIncomplete(f"Lead {lead_id}: {len(done.failed)} copies failed.")
    entries = erasure_log.upload_owed()
    return f"copied {len(done.copied)}, deleted {len(done.deleted)}, {entries} erasure entries"


# Jobs whose work is all in one function elsewhere, under the names RQ stores: the daily
# retention run (queued by the first request of the day to claim it, or `flask purchases
# retention`); owed copies caught up and staff alerted if the replica has a problem (`flask
# leads replication check`, deploy/watchbuyers-replication.timer); staff e-mailed about signed
# sales still unpaid at the end of their business day (deploy/watchbuyers-payments.timer), a
# purchase record no key opens, or an unusual volume of instant ranges (each once per day); the
# sale by mail's tracking (an event applied to its parcel once, a carrier's exception or what a
# parcel needs a person for e-mailed to staff once, the seller told once of each step of their
# parcel, a label bought once and staff told if it cannot be, a new return address confirmed
# from the seller's mailbox, a carrier pickup booked once, a return opened, a held watch
# e-mailed to staff once; worker/parcel_mail.py, label_jobs.py, return_jobs.py,
# shipping_alerts.py); the stolen-watch register asked by API, its answer recorded and staff
# alerted when needed; the health check (deploy/watchbuyers-health.timer): owed work found
# again, staff told of faults; the payout sent through the bank's API (created, released and
# read back once, staff e-mailed once: worker/payout_jobs.py).
apply_retention = retention.apply_rules
check_replication = replica_alerts.check_replication
check_health = health_alerts.check_health
alert_payments_due = payment_alerts.send_late_alerts
alert_unreadable_purchase = record_alerts.send_unreadable_alert
alert_range_volume = range_alerts.send_volume_alert
apply_shipment_event = tracking.apply_event
alert_shipment_exception = shipping_alerts.send_exception_alert
alert_shipping_attention = shipping_alerts.send_attention_alert
ask_register = register_jobs.ask_register
open_return_parcel = return_jobs.open_return_parcel
buy_shipping_label = label_jobs.buy_shipping_label
send_address_change_check = label_jobs.send_address_change_check
book_pickup = pickups.book
alert_return_held = return_jobs.send_hold_alert
send_parcel_mail = parcel_mail.send_parcel_mail
send_status_links = mailbox_jobs.send_status_links
send_erasure_link = mailbox_jobs.send_erasure_link
send_payout_check = mailbox_jobs.send_payout_check
report_unsure_email = unsure_mail.report_unsure_email
send_label_mail = parcel_mail.send_label_mail
send_payout = payout_jobs.send_payout
alert_payout = payout_jobs.alert_payout
apply_payout_event = payout_jobs.apply_payout_event
