"""`flask leads health check`: what deploy/watchbuyers-health.timer runs every minute. The
factory adds the group to `flask leads`."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from app import queue


@click.group("health")
def health_command() -> None:
    """The site's own health: owed work found again, and staff told of faults."""


@health_command.command("check")
@with_appcontext
def check_command() -> None:
    """Queue again the owed work no runner has in hand (with Redis; without it the site's own
    processes do) and remove the uploads a crash stranded; deploy/watchbuyers-health.timer
    runs it every minute."""
    click.echo(queue.run_now(queue.CHECK_HEALTH))
