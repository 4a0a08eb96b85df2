"""`flask leads restore` and `flask leads requeue`: a backup or the off-site replica brought
back with its purchase data checked against the configured keys, and the sale's work still owed
queued again (app/sale/pending.py). The factory adds both to the `flask leads` group, beside
the commands that read the records."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from app import queue
from app.leads import backups, store
from app.replica import erasure_log, objects
from app.replica import restore as replica
from app.sale import pending, reerasure
from app.sale.purchase import sealing


@click.command("restore")
@click.argument("folder", required=False,
                type=click.Path(exists=True, file_okay=False, path_type=Path))  # fmt: skip
@click.option(
    "--from-replica",
    is_flag=True,
    help="Restore from the off-site replica (REPLICA_URL) instead of a backup.",
)
@click.option(
    "--files-only",
    is_flag=True,
    help="With --from-replica: fetch again the files a restore could not fetch.",
)
@click.option(
    "--timestamp",
    type=click.DateTime(["%Y-%m-%dT%H:%M:%S"]),
    help="With --from-replica: the database as it was at this moment (UTC, "
    "2026-11-24T03:17:00) instead of the newest.",
)
@click.option(
    "--no-erasure-record",
    is_flag=True,
    help="Restore even though no record of erasures is found: only for a site that never "
    "erased anyone.",
)
@with_appcontext
def restore_command(
    folder: Path | None,
    from_replica: bool,
    files_only: bool,
    timestamp: datetime | None,
    no_erasure_record: bool,
) -> None:
    """Restore a backup (default: the newest in BACKUP_DIR), or the off-site replica, into this
    instance, whose leads.db must hold no lead; then apply again every erasure made since the
    copy was taken (the record of erasures is read first, from beside leads.db, the backups and
    the replica, and nothing is restored if none is found), open every purchase value and file
    with the configured keys (it succeeds only if all of them open) and queue the work that was
    pending. Stop the site and the workers first; with REDIS_URL set, start Redis first: the
    pending work is queued on it."""
    if timestamp and not from_replica:
        raise click.UsageError("--timestamp goes with --from-replica.")
    replicated = from_replica or files_only
    if not replicated:
        folder = backup_to_restore(folder)
    record = find_erasures(None if replicated else folder, no_erasure_record)
    if replicated:
        restored = restore_replica(files_only, timestamp)
    else:
        restore_backup(folder)
    reapply_erasures(record)
    if from_replica and not files_only:
        replica.settle_losses(restored)
    if replicated:
        name_missing_files(restored)
    check_purchase_keys()
    try:
        queued = pending.requeue_all()
    except pending.QueueDown:
        click.echo("Redis does not answer: the health check queues the pending work once it "
                   "does (or run flask leads requeue).")  # fmt: skip
        return
    queue.wait_until_idle()
    click.echo(f"Queued the pending work of {len(queued.leads)} leads, and what else was owed.")


def backup_to_restore(folder: Path | None) -> Path:
    """The backup named, or the newest in BACKUP_DIR."""
    folder = folder or next(reversed(backups.backups(backups.backup_dir())), None)
    if folder is None:
        raise click.ClickException(f"No backup found in {backups.backup_dir()}.")
    return folder


def restore_backup(folder: Path) -> None:
    """The nightly backup's restore (app/leads/backups.py)."""
    try:
        restored = backups.restore(folder)
    except (backups.RestoreRefused, OSError, sqlite3.Error) as error:
        raise click.ClickException(f"Nothing was restored: {error}.") from error
    click.echo(f"Restored {restored.leads} leads and {restored.files} photo files from {folder}.")


def restore_replica(files_only: bool, timestamp: datetime | None) -> replica.Restored:
    """The replica's restore (app/replica/restore.py), at `timestamp` if given."""
    if not objects.configured():
        raise click.ClickException("REPLICA_URL is not set: there is no replica to restore.")
    at = timestamp.strftime("%Y-%m-%dT%H:%M:%SZ") if timestamp else None
    try:
        restored = replica.fetch_again() if files_only else replica.restore_from_replica(at)
    except (backups.RestoreRefused, replica.ReplicaEmpty, OSError, sqlite3.Error) as error:
        raise click.ClickException(f"Nothing was restored: {error}.") from error
    click.echo(f"Restored {restored.leads} leads and {restored.files} files from the replica.")
    return restored


NO_RECORD = (
    "no record of erasures was found: none beside {leads_db}, none in a backup, and no replica "
    "(REPLICA_URL is not set). Restored without it, every seller erased since the copy was "
    "taken comes back, with their details and photos, and is sent the e-mails they were owed. "
    "Put the old machine's erasures.jsonl beside leads.db, or set REPLICA_URL as it was set "
    "there, and restore again; only if this site never erased anyone, restore with "
    "--no-erasure-record."
)


def find_erasures(restoring: Path | None, told_none: bool) -> erasure_log.Found:
    """The record of erasures from every place it is kept (erasure_log.found), read before
    anything is restored; nothing is restored if none is found, unless told the site never
    erased anyone, or if the replica's cannot be read."""
    try:
        record = erasure_log.found(restoring)
    except objects.ReplicaError as error:
        raise click.ClickException(
            f"Nothing was restored: the record of erasures in the replica could not be read "
            f"({error}). Restore again once the storage answers."
        ) from error
    if not record and not told_none:
        leads_db = current_app.config["LEADS_DB"]
        raise click.ClickException("Nothing was restored: " + NO_RECORD.format(leads_db=leads_db))
    return record


def say_where_erasures_were_found(record: erasure_log.Found) -> None:
    """How many entries of the record each place held, and, loudly, what a record found only in
    backups, or found nowhere, cannot know."""
    if not record:
        click.echo(
            "No record of erasures was found; restored as told (--no-erasure-record): no "
            "erasure is applied again."
        )
        return
    places = {"beside leads.db": record.here, "in the backups": record.backups,
              "in the replica": record.bucket}  # fmt: skip
    held = ", ".join(f"{count} {where}" for where, count in places.items() if count is not None)
    click.echo(f"Read the record of erasures: {len(record.entries)} in all ({held}).")
    if record.only_in_backups():
        taken = record.newest_backup
        when = f" ({taken:%-d %B %Y, %H:%M} UTC)" if taken else ""
        click.echo(
            "WARNING: no record of erasures beside leads.db, and no replica: erasures are "
            f"known as the newest backup's copy has them{when}. An erasure made after it on "
            "the machine this one replaces is not applied again: if that machine's "
            "erasures.jsonl is at hand, empty this instance and restore again with it beside "
            "leads.db."
        )


def reapply_erasures(record: erasure_log.Found) -> None:
    """Erase again every lead erased since the restored copy was taken (app/sale/reerasure.py),
    before anything else touches it, and keep the whole record beside leads.db; fail, naming
    why, if any is left unerased."""
    say_where_erasures_were_found(record)
    erasure_log.keep(record)
    done = reerasure.reapply_all(record.oldest_first())
    click.echo(f"Re-applied {len(done.erased)} erasures made after this copy was taken.")
    for lead_id, why in done.failed.items():
        click.echo(f"Not erased again: lead #{lead_id} ({why})")
    if done.failed:
        raise click.ClickException(
            "Some erasures could not be applied again (named above): erase those leads in the "
            "staff area before the site serves them."
        )


def name_missing_files(restored: replica.Restored) -> None:
    """Once the erasures are applied again, name every file the records still name that the
    replica could not bring back: those never copied and the uploads still waiting for their
    job are lost (recorded on their leads); those it could not fetch are fetched by
    --files-only (an erased lead's files are no longer missed); a name the site would never
    write is refused."""
    for name in restored.never_copied:
        click.echo(f"Lost with the machine (its copy was still owed): {name}")
    for lead_id, positions in restored.lost_uploads.items():
        click.echo(
            f"Lost with the machine (still waiting for the photo job): lead #{lead_id}, photo "
            f"{', '.join(map(str, positions))}; the seller's status page asks for it again."
        )
    for name in restored.refused:
        click.echo(f"Refused (not a file name this site writes): {name!r}")
    unfetched = restored.still_unfetched()
    for name, error in unfetched.items():
        click.echo(f"Not fetched: {name} ({error})")
    if restored.refused:
        raise click.ClickException(
            "The restored records name files outside the private storage's own names (above): "
            "nothing was written for them. Find out how they got there before the site starts."
        )
    if unfetched:
        raise click.ClickException(
            "Some files could not be fetched (named above): run flask leads restore "
            "--files-only once the storage answers."
        )


def check_purchase_keys() -> None:
    """Open every purchase value and file with the configured keys; fail naming each that does
    not open."""
    sealing.seal_legacy()
    checked = sealing.check_all()
    click.echo(
        f"Opened {checked.values} purchase values and {checked.files} purchase files with the "
        "configured keys."
    )
    if problems := checked.problems():
        click.echo("\n".join(problems))
        raise click.ClickException(
            "The data is restored, but purchase data the law requires us to keep does not "
            "open (named above): add to PURCHASE_DATA_KEY the key it was written under (check "
            "with flask purchases check-keys), before the site serves it."
        )


@click.command("requeue")
@with_appcontext
def requeue_command() -> None:
    """Queue the unfinished work of every lead, the seller e-mails and staff alerts not sent yet,
    the lost-link requests not answered yet, the purchases not reported yet, staff's e-mail
    about any e-mail whose send is unsure, the register questions still open and what payouts
    owe. Without REDIS_URL the work runs in this process, and the command waits for it."""
    try:
        queued = pending.requeue_all()
    except pending.QueueDown as error:
        raise click.ClickException(str(error)) from error
    if not queued:
        click.echo("Nothing to requeue: every lead's work is done.")
        return
    for lead_id in queued.leads:
        click.echo(f"Queued lead #{lead_id} ({store.work_status(store.get_lead(lead_id))}).")
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
    for lead_id in queued.file_copies:
        click.echo(f"Queued the replica copies of lead #{lead_id}'s files.")
    for lead_id in queued.erasure_entries:
        click.echo(f"Queued the replica copy of lead #{lead_id}'s erasure entry.")
    for claim_id in queued.unsure_emails:
        click.echo(f"Queued staff's e-mail about e-mail claim {claim_id}, which may not have gone.")
    for ask_id in queued.register_asks:
        click.echo(f"Queued stolen-watch register question {ask_id}.")
    for event_id in queued.payout_events:
        click.echo(f"Queued the bank's event {event_id}, stored and not yet applied.")
    for payout_id in queued.payouts:
        click.echo(f"Queued payout {payout_id}, owed a call to the bank.")
    for lead_id, event_id in queued.payout_alerts:
        click.echo(f"Queued staff's e-mail about payout event {event_id} of lead #{lead_id}.")
    queue.wait_until_idle()
