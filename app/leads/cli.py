"""`flask leads`: list, show, export, requeue and back up the leads in leads.db."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from flask.cli import AppGroup

from app.leads import db, export, history, lifecycle, search, storage, store
from app.queue import (
    ALERT_STAFF,
    enqueue_lead_work,
    enqueue_seller_email,
    enqueue_staff_alert,
    run_job,
    run_lead_work,
    uses_queue,
)

leads_command = AppGroup("leads", help="Read leads and requeue their pending work.")


def status(lead: dict) -> str:
    pending = store.pending_work(lead)
    return "pending: " + ", ".join(c.removesuffix("_at") for c in pending) if pending else "done"


@leads_command.command("list")
def list_command() -> None:
    """One line per lead, newest first."""
    leads = search.list_leads()
    if not leads:
        click.echo("No leads yet.")
        return
    for lead in leads:
        click.echo(
            f"#{lead['id']:<5} {lead['created_at']}  {lead['full_name'][:28]:<28}  "
            f"{lead['watch_brand']:<20} {lead['photo_count']:>2} photos  {status(lead)}"
        )


@leads_command.command("show")
@click.argument("lead_id", type=int)
def show_command(lead_id: int) -> None:
    """Every field of one lead, its photos and its work status."""
    lead = store.get_lead(lead_id)
    if lead is None:
        raise click.ClickException(f"No lead #{lead_id}.")
    width = max(map(len, lead))
    for key, value in lead.items():
        click.echo(f"{key:<{width}}  {'' if value is None else value}")
    click.echo(f"{'status':<{width}}  {status(lead)}")
    click.echo(f"photos (in {storage.photos_dir()}):")
    for photo in store.lead_photos(lead_id):
        stored = photo["image_name"] or photo["error"] or "not processed yet"
        click.echo(f"  {photo['position']:>2}. {photo['original_name']}: {stored}")


@leads_command.command("export")
@click.option("--csv", "path", required=True, type=click.Path(dir_okay=False, writable=True))
def export_command(path: str) -> None:
    """Write every lead to a CSV file (photo files listed in one column)."""
    leads = search.list_leads()
    with open(path, "w", newline="", encoding="utf-8") as file:
        export.write_csv(file, list(reversed(leads)))
    click.echo(f"Exported {len(leads)} leads to {path}.")


@leads_command.command("requeue")
def requeue_command() -> None:
    """Queue (or, without REDIS_URL, run) the unfinished work of every lead, and the seller
    e-mails and staff alerts not sent yet."""
    leads = store.leads_with_pending_work()
    emails = history.unsent_seller_emails(tuple(lifecycle.SELLER_EMAILS))
    alerts = history.unalerted_seller_events()
    if not leads and not emails and not alerts:
        click.echo("Nothing to requeue: every lead's work is done.")
        return
    verb = "Queued" if uses_queue() else "Ran"
    unreachable = click.ClickException("Redis is unreachable; nothing more was queued.")
    for lead in leads:
        if not uses_queue():
            run_lead_work(lead["id"])
        elif not enqueue_lead_work(lead["id"]):
            raise unreachable
        click.echo(f"{verb} lead #{lead['id']} ({status(lead)}).")
    for lead_id, event_id in emails:
        if not enqueue_seller_email(lead_id, event_id):
            raise unreachable
        click.echo(f"{verb} the seller e-mail of lead #{lead_id} (event {event_id}).")
    for lead_id, event_id in alerts:
        if not uses_queue():
            run_job(ALERT_STAFF, lead_id, event_id)
        elif not enqueue_staff_alert(lead_id, event_id):
            raise unreachable
        click.echo(f"{verb} the staff alert of lead #{lead_id} (event {event_id}).")


@leads_command.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True, path_type=Path))
def backup_command(path: Path) -> None:
    """Write a consistent copy of leads.db to PATH while the site keeps running.

    Restore: stop the site and workers, copy PATH over leads.db (removing leads.db-wal and
    leads.db-shm), start again. Photos live in the storage folder: back that up as files.
    """
    try:
        count = db.backup(path)
    except (OSError, sqlite3.Error) as error:
        raise click.ClickException(f"Backup failed: {error}") from error
    click.echo(f"Backed up {count} leads to {path}.")
