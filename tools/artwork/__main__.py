"""``python -m tools.artwork [FOLDER] [NAME ...]``: paint the illustrations as WebP masters.

Writes FOLDER/NAME.webp (default content/images/) for every picture of the catalog, or only the
named ones, at its natural size. Lossless, so the variants ``flask images`` derives from a
master are exactly those of the drawing itself. Drawing is deterministic: re-running rewrites
the same pixels. Run it from the repository's root after changing the drawings, and commit the
masters it writes.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tools.artwork.catalog import CATALOG, Art

# method 6 is the slowest and smallest lossless WebP: it is paid once, by the maintainer
MASTER = {"format": "WEBP", "lossless": True, "quality": 100, "method": 6}


def write_master(art: Art, folder: Path) -> Path:
    """Paint one picture and write it via a temporary file, so no half-written master is read."""
    path = folder / f"{art.name}.webp"
    tmp = path.with_name(f".{path.name}.tmp")
    art.render().save(tmp, **MASTER)
    os.replace(tmp, path)
    return path


def _write_by_name(name: str, folder: str) -> str:
    art = next(art for art in CATALOG if art.name == name)
    return str(write_master(art, Path(folder)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.artwork", description=__doc__)
    parser.add_argument("folder", nargs="?", default="content/images", type=Path)
    parser.add_argument("names", nargs="*", help="only these pictures (default: all)")
    args = parser.parse_args(argv)
    known = [art.name for art in CATALOG]
    unknown = sorted(set(args.names) - set(known))
    if unknown:
        parser.error(f"not in tools/artwork/catalog/: {', '.join(unknown)}")
    names = args.names or known
    args.folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with ProcessPoolExecutor() as pool:
        paths = [Path(p) for p in pool.map(_write_by_name, names, [str(args.folder)] * len(names))]
    size = sum(p.stat().st_size for p in paths)
    print(
        f"Painted {len(paths)} masters into {args.folder}: {size / 1024:.0f} KB "
        f"in {time.perf_counter() - started:.0f}s."
    )


if __name__ == "__main__":
    main()
