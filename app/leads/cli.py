"""`flask leads`: list, show, export, migrate and back up the leads in leads.db (the sale adds
`flask leads restore` and `flask leads requeue`, app/sale/cli.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup

from app.leads import backups, db, export, search, storage, store

leads_command = AppGroup("leads", help="Read leads and requeue their pending work.")


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
            f"{lead['watch_brand']:<20} {lead['photo_count']:>2} photos  {store.work_status(lead)}"
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
    click.echo(f"{'status':<{width}}  {store.work_status(lead)}")
    click.echo(f"photos (in {storage.photos_dir()}):")
    for photo in store.lead_photos(lead_id):
        stored = photo["image_name"] or photo["error"] or "not processed yet"
        click.echo(f"  {photo['position']:>2}. {photo['original_name']}: {stored}")


@leads_command.command("export")
@click.option("--csv", "path", required=True, type=click.Path(dir_okay=False, writable=True))
def export_command(path: str) -> None:
    """Write every lead to a CSV file, oldest first (photo files listed in one column),
    streamed: memory stays flat however many leads there are."""
    count = search.count_leads({})
    with open(path, "w", newline="", encoding="utf-8") as file:
        export.write_csv(file, search.iter_leads({}, newest_first=False))
    click.echo(f"Exported {count} leads to {path}.")


@leads_command.command("migrate")
def migrate_command() -> None:
    """Bring leads.db to the current schema (the app also does so whenever it starts)."""
    version = db.migrate(current_app.config["LEADS_DB"])
    click.echo(f"{current_app.config['LEADS_DB']} is at schema version {version}.")


@leads_command.command("backup")
@click.option("--to", "where", type=click.Path(file_okay=False, path_type=Path),
              help="The folder to back up into (default: BACKUP_DIR).")  # fmt: skip
def backup_command(where: Path | None) -> None:
    """Back up leads.db and the photo storage into a new dated folder while the site keeps
    running, then remove backups older than BACKUP_KEEP_DAYS (never the newest)."""
    where = where or backups.backup_dir()
    try:
        taken = backups.take_backup(where)
        removed = backups.remove_expired(where, current_app.config["BACKUP_KEEP_DAYS"])
    except (OSError, sqlite3.Error) as error:
        raise click.ClickException(f"Backup failed: {error}") from error
    click.echo(
        f"Backed up {taken.leads} leads and {taken.files} photo files to {taken.path}, with the "
        f"record of {taken.erasures} erasures."
    )
    if removed:
        click.echo(f"Removed {len(removed)} backups older than the kept days.")
