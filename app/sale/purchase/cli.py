"""`flask purchases`: the transaction register for a period, the daily retention run, the
alert of payments still not sent at the day's end, and re-encrypting the purchase data under
the newest PURCHASE_DATA_KEY."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

import click
from flask import current_app
from flask.cli import AppGroup

from app import queue
from app.leads import audit
from app.leads.db import get_db, immediate_transaction, truncate_wal
from app.leads.display import business_today
from app.rendering.dates import display_date
from app.sale.purchase import crypto, files, record, register

purchases_command = AppGroup(
    "purchases", help="The purchase records: register, retention, late payments, keys."
)


@purchases_command.command("register")
@click.option("--from", "first", required=True, type=click.DateTime(["%Y-%m-%d"]))
@click.option("--to", "last", required=True, type=click.DateTime(["%Y-%m-%d"]))
@click.option("--output", type=click.Path(dir_okay=False), help="A file (default: stdout).")
def register_command(first: datetime, last: datetime, output: str | None) -> None:
    """The transaction register of the purchases paid from --from to --to (both days included)
    as CSV; audited. A file is written readable by its owner only: it holds ID numbers. A
    purchase no configured key opens is left out and named, and the command then fails."""
    if last < first:
        raise click.BadParameter("--to is before --from.")
    shown = register.register_of(first.date(), last.date())
    text = register.csv_text(shown.rows)
    if output:
        with os.fdopen(os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
            file.write(text)
    else:
        click.echo(text, nl=False)
    facts = register.period_facts(first.date(), last.date(), shown)
    audit.record("register_exported", None, data=facts | {"via": "cli"})
    if shown.unreadable:
        raise click.ClickException(register.unreadable_warning(shown.unreadable))


@purchases_command.command("retention")
def retention_command() -> None:
    """Apply the retention rules now (bank details, leads without activity, purchase records
    past their retention) and print what was erased; the daily run does the same."""
    click.echo(f"Retention {queue.run_now(queue.APPLY_RETENTION)}.")


@purchases_command.command("payments-due")
def payments_due_command() -> None:
    """Once the business day has ended (BUSINESS_DAY_ENDS), e-mail staff about each signed sale
    still unpaid past its day, once per lead and day, and print how many;
    deploy/watchbuyers-payments.timer runs it every quarter of an hour."""
    click.echo(f"Late payments: {queue.run_now(queue.ALERT_PAYMENTS_DUE)}.")


# The purchase record's columns held encrypted under PURCHASE_DATA_KEY.
ENCRYPTED_COLUMNS = ("birth_date_enc", "id_number_enc", "routing_number_enc", "account_number_enc")


@purchases_command.command("rotate-key")
def rotate_key_command() -> None:
    """Re-encrypt every encrypted purchase value and file under the newest PURCHASE_DATA_KEY:
    put a new key first in the setting and run this. The old key stays in the setting until the
    last backup made before today is gone, or a restored backup opens no purchase record."""
    try:
        values, records = rotate_columns()
        rotated, missing = rotate_files()
    except crypto.InvalidToken as error:
        raise click.ClickException(
            "A value or file opens with none of the keys in PURCHASE_DATA_KEY: keep the old "
            "key in the setting until this command has run."
        ) from error
    click.echo(
        f"Re-encrypted under the newest key: {values} values in {records} purchase records, "
        f"{rotated} files."
    )
    if missing:
        click.echo(f"{missing} files named in purchase_files are missing from storage.")
    click.echo(old_key_notice())


def old_key_notice() -> str:
    """What to keep after a rotation: the backups made until today hold data under the old key."""
    days = current_app.config["BACKUP_KEEP_DAYS"]
    until = display_date((business_today() + timedelta(days=days)).isoformat())
    return (
        "Keep the old key in PURCHASE_DATA_KEY, after the new one, until every backup made "
        f"before today is gone: the nightly backups are kept {days} days (until {until}), and "
        "copies off this machine as long as you keep them. A backup restored without its key "
        "opens no purchase record."
    )


def rotate_columns() -> tuple[int, int]:
    """Every encrypted column of every purchase record, re-encrypted in one transaction (all or
    none); then the WAL emptied of the old ciphertexts. (values, records) rotated."""
    columns = ", ".join(ENCRYPTED_COLUMNS)
    values = records = 0
    with immediate_transaction() as db:
        for row in db.execute(f"SELECT lead_id, {columns} FROM purchases").fetchall():
            rotated = {
                column: crypto.rotate(row[column].encode()).decode()
                for column in ENCRYPTED_COLUMNS
                if row[column]
            }
            if rotated:
                record.update(db, row["lead_id"], rotated)
                values, records = values + len(rotated), records + 1
    truncate_wal()
    return values, records


def rotate_files() -> tuple[int, int]:
    """Every purchase file re-encrypted in place (written aside, then moved over the old one,
    so a crash leaves each file whole under one key or the other); (rotated, missing)."""
    rotated = missing = 0
    for row in get_db().execute("SELECT file_name FROM purchase_files").fetchall():
        path = files.files_dir() / row["file_name"]
        if not path.is_file():
            missing += 1
            continue
        partial = path.with_name(f".{path.name}.partial")
        partial.write_bytes(crypto.rotate(path.read_bytes()))
        partial.replace(path)
        rotated += 1
    return rotated, missing
