"""`flask payouts`: the payouts' command, for the timer and the operator."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from app.payouts.catch_up import reconcile


@click.group("payouts")
def payouts_command() -> None:
    """The payouts sent through the business's bank API (docs/payouts.md)."""


@payouts_command.command("reconcile")
@with_appcontext
def reconcile_command() -> None:
    """Read every payout not yet final from the bank (what webhooks missed) and do what each is
    owed, and tell staff of a payout waiting too long for its second person; exits 1 if the
    bank failed any (deploy/watchbuyers-payouts.timer runs it every 5 minutes)."""
    if not current_app.config["PAYOUT_PROVIDER"]:
        raise click.ClickException("PAYOUT_PROVIDER is not set: there are no payouts to read.")
    done = reconcile()
    click.echo(done.summary())
    if done.failed:
        raise click.ClickException("The bank failed some payouts (named above).")
