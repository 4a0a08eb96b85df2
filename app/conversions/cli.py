"""`flask conversions`: the Google Ads offline-conversions file, printed for whoever runs the
server (staff download the same file from the staff area, app/staff/views/conversions.py)."""

from __future__ import annotations

from datetime import datetime

import click
from flask.cli import AppGroup

from app.conversions import google_ads

conversions_command = AppGroup("conversions", help="Conversions reported to the ad platforms.")


@conversions_command.command("google-ads")
@click.option(
    "--since",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="The first purchase day (YYYY-MM-DD, business time); default: 90 days ago.",
)
def google_ads_command(since: datetime | None) -> None:
    """Print the Google Ads upload file of purchases from Google ad clicks since a day."""
    text, _count = google_ads.upload_file(since.date() if since else google_ads.default_since())
    click.echo(text, nl=False)
