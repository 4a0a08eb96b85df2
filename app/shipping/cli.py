"""`flask shipping`: the sale by mail's commands, for the timers and the operator."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

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
