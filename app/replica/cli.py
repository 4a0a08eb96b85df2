"""`flask leads replication`: how far behind the off-site replica is (the default), the check
the replication timer runs, Litestream's configuration, and the bucket's one-time setup. The
factory adds the group to `flask leads`."""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext

from app import queue
from app.replica import copies, litestream, monitor, objects


def require_replica() -> None:
    """Stop with a clear message where this deployment does not replicate."""
    if not objects.configured():
        raise click.ClickException("REPLICA_URL is not set: this instance has no replica.")


@click.group("replication", invoke_without_command=True)
@click.pass_context
@with_appcontext
def replication_command(context: click.Context) -> None:
    """Print the database replica's lag and last sync, and the files not yet copied; exits 1
    if staff would be alerted (see `check`)."""
    if context.invoked_subcommand:
        return
    require_replica()
    report = monitor.report()
    click.echo("\n".join(report.lines()))
    if problems := report.problems():
        raise click.ClickException("; ".join(problems))


@replication_command.command("check")
@with_appcontext
def check_command() -> None:
    """Copy what is still owed, then e-mail staff (at most hourly) if the replica is behind,
    unreachable, failing a copy, or would keep deleted data too long;
    deploy/watchbuyers-replication.timer runs it every minute."""
    require_replica()
    click.echo(queue.run_now(queue.CHECK_REPLICATION))


@replication_command.command("copy-all")
@with_appcontext
def copy_all_command() -> None:
    """Copy every private file to the replica again, now (after a change of key or prefix)."""
    require_replica()
    click.echo(f"{copies.owe_every_copy_again()} files to copy.")
    done = copies.sync_owing()
    left = len(done.failed)
    click.echo(f"Copied {len(done.copied)}; {left} left owed for the replication check.")
    if done.failed:
        raise click.ClickException("Some copies failed: see flask leads replication.")


@replication_command.command("litestream-config")
@click.option("--to", "target", required=True, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def litestream_config_command(target: Path) -> None:
    """Write Litestream's configuration for leads.db (deploy/watchbuyers-litestream.service
    runs this before Litestream starts)."""
    require_replica()
    litestream.write_settings(target)
    click.echo(f"Wrote {target}.")


@replication_command.command("prepare-bucket")
@with_appcontext
def prepare_bucket_command() -> None:
    """Turn on the bucket's versioning and the lifecycle that removes replaced and deleted
    copies after REPLICA_RETENTION_DAYS (once, with credentials allowed to change the bucket)."""
    require_replica()
    try:
        objects.prepare_bucket()
    except objects.ReplicaError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"The bucket keeps replaced and deleted copies for at most "
               f"{objects.bucket_retention()} days.")  # fmt: skip
