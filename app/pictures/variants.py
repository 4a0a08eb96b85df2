"""The files pages serve, derived from the picture masters in content/images/ (`flask images`,
app/pictures/cli.py).

content/images/images.toml lists the pictures. For each NAME it reads the master NAME.webp,
.png, .jpg or .jpeg, crops it to the shape of its `size` around its `focus`, scales it to that
size and writes into app/static/img/art/, for each of its `widths` w, ``NAME-{w}.avif``,
``NAME-{w}.webp`` and ``NAME-{w}.jpg`` (height round(w * height / width)), plus a 24-px-wide
``NAME-placeholder.webp`` shown blurred while the real image loads. Last it writes
``manifest.json``: {"images": {NAME: {"width", "height", "widths", "source"}}}.

`source` is a hash of the master's bytes, its settings and the encoders' settings: a picture
whose hash is unchanged and whose files all exist is skipped, so replacing one photo re-derives
that photo only, and editing code re-derives nothing.

Draft pictures (``flask images --draft``, what ``bin/run`` asks ``bin/setup`` for): the same
files, names, widths and sizes, with the AVIFs encoded at DRAFT_AVIF_SPEED instead of
production's speed 2, for a development server that must answer its first page within a minute
of a fresh clone. Measured on this 2-core machine, one 1200x800 hero's four AVIF
widths take 11.8 s of CPU at speed 2 and 0.33 s at speed 8, while its WebPs take 0.16 s and its
JPEGs 0.03 s; AVIF at speed 2 is nearly all of the two to three minutes a production run takes,
so only the AVIF speed changes. WebP and JPEG files, and placeholders, are production's bytes.
Speed 8 rather than 10: at 10, 32 of the 81 AVIFs grow past their WebPs, so drafts would no
longer show what production serves (the AVIF the smaller); at 8 none does, each 9-30 % larger
than production's (median 18 %), and all 24 pictures take about 13 s instead of 6 s at 10.

A draft picture's manifest entry says ``"draft": true`` and its `source` hashes the draft
settings, so it never passes for a production one: ``flask images`` without --draft (bin/setup,
so bin/test and a deployment) re-derives every draft picture, and drafts keep production files
that are already there rather than encode worse ones. Production entries are as they were.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import threading
import tomllib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click
from PIL import Image, ImageOps, UnidentifiedImageError

SETTINGS = "images.toml"
MASTER_EXTENSIONS = (".webp", ".png", ".jpg", ".jpeg")
MANIFEST = "manifest.json"
PLACEHOLDER_WIDTH = 24
# AVIF at quality 62 matches the WebP's fidelity (PSNR against the lossless drawing) in 20-40 %
# fewer bytes; browsers without AVIF take the WebP, and the oldest the JPEG. Encoder speed 2
# (of 0-10, default 6) spends a few seconds more per file for 8-12 % fewer bytes at the same
# quality or a little better: a hero then fits the first round trip of a phone's connection.
AVIF = {"format": "AVIF", "quality": 62, "speed": 2}
WEBP = {"format": "WEBP", "quality": 80, "method": 4}
JPEG = {"format": "JPEG", "quality": 82, "progressive": True, "optimize": True}
PLACEHOLDER = {"format": "WEBP", "quality": 40, "method": 4}
FORMATS = {"avif": AVIF, "webp": WEBP, "jpg": JPEG}
# Draft pictures only (see the module's docstring): libavif speed 8, some 35 times faster than 2.
DRAFT_AVIF_SPEED = 8


class PictureError(click.ClickException):
    """A master or its settings cannot give the picture the pages need; says which and why."""


@dataclass(frozen=True)
class Picture:
    """One picture of images.toml: its master file and what the pages need of it."""

    name: str
    master: Path
    width: int
    height: int
    widths: tuple[int, ...]
    focus: tuple[float, float] = (0.5, 0.5)
    avif_quality: int = AVIF["quality"]

    def scaled_height(self, width: int) -> int:
        """The picture's height at `width`, keeping its shape."""
        return round(width * self.height / self.width)

    def file_names(self) -> list[str]:
        """The files `flask images` writes for this picture."""
        return file_names(self.name, self.widths)

    def formats(self, draft: bool = False) -> dict[str, dict]:
        """Each file extension with its encoder settings, this picture's AVIF quality in (and
        the quicker AVIF speed of draft pictures)."""
        avif = AVIF | {"quality": self.avif_quality}
        if draft:
            avif |= {"speed": DRAFT_AVIF_SPEED}
        return FORMATS | {"avif": avif}

    def source_hash(self, draft: bool = False) -> str:
        """What the files are made from: the master's bytes, this picture's settings and the
        encoders' settings (not the code, so a deployment re-derives only what changed)."""
        digest = hashlib.sha256(self.master.read_bytes())
        formats = self.formats(draft)
        settings = [self.width, self.height, self.widths, self.focus, formats, PLACEHOLDER]
        digest.update(json.dumps([settings, PLACEHOLDER_WIDTH]).encode())
        return digest.hexdigest()[:16]


def file_names(name: str, widths) -> list[str]:
    """Every file written for a picture: each width in each format, and its placeholder."""
    names = [f"{name}-{w}.{ext}" for w in widths for ext in FORMATS]
    return [*names, f"{name}-placeholder.webp"]


def master_files(folder: Path) -> list[Path]:
    """The image files in folder, whatever the case of their extension (cameras write .JPG)."""
    return sorted(path for path in folder.iterdir() if path.suffix.lower() in MASTER_EXTENSIONS)


def find_master(masters: list[Path], folder: Path, name: str) -> Path:
    """The one master file named `name`; a PictureError when there is none or more than one."""
    found = [path for path in masters if path.stem == name]
    if not found:
        raise PictureError(f"No master for {name!r}: add {folder / name}.webp, .png or .jpg.")
    if len(found) > 1:
        names = ", ".join(path.name for path in found)
        raise PictureError(f"Two masters for {name!r} ({names}): keep only one of them.")
    return found[0]


def read_pictures(folder: Path) -> list[Picture]:
    """Every picture of folder/images.toml with its master, in the file's order."""
    path = folder / SETTINGS
    try:
        settings = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise PictureError(f"Cannot read {path}: {error}") from None
    masters = master_files(folder)
    return [_picture(masters, folder, name, entry) for name, entry in settings.items()]


def _picture(masters: list[Path], folder: Path, name: str, entry: dict) -> Picture:
    try:
        width, height = (int(n) for n in entry["size"])
        widths = tuple(sorted(int(w) for w in entry["widths"]))
        focus_x, focus_y = (float(f) for f in entry.get("focus", (0.5, 0.5)))
        avif_quality = int(entry.get("avif_quality", AVIF["quality"]))
    except (KeyError, TypeError, ValueError):
        raise PictureError(
            f"[{name}] in {folder / SETTINGS} needs size = [width, height], widths = [...] "
            "and optionally focus = [x, y] and avif_quality = n."
        ) from None
    if not widths or min(width, height, *widths) <= 0 or widths[-1] > width:
        raise PictureError(f"[{name}]: widths must be positive and at most size's {width}.")
    if not (0 <= focus_x <= 1 and 0 <= focus_y <= 1):
        raise PictureError(f"[{name}]: focus is two fractions from 0 to 1, as [0.5, 0.3].")
    if not 1 <= avif_quality <= 100:
        raise PictureError(f"[{name}]: avif_quality is a whole number from 1 to 100.")
    master = find_master(masters, folder, name)
    return Picture(name, master, width, height, widths, (focus_x, focus_y), avif_quality)


def unlisted_masters(folder: Path, pictures: list[Picture]) -> list[Path]:
    """Image files with no entry in images.toml: no page shows them."""
    listed = {picture.master for picture in pictures}
    return [path for path in master_files(folder) if path not in listed]


def crop_box(size: tuple[int, int], shape: tuple[int, int], focus) -> tuple[int, int, int, int]:
    """The largest box of the given shape inside size, centred on focus as far as it fits."""
    width, height = size
    if width * shape[1] > height * shape[0]:
        box_w, box_h = round(height * shape[0] / shape[1]), height
    else:
        box_w, box_h = width, round(width * shape[1] / shape[0])
    left = min(max(round(focus[0] * width - box_w / 2), 0), width - box_w)
    top = min(max(round(focus[1] * height - box_h / 2), 0), height - box_h)
    return left, top, left + box_w, top + box_h


def natural_image(picture: Picture) -> Image.Image:
    """The master upright, in RGB, cropped to the picture's shape and scaled to its size."""
    try:
        with Image.open(picture.master) as opened:
            im = ImageOps.exif_transpose(opened)
            im.load()
    except (OSError, UnidentifiedImageError) as error:
        raise PictureError(f"{picture.master} is not a readable image: {error}") from None
    if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
        # transparent parts show the page's white, as they would in a browser
        im = Image.alpha_composite(Image.new("RGBA", im.size, "white"), im.convert("RGBA"))
    im = im.convert("RGB")
    size = (picture.width, picture.height)
    box = crop_box(im.size, size, picture.focus)
    if box[2] - box[0] < size[0] or box[3] - box[1] < size[1]:
        raise PictureError(
            f"{picture.master} is {im.width}x{im.height}: cropped to the shape of "
            f"{size[0]}x{size[1]} it is {box[2] - box[0]}x{box[3] - box[1]}, smaller than the "
            f"{size[0]}x{size[1]} the pages show. Use a larger image."
        )
    if box != (0, 0, *im.size):
        im = im.crop(box)
    return im if im.size == size else im.resize(size, Image.Resampling.LANCZOS)


def _save(im: Image.Image, path: Path, options: dict) -> None:
    """Write via a temporary file so a live site never serves half an image."""
    tmp = path.with_name(f".{path.name}.tmp")
    im.save(tmp, **options)
    os.replace(tmp, path)


def write_variants(picture: Picture, out_dir: Path, draft: bool = False) -> str:
    """Write the picture at each width in each format, and its placeholder; return its name."""
    natural = natural_image(picture)
    for width in picture.widths:
        size = (width, picture.scaled_height(width))
        im = natural if size == natural.size else natural.resize(size, Image.Resampling.LANCZOS)
        for extension, options in picture.formats(draft).items():
            _save(im, out_dir / f"{picture.name}-{width}.{extension}", options)
    tiny = natural.resize(
        (PLACEHOLDER_WIDTH, picture.scaled_height(PLACEHOLDER_WIDTH)), Image.Resampling.LANCZOS
    )
    _save(tiny, out_dir / f"{picture.name}-placeholder.webp", PLACEHOLDER)
    return picture.name


def read_manifest(out_dir: Path) -> dict:
    """The manifest last written into out_dir, or {} when it is missing or unreadable."""
    try:
        return json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def is_current(picture: Picture, source: str, manifest: dict, out_dir: Path) -> bool:
    """True when the manifest says these files came from this source and they all exist."""
    record = (manifest.get("images") or {}).get(picture.name) or {}
    if record.get("source") != source:
        return False
    return all((out_dir / name).is_file() for name in picture.file_names())


def kept_record(
    picture: Picture, manifest: dict, out_dir: Path, draft: bool = False
) -> dict | None:
    """The manifest entry of a picture whose files may stay, or None when they must be written.

    A production run keeps production files only: an entry marked draft, or whose source is not
    this picture's production hash, is written again. A draft run also keeps current production
    files, which are better than the drafts it would encode instead.
    """
    wanted = [(picture.source_hash(), False)]
    if draft:
        wanted.append((picture.source_hash(draft=True), True))
    record = (manifest.get("images") or {}).get(picture.name) or {}
    for source, is_draft in wanted:
        if bool(record.get("draft")) == is_draft and is_current(picture, source, manifest, out_dir):
            return manifest_record(picture, source, is_draft)
    return None


def manifest_record(picture: Picture, source: str, draft: bool = False) -> dict:
    """A picture's manifest entry; draft pictures' say so."""
    record = {
        "width": picture.width,
        "height": picture.height,
        "widths": list(picture.widths),
        "source": source,
    }
    return (record | {"draft": True}) if draft else record


def _pool_context():
    # fork is quickest (nothing to re-import) but only safe from a single-threaded process
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _write_all(pictures: list[Picture], out_dir: Path, workers: int, draft: bool) -> None:
    # the biggest pictures first, so the pool's workers finish together
    pictures = sorted(pictures, key=lambda picture: -picture.width * picture.height)
    workers = max(1, min(workers, len(pictures)))
    if workers == 1:
        for picture in pictures:
            write_variants(picture, out_dir, draft)
        return
    count = len(pictures)
    with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
        list(pool.map(write_variants, pictures, [out_dir] * count, [draft] * count))


def derive(
    pictures: list[Picture],
    out_dir: Path,
    force: bool = False,
    workers: int | None = None,
    draft: bool = False,
) -> list[str]:
    """Write the files of every picture whose source changed (all with force), then the
    manifest; return the names written. draft: quicker AVIFs for development (see above)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    previous = read_manifest(out_dir)
    records = {
        picture.name: None if force else kept_record(picture, previous, out_dir, draft)
        for picture in pictures
    }
    stale = [picture for picture in pictures if records[picture.name] is None]
    if stale:
        _write_all(stale, out_dir, workers or os.cpu_count() or 1, draft)
    for picture in stale:
        records[picture.name] = manifest_record(picture, picture.source_hash(draft), draft)
    manifest = {"images": records}
    if manifest != previous or stale:
        _remove_dropped_files(previous, pictures, out_dir)
        tmp = out_dir / f".{MANIFEST}.tmp"
        tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, out_dir / MANIFEST)
    return [picture.name for picture in stale]


def _remove_dropped_files(previous: dict, pictures: list[Picture], out_dir: Path) -> None:
    """Files of pictures (or widths) no longer listed; only ones this command wrote."""
    wanted = {name for picture in pictures for name in picture.file_names()}
    for name, record in (previous.get("images") or {}).items():
        for file_name in file_names(name, record.get("widths", [])):
            if file_name not in wanted:
                (out_dir / file_name).unlink(missing_ok=True)
