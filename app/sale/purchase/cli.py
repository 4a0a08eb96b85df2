"""`flask purchases`: the transaction register for a period, the daily retention run, the
alert of payments still not sent at the day's end, re-sealing the purchase data under the newest
PURCHASE_DATA_KEY and checking that it opens."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

import click
from flask import current_app
from flask.cli import AppGroup

from app import queue
from app.leads import audit
from app.leads.display import business_today
from app.rendering.dates import display_date
from app.replica import monitor, objects
from app.sale.purchase import register, sealing

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


@purchases_command.command("rotate-key")
def rotate_key_command() -> None:
    """Re-seal every encrypted purchase value and file under the newest PURCHASE_DATA_KEY: put a
    new key first in the setting and run this. The old key stays in the setting until the last
    backup made before today is gone, or a restored backup opens no purchase record."""
    done = sealing.rotate_all()
    click.echo(
        f"Re-encrypted under the newest key: {done.values} values in {done.records} purchase "
        f"records, {done.files} files."
    )
    for line in done.problems():
        click.echo(line)
    click.echo(old_key_notice())
    if done.unopened:
        raise click.ClickException(
            "Some values or files open with none of the keys in PURCHASE_DATA_KEY (named "
            "above): keep the old key in the setting until this command has run without them."
        )


@purchases_command.command("check-keys")
def check_keys_command() -> None:
    """Open every encrypted purchase value and file with the configured keys, changing nothing;
    fails if any does not open, or a file is missing or altered."""
    done = sealing.check_all()
    click.echo(f"Opened {done.values} values and {done.files} files with the configured keys.")
    for line in done.problems():
        click.echo(line)
    if done.unopened or done.missing_files:
        raise click.ClickException(
            "Purchase data the law requires us to keep does not open (named above): add to "
            "PURCHASE_DATA_KEY the key it was written under, or restore the missing files."
        )


def old_key_notice() -> str:
    """What to keep after a rotation: the backups made until today, and the replica's
    snapshots, hold data under the old key for as long as an erased item can outlive its
    erasure in them (monitor.erased_within_days, the privacy policy's figure)."""
    config = current_app.config
    replicated = objects.configured()
    days = monitor.erased_within_days(config) if replicated else config["BACKUP_KEEP_DAYS"]
    until = display_date((business_today() + timedelta(days=days)).isoformat())
    copies = "backup and replica copy" if replicated else "backup"
    return (
        f"Keep the old key in PURCHASE_DATA_KEY, after the new one, until every {copies} made "
        f"before today is gone: {days} days (until {until}), and copies off this machine as "
        "long as you keep them. A copy restored without its key opens no purchase record."
    )
