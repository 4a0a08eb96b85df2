"""`flask images`: derive the served pictures (app/pictures/variants.py) from content/images/,
production's or, with --draft, development's quicker ones."""

from __future__ import annotations

import time
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from app.pictures.images import art_folder
from app.pictures.variants import SETTINGS, derive, read_manifest, read_pictures, unlisted_masters


def content_images_folder() -> Path:
    """content/images/: the picture masters and images.toml."""
    return Path(current_app.config["CONTENT_DIR"]) / "images"


@click.command("images")
@click.option("--force", is_flag=True, help="Rewrite every picture's files, even current ones.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes to encode with (default: one per CPU).",
)
@click.option(
    "--draft",
    is_flag=True,
    help="Development only: AVIFs encoded some 35 times faster and a little larger; "
    "production files already there are kept. Without --draft, drafts are derived again.",
)
@with_appcontext
def images_command(force: bool, workers: int | None, draft: bool) -> None:
    """Derive the served images (AVIF, WebP, JPEG, placeholders) from content/images/."""
    source, out_dir = content_images_folder(), art_folder()
    started = time.perf_counter()
    pictures = read_pictures(source)
    written = derive(pictures, out_dir, force=force, workers=workers, draft=draft)
    for path in unlisted_masters(source, pictures):
        click.echo(f"Note: {path} has no entry in {source / SETTINGS}, so no page shows it.")
    drafts = [n for n, r in read_manifest(out_dir).get("images", {}).items() if r.get("draft")]
    if not written:
        click.echo(f"Images in {out_dir} are up to date with {source}; --force rewrites them.")
    else:
        kind = "draft pictures" if draft else "pictures"
        click.echo(
            f"Derived {len(written)} {kind} from {source} into {out_dir} "
            f"in {time.perf_counter() - started:.1f}s: {', '.join(written)}."
        )
    if drafts:
        click.echo(
            f"{len(drafts)} of {len(pictures)} pictures are drafts (quicker, larger AVIFs) for "
            "development; `flask images` without --draft derives them for production."
        )
