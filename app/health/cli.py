"""`flask leads health`: the faults standing now, and `check`, what
deploy/watchbuyers-health.timer runs every minute. The factory adds the group to `flask
leads`."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from app import queue
from app.health import checks, faults


@click.group("health", invoke_without_command=True)
@click.pass_context
@with_appcontext
def health_command(context: click.Context) -> None:
    """Print the faults standing now (Redis, owed work, failing jobs, the disk) and those on
    record since the last check (the mail relay's too), each with whether staff were told;
    exits 1 while one stands."""
    if context.invoked_subcommand:
        return
    seen = checks.observe()
    for kind, detail in seen.items():
        click.echo(f"{faults.TITLES[kind]}: {detail}")
    for fault in faults.open_faults():
        told = f"staff told {fault['told_at']}" if fault["told_at"] else "staff not told yet"
        ended = f", cleared {fault['cleared_at']}" if fault["cleared_at"] else ""
        click.echo(f"On record: {faults.TITLES[fault['kind']]} since {fault['since']}{ended} "
                   f"({told})")  # fmt: skip
    if seen:
        raise click.ClickException(f"{len(seen)} faults stand: see docs/deployment.md.")
    click.echo("No fault stands now.")


@health_command.command("check")
@with_appcontext
def check_command() -> None:
    """Queue again the owed work no runner has in hand (with Redis; without it the site's own
    processes do), remove the uploads a crash stranded, then e-mail staff once per fault;
    deploy/watchbuyers-health.timer runs it every minute."""
    click.echo(queue.run_now(queue.CHECK_HEALTH))
