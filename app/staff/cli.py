"""`flask staff`: add, list, revoke, reset and disable staff accounts; read and verify the audit
log.

There is no self-registration: these commands, run by whoever operates the server, are the only
way to make or restore an account. `add` and `reset` print the one-time enrolment link last.
"""

from __future__ import annotations

import click
from flask.cli import AppGroup

from app.leads import audit
from app.staff import accounts, queries

staff_command = AppGroup("staff", help="Manage staff accounts and read the audit log.")


def account_or_exit(email: str) -> dict:
    """The account with this e-mail, or a ClickException so the command exits with the message."""
    try:
        return accounts.find_account(email)
    except accounts.AccountError as error:
        raise click.ClickException(str(error)) from error


@staff_command.command("add")
@click.argument("email")
@click.option("--name", required=True, help="The person's name, as shown in the staff area.")
def add_command(email: str, name: str) -> None:
    """Create an account and print its enrolment link (valid 24 hours)."""
    try:
        staff, link = accounts.add_account(email, name)
    except accounts.AccountError as error:
        raise click.ClickException(str(error)) from error
    audit.record("account_added", staff["id"], data={"via": "cli"})
    click.echo(f"Added {staff['email']}. Send them this enrolment link (valid 24 hours):")
    click.echo(link)


@staff_command.command("list")
def list_command() -> None:
    """Every account: status, open sessions, last sign-in."""
    rows = queries.all_staff()
    if not rows:
        click.echo("No staff accounts yet. Add one with: flask staff add EMAIL --name NAME")
        return
    for staff in rows:
        click.echo(
            f"{staff['email']:<32} {staff['name'][:24]:<24} {accounts.status(staff):<18} "
            f"{staff['open_sessions']} open sessions, last sign-in {staff['last_sign_in'] or '-'}"
        )


@staff_command.command("revoke")
@click.argument("email")
def revoke_command(email: str) -> None:
    """End every session of the account at once."""
    staff = account_or_exit(email)
    ended = queries.end_sessions_of(staff["id"])
    audit.record("sessions_revoked", staff["id"], data={"via": "cli", "sessions": ended})
    click.echo(f"Ended {ended} sessions of {staff['email']}.")


@staff_command.command("reset")
@click.argument("email")
def reset_command(email: str) -> None:
    """New enrolment link; the old password, TOTP and recovery codes stop working."""
    staff = account_or_exit(email)
    link = accounts.reset_account(staff)
    audit.record("account_reset", staff["id"], data={"via": "cli"})
    click.echo(f"Reset {staff['email']}: every session ended. New enrolment link (valid 24 hours):")
    click.echo(link)


@staff_command.command("disable")
@click.argument("email")
def disable_command(email: str) -> None:
    """Stop the account from signing in and end its sessions."""
    staff = account_or_exit(email)
    accounts.disable_account(staff)
    audit.record("account_disabled", staff["id"], data={"via": "cli"})
    click.echo(f"Disabled {staff['email']} and ended its sessions.")


def verify_audit_log() -> None:
    """Print OK with the count and the last entry's hash, or exit 1 naming the first entry that
    does not follow from the one before it."""
    verdict = audit.verify()
    if verdict.broken_at is not None:
        raise click.ClickException(
            f"The audit log is broken at entry {verdict.broken_at}: {verdict.problem}. "
            f"Intact before it: {verdict.count}."
        )
    click.echo(
        f"OK: {verdict.count} entries, each chained to the one before. Last hash: "
        f"{verdict.last_hash} (keep it elsewhere: entries cut from the end change it)."
    )


@staff_command.command("audit")
@click.option("--lead", "lead_id", type=int, help="Only entries about this lead.")
@click.option("--staff", "email", help="Only entries of this staff account.")
@click.option("--verify", is_flag=True, help="Check the whole log's hash chain instead.")
def audit_command(lead_id: int | None, email: str | None, verify: bool) -> None:
    """Print the audit log, oldest first; or, with --verify, check that no entry was changed or
    removed (exit 1 naming the first broken entry)."""
    if verify:
        if lead_id is not None or email:
            raise click.UsageError("--verify checks the whole log: give it alone.")
        verify_audit_log()
        return
    staff_id = account_or_exit(email)["id"] if email else None
    emails = {staff["id"]: staff["email"] for staff in queries.all_staff()}
    rows = audit.entries(lead_id=lead_id, staff_id=staff_id)
    if not rows:
        click.echo("No audit entries match.")
    for row in rows:
        who = emails.get(row["staff_id"], "-")
        lead = f"lead #{row['lead_id']}" if row["lead_id"] else ""
        data = " ".join(f"{key}={value}" for key, value in row["data"].items())
        click.echo(
            f"{row['at']}  {row['action']:<18} {who:<28} {lead:<10} "
            f"{row['address'] or '-':<15} {data}".rstrip()
        )
