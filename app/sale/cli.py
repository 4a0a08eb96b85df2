"""`flask leads requeue`: the sale's work still owed, queued again (app/sale/pending.py). The
factory adds it to the `flask leads` group, beside the commands that read the records."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from app import queue
from app.leads import store
from app.sale import pending


@click.command("requeue")
@with_appcontext
def requeue_command() -> None:
    """Queue the unfinished work of every lead, the seller e-mails and staff alerts not sent yet,
    the lost-link requests not answered yet and the purchases not reported yet. Without
    REDIS_URL the work runs in this process, and the command waits for it."""
    try:
        queued = pending.requeue_all()
    except pending.QueueDown as error:
        raise click.ClickException(str(error)) from error
    if not queued:
        click.echo("Nothing to requeue: every lead's work is done.")
        return
    for lead in queued.leads:
        click.echo(f"Queued lead #{lead['id']} ({store.work_status(lead)}).")
    for lead_id, event_id in queued.seller_emails:
        click.echo(f"Queued the seller e-mail of lead #{lead_id} (event {event_id}).")
    for lead_id, event_id in queued.staff_alerts:
        click.echo(f"Queued the staff alert of lead #{lead_id} (event {event_id}).")
    for request_id in queued.link_requests:
        click.echo(f"Queued lost-link request {request_id}.")
    for request_id in queued.erasure_links:
        click.echo(f"Queued erasure confirmation link {request_id}.")
    for check_id in queued.payout_checks:
        click.echo(f"Queued payout account check {check_id}.")
    for lead_id in queued.erasures:
        click.echo(f"Queued the confirmed erasure of lead #{lead_id}.")
    for lead_id in queued.purchases:
        click.echo(f"Queued the purchase report of lead #{lead_id}.")
    for lead_id in queued.documents:
        click.echo(f"Queued the bill of sale and receipt of lead #{lead_id}.")
    queue.wait_until_idle()
