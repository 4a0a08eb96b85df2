"""Precompressed variants of the built assets, made once at build time for WhiteNoise and nginx.

WhiteNoise's own compressor writes `.br` (brotli 11) and `.gz` (zlib level 9). Browsers take
brotli, but gzip is what many proxies, crawlers and older clients get, and the JS budget
(docs/performance.md, "Targets") is counted in gzip bytes: zopfli writes gzip streams any client
inflates, about 3 % smaller than zlib's best (React's chunk: 68.4 kB to 66.2 kB), at a cost paid
once per build.

    .venv/bin/python -m app.rendering.compress_assets app/static/build
"""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ThreadPoolExecutor

import zopfli.gzip
from whitenoise.compress import Compressor

ZOPFLI_ITERATIONS = 15  # more iterations gained under 0.1 % on the React chunk


class ZopfliCompressor(Compressor):
    """WhiteNoise's compressor (same file choice, brotli and size checks), zopfli for gzip."""

    @staticmethod
    def compress_gzip(data: bytes) -> bytes:
        """Gzip with zopfli: a standard gzip stream, smaller than zlib's best."""
        return zopfli.gzip.compress(data, numiterations=ZOPFLI_ITERATIONS)


def files_to_compress(root: str, compressor: Compressor) -> list[str]:
    """Every file under root that WhiteNoise's compressor would compress."""
    return [
        os.path.join(directory, name)
        for directory, _dirs, names in os.walk(root)
        for name in names
        if compressor.should_compress(name)
    ]


def compress_tree(root: str) -> None:
    """Write `.br` and `.gz` beside every compressible file under root."""
    compressor = ZopfliCompressor(quiet=True)
    with ThreadPoolExecutor() as pool:
        list(pool.map(compressor.compress, files_to_compress(root, compressor)))  # raise errors


def main(argv: list[str] | None = None) -> int:
    """Command line: compress the built assets in the folder given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", help="the folder of built assets")
    args = parser.parse_args(argv)
    compress_tree(args.root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
