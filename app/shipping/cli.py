"""`flask shipping`: the sale by mail's commands, for the timers and the operator."""

from __future__ import annotations

import os
from datetime import datetime

import click
from flask import current_app
from flask.cli import with_appcontext

from app.shipping import declarations
from app.shipping.reconcile import reconcile


@click.group("shipping")
def shipping_command() -> None:
    """The sale by mail's parcels (docs/shipping.md)."""


@shipping_command.command("reconcile")
@with_appcontext
def reconcile_command() -> None:
    """Read every parcel still on its way from the label provider (what webhooks missed), void
    labels unused past MAILIN_LABEL_VOID_DAYS, flag labels never scanned; exits 1 if the
    provider failed any (deploy/watchbuyers-shipping.timer runs it every 3 hours)."""
    if not current_app.config["MAILIN_ENABLED"]:
        raise click.ClickException("MAILIN_ENABLED is off: there are no parcels to reconcile.")
    done = reconcile()
    click.echo(done.summary())
    if done.failed:
        raise click.ClickException("The provider failed some parcels (named above).")


@shipping_command.command("declarations")
@click.option("--month", required=True, type=click.DateTime(["%Y-%m"]), help="YYYY-MM")
@click.option("--output", type=click.Path(dir_okay=False), help="A file (default: stdout).")
@with_appcontext
def declarations_command(month: datetime, output: str | None) -> None:
    """The insurer's monthly declaration: every parcel whose cover began in --month, as CSV. A
    file is written readable by its owner only: it holds tracking numbers."""
    if output is None:
        declarations.write_csv(click.get_text_stream("stdout"), f"{month:%Y-%m}")
        return
    with os.fdopen(os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
        count = declarations.write_csv(file, f"{month:%Y-%m}")
    click.echo(f"Declared {count} parcels of {month:%Y-%m} in {output}.")
