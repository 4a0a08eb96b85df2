"""`flask prices`: the buy-price guide from the command line (docs/prices.md)."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from app import queue
from app.prices import coverage, sample_entries

prices_command = AppGroup("prices", help="The buy-price guide.")


@prices_command.command("samples")
def samples_command() -> None:
    """Put development's sample entries (content/prices/samples.toml) in the guide, replacing
    earlier samples, where samples are shown; bin/setup runs it after `flask seed`."""
    loaded = sample_entries.load()
    if loaded:
        click.echo(f"Put {loaded} sample entries in the buy-price guide (never in production).")
    else:
        click.echo("No sample entries: samples are not shown here.")


@prices_command.command("market")
def market_command() -> None:
    """Ask the market-data provider for every guide reference's price now, as the nightly
    timer does (deploy/watchbuyers-market.timer), and say what came back."""
    click.echo(f"Market prices: {queue.run_now(queue.FETCH_MARKET_PRICES)}.")


@prices_command.command("coverage")
def coverage_command() -> None:
    """Work out again whether the guide covers the advertised brands (the home page's promise)
    and say so; the daily run and every change to the guide do the same."""
    coverage.refresh()
    click.echo("The home page promises an instant valuation." if coverage.is_on() else
               "The home page promises a reply within 24 hours (the guide does not cover the "
               "advertised brands).")  # fmt: skip
