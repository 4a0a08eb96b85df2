"""The jobs, queued by their dotted names through app.queue.enqueue. Each takes ids only, checks
the records of what is done, and records its completion: a retry never repeats finished work."""

from __future__ import annotations

from flask import current_app

from app.conversions import events, send
from app.leads import history, links, store
from app.leads.state import State
from app.prices import market
from app.replica import copies, erasure_log
from app.sale import erasure, lifecycle, pending, retention
from app.sale.purchase import documents, payout
from app.shipping import pickups, tracking
from worker import (
    erasure_mail,
    label_jobs,
    mail,
    parcel_mail,
    payment_alerts,
    payout_jobs,
    payout_mail,
    photos,
    range_alerts,
    record_alerts,
    register_jobs,
    replica_alerts,
    return_jobs,
    seller_mail,
    shipping_alerts,
    staff_alerts,
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


def held_back(lead: dict, configured: bool, what: str) -> str | None:
    """Why an e-mail about this lead is not sent now, or None: an erased lead gets none, and
    without mail settings it stays pending (the job says so and is not recorded as done)."""
    if lead["erased_at"]:
        return "lead erased"
    if not configured:
        current_app.logger.warning("Lead %s: mail not configured, no %s.", lead["id"], what)
        return "not configured"
    return None


def process_lead(lead_id: int) -> str:
    """Every piece of a lead's work not done yet, in order: its photos first, so the staff
    e-mail carries their thumbnails, then staff's e-mail, the seller's confirmation, the
    conversion events and the photos' copies in the replica. One failing piece does not hold
    back the next."""
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
    """Without Redis, at each process's start: queue the work a crashed process left."""
    return f"queued {pending.sweep_stale_leads()} jobs"


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
    """E-mail the lead to staff; left pending while no SMTP server or address is configured."""
    lead = load_lead(lead_id)
    if lead["staff_notified_at"]:
        return "already done"
    if not mail.is_configured():
        current_app.logger.warning("Lead %s: STAFF_EMAIL/SMTP_HOST not set, no e-mail.", lead_id)
        return "not configured"
    mail.send_lead_email(lead, store.lead_photos(lead_id))
    store.mark_done(lead_id, "staff_notified_at")
    return "done"


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
    """E-mail the seller their reference, a summary and their private status link.

    The link's token is made here and only its hash is stored, so it never sits in plain text in
    the database or the queue. A retry after a send whose completion was not recorded issues
    another token; both links work.
    """
    lead = load_lead(lead_id)
    if lead["seller_confirmed_at"]:
        return "already done"
    if held := held_back(lead, mail.smtp_configured(), "confirmation"):
        return held
    url = links.issue_status_link(lead_id)
    photo_count = len(store.lead_photos(lead_id))
    mail.deliver(seller_mail.confirmation_message(lead, photo_count, url))
    store.mark_done(lead_id, "seller_confirmed_at")
    return "done"


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
    leads = links.open_leads_of(email)
    for lead in leads:
        link = links.issue_link(lead["id"])
        mail.deliver(seller_mail.new_link_message(lead, link.url))
        links.revoke_links_before(lead["id"], link.link_id)
    links.drop_link_request(request_id)
    return f"sent {len(leads)}"


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
    if held := held_back(lead, mail.smtp_configured(), "seller e-mail"):
        return held
    # The "paid" e-mail carries the files the documents job stored (queued first): attachments
    # raises while they are not made, so the e-mail is retried, never sent without them.
    attached = documents.attachments(lead) if template == "completed" else []
    url = links.issue_status_link(lead_id)
    mail.deliver(seller_mail.build_message(lead, event, template, url, attached))
    history.record_email(lead_id, event_id, template)
    return "sent"


def make_purchase_documents(lead_id: int) -> str:
    """Make a bought lead's bill of sale and receipt if they are owed (app/sale/purchase/
    documents.py): queued when the lead is bought, and again by a requeue. A failed rendering
    raises, so RQ retries it."""
    load_lead(lead_id)
    made = documents.make_documents(lead_id)
    if not made:
        return "nothing owed"
    copies.sync_now(lead_id)
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
    if held := held_back(lead, mail.is_configured(), "staff alert"):
        return held
    mail.deliver(mail.seller_action_message(lead, event))
    history.record_email(lead_id, event_id, event["kind"], kind="staff_alerted")
    return "sent"


def alert_sign_in_ceiling(audit_id: int) -> str:
    """E-mail staff that an account's failed sign-ins reached the ceiling (audit entry
    `audit_id`): its sign-in is stopped for the rest of the hour and a person should look."""
    return staff_alerts.send_ceiling_alert(audit_id)


def send_erasure_link(request_id: int) -> str:
    """E-mail the link that confirms a seller's erasure request to the address on file
    (app/sale/erasure.py), so whoever else holds a status link cannot erase the lead. The
    token is made here and kept only as a digest, never in the queue; sent once per request."""
    lead = erasure.lead_awaiting_link(request_id)
    if lead is None:
        return "already sent"  # or the lead was reopened or erased meanwhile: nothing to ask
    if held := held_back(lead, mail.smtp_configured(), "erasure link"):
        return held
    mail.deliver(erasure_mail.confirm_erasure_message(lead, erasure.issue_link(request_id)))
    erasure.mark_link_sent(request_id)
    return "sent"


def send_payout_check(check_id: int) -> str:
    """E-mail the seller, at the address on file, the payout account they signed for (by its
    last 4 digits) with the link that confirms or refuses it (app/sale/purchase/payout.py), so
    whoever else holds a status link cannot have the payment sent to their own account. The
    token is made here and kept only as a digest; sent once per signing."""
    lead = payout.lead_awaiting_link(check_id)
    if lead is None:
        return "already sent"  # or the paperwork was voided or the lead moved on meanwhile
    if held := held_back(lead, mail.smtp_configured(), "payout check"):
        return held
    mail.deliver(payout_mail.confirm_payout_message(lead, payout.issue_link(check_id)))
    payout.mark_link_sent(check_id)
    return "sent"


def erase_at_sellers_request(lead_id: int) -> str:
    """Erase a lead whose seller confirmed it from their e-mail: first the last e-mail, which
    the withdrawal page promises, while the address is still there; the erasure is the last
    step, so a failed send is retried with nothing lost. Never without a confirmed request
    that still stands (staff reopening the lead voids it). A bought lead keeps the purchase
    record the law requires, as that e-mail says."""
    lead = load_lead(lead_id)
    if lead["erased_at"]:
        return "already erased"
    if not erasure.confirmed(lead_id):
        return "no confirmed request stands: not erased"
    if held := held_back(lead, mail.smtp_configured(), "erasure e-mail"):
        return held
    mail.deliver(erasure_mail.erased_message(lead))
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


def copy_lead_files(lead_id: int) -> str:
    """Copy the files the steps before wrote (the cleaned photos) to the replica: the lead's
    work's last step, so no e-mail waits on the storage. A failed copy stays owed and is
    queued as its own job (copies.sync_now); it never fails the lead's work."""
    done = copies.sync_now(lead_id)
    return f"copied {len(done.copied)}, {len(done.failed)} left owed"


LEAD_WORK = (process_photos, notify_staff, confirm_to_seller, send_conversions, copy_lead_files)


def copy_files(lead_id: int) -> str:
    """Copy a lead's files to the replica and delete the copies of files its records dropped
    (app/replica/copies.py), then store the erasure entries the bucket does not hold yet
    (app/replica/erasure_log.py): queued by whatever wrote or dropped them, by an erasure, or
    when the writing job's own copy failed. A failure raises, so RQ retries it with backoff."""
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
# alerted when needed; the payout sent through the bank's API (created, released and read back
# once, staff e-mailed once: worker/payout_jobs.py).
apply_retention = retention.apply_rules
check_replication = replica_alerts.check_replication
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
send_label_mail = parcel_mail.send_label_mail
send_payout = payout_jobs.send_payout
alert_payout = payout_jobs.alert_payout
apply_payout_event = payout_jobs.apply_payout_event
