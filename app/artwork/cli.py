"""``flask artwork``: draw the site's illustrations into app/static/img/art/.

For every catalog image NAME (natural size W x H) it writes, for each display width w,
``NAME-{w}.avif``, ``NAME-{w}.webp`` and ``NAME-{w}.jpg`` (height round(w * H / W)), plus a
24-px-wide ``NAME-placeholder.webp`` to show blurred while the real image loads, and
``manifest.json``:
{"version": ..., "images": {NAME: {"width": W, "height": H, "widths": [...]}}}.

The version is a hash of VERSION, the catalog and the drawing code, so a run is skipped when the
manifest already matches it (and every file is there) unless forced. Drawing is deterministic.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import click
from flask.cli import with_appcontext
from PIL import Image

from app.artwork import catalog, draw
from app.artwork.catalog import CATALOG, Art
from app.images import art_folder

VERSION = "2"  # bump to force every deployment to redraw
MANIFEST = "manifest.json"
PLACEHOLDER_WIDTH = 24
# AVIF at quality 62 matches the WebP's fidelity (PSNR against the lossless drawing) in 20-40 %
# fewer bytes; browsers without AVIF take the WebP, and the oldest the JPEG.
AVIF = {"format": "AVIF", "quality": 62}
WEBP = {"format": "WEBP", "quality": 80, "method": 4}
JPEG = {"format": "JPEG", "quality": 82, "progressive": True, "optimize": True}
PLACEHOLDER = {"format": "WEBP", "quality": 40, "method": 4}
FORMATS = {"avif": AVIF, "webp": WEBP, "jpg": JPEG}


def generator_version() -> str:
    digest = hashlib.sha256(VERSION.encode())
    for art in CATALOG:
        digest.update(json.dumps([art.name, art.width, art.height, list(art.widths)]).encode())
    for module in (catalog, draw):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


def scaled_height(art: Art, width: int) -> int:
    return round(width * art.height / art.width)


def file_names(name: str, widths) -> list[str]:
    names = [f"{name}-{w}.{ext}" for w in widths for ext in FORMATS]
    return [*names, f"{name}-placeholder.webp"]


def read_manifest(out_dir: Path) -> dict | None:
    try:
        return json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def is_current(out_dir: Path) -> bool:
    """True when the manifest matches this generator and every file it promises exists."""
    out_dir = Path(out_dir)
    manifest = read_manifest(out_dir)
    if not manifest or manifest.get("version") != generator_version():
        return False
    return all((out_dir / f).is_file() for art in CATALOG for f in file_names(art.name, art.widths))


def _save(im: Image.Image, path: Path, options: dict) -> None:
    """Write via a temporary file so a live site never serves half an image."""
    tmp = path.with_name(f".{path.name}.tmp")
    im.save(tmp, **options)
    os.replace(tmp, path)


def write_image(art: Art, out_dir: Path) -> None:
    natural = art.render()
    for width in art.widths:
        size = (width, scaled_height(art, width))
        im = natural if size == natural.size else natural.resize(size, Image.Resampling.LANCZOS)
        for extension, options in FORMATS.items():
            _save(im, out_dir / f"{art.name}-{width}.{extension}", options)
    tiny = natural.resize(
        (PLACEHOLDER_WIDTH, scaled_height(art, PLACEHOLDER_WIDTH)), Image.Resampling.LANCZOS
    )
    _save(tiny, out_dir / f"{art.name}-placeholder.webp", PLACEHOLDER)


def _write_by_index(index: int, out_dir: str) -> str:
    art = CATALOG[index]
    write_image(art, Path(out_dir))
    return art.name


def _pool_context():
    # fork is quickest (nothing to re-import) but only safe from a single-threaded process
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def generate(out_dir: Path, force: bool = False, workers: int | None = None) -> int:
    """Draw every catalog image into out_dir; return how many were drawn (0 when skipped)."""
    out_dir = Path(out_dir)
    if not force and is_current(out_dir):
        return 0
    out_dir.mkdir(parents=True, exist_ok=True)
    previous = read_manifest(out_dir) or {}
    if workers is None:
        workers = os.cpu_count() or 1
    workers = max(1, min(workers, len(CATALOG)))
    # the slowest pictures first, so the pool's workers finish together
    order = sorted(range(len(CATALOG)), key=lambda i: -CATALOG[i].width * CATALOG[i].height)
    if workers == 1:
        for index in order:
            _write_by_index(index, str(out_dir))
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
            list(pool.map(_write_by_index, order, [str(out_dir)] * len(order)))
    # remove files of images that left the catalog (only ones this generator wrote)
    wanted = {f for art in CATALOG for f in file_names(art.name, art.widths)}
    for name, entry in (previous.get("images") or {}).items():
        for f in file_names(name, entry.get("widths", [])):
            if f not in wanted:
                (out_dir / f).unlink(missing_ok=True)
    manifest = {
        "version": generator_version(),
        "images": {
            art.name: {"width": art.width, "height": art.height, "widths": list(art.widths)}
            for art in CATALOG
        },
    }
    tmp = out_dir / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, out_dir / MANIFEST)
    return len(CATALOG)


@click.command("artwork")
@click.option("--force", is_flag=True, help="Redraw even when the images are up to date.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes to draw with (default: one per CPU).",
)
@with_appcontext
def artwork_command(force: bool, workers: int | None) -> None:
    """Draw the site's original illustrations into static/img/art/."""
    out_dir = art_folder()
    started = time.perf_counter()
    count = generate(out_dir, force=force, workers=workers)
    if not count:
        version = generator_version()
        click.echo(f"Artwork in {out_dir} is up to date (version {version}); --force redraws it.")
        return
    files = [p for p in out_dir.iterdir() if p.suffix.lstrip(".") in FORMATS]
    size = sum(p.stat().st_size for p in files)
    click.echo(
        f"Drew {count} images into {out_dir}: {len(files)} files, {size / 1024:.0f} KB, "
        f"in {time.perf_counter() - started:.1f}s (version {generator_version()})."
    )
