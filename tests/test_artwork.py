"""The artwork generator: every catalog image at every width in WebP and JPEG, tiny placeholders,
a manifest, skipped re-runs, deterministic and non-blank pictures, and the ``artwork`` command."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from flask import Flask
from PIL import Image, ImageStat

from app.artwork import cli
from app.artwork.catalog import CATALOG

REQUIRED = {
    "hero-watch",
    "brand-rolex",
    "brand-patek-philippe",
    "brand-audemars-piguet",
    "brand-richard-mille",
    "brand-vacheron-constantin",
    "brand-fp-journe",
    "brand-cartier",
    "auth-inspection",
    *(f"purchase-{i}" for i in range(1, 7)),
    "article-where-to-sell-rolex-usa-2025-guide",
    "article-complete-guide-selling-rolex-usa",
    "article-luxury-watch-market-usa",
    "article-authenticate-vintage-omega-speedmaster",
    "article-patek-philippe-vs-audemars-piguet-investment",
    "article-watch-market-trends-usa-2025",
    "article-complete-guide-watch-condition-grading",
    "article-best-places-sell-patek-philippe-usa-2025",
    "og-default",
}


@pytest.fixture(scope="module")
def art_dir(tmp_path_factory):
    """Generate everything once for the module (the slow part)."""
    out = tmp_path_factory.mktemp("art")
    assert cli.generate(out) == len(CATALOG)
    return out


def test_catalog_has_every_required_image_once():
    names = [art.name for art in CATALOG]
    assert len(names) == len(set(names))
    assert set(names) == REQUIRED


def test_every_image_exists_at_every_width_in_every_format(art_dir):
    for art in CATALOG:
        for width in art.widths:
            height = round(width * art.height / art.width)
            for ext, fmt in (("avif", "AVIF"), ("webp", "WEBP"), ("jpg", "JPEG")):
                with Image.open(art_dir / f"{art.name}-{width}.{ext}") as im:
                    assert (im.format, im.size) == (fmt, (width, height)), (
                        f"{art.name}-{width}.{ext}"
                    )


def test_avif_is_smaller_than_webp_at_every_width(art_dir):
    for art in CATALOG:
        for width in art.widths:
            avif, webp = (art_dir / f"{art.name}-{width}.{ext}" for ext in ("avif", "webp"))
            assert avif.stat().st_size < webp.stat().st_size, avif.name


def test_jpegs_are_progressive(art_dir):
    with Image.open(art_dir / "hero-watch-1200.jpg") as im:
        assert im.info.get("progressive") or im.info.get("progression")


def test_placeholders_are_tiny_webps(art_dir):
    for art in CATALOG:
        path = art_dir / f"{art.name}-placeholder.webp"
        assert path.stat().st_size < 1024, path.name
        with Image.open(path) as im:
            assert im.format == "WEBP"
            assert im.size == (24, round(24 * art.height / art.width))


def test_full_width_webps_stay_light(art_dir):
    for art in CATALOG:
        path = art_dir / f"{art.name}-{max(art.widths)}.webp"
        assert path.stat().st_size < 60 * 1024, path.name


def test_manifest_lists_every_image(art_dir):
    manifest = json.loads((art_dir / "manifest.json").read_text())
    assert manifest["version"] == cli.generator_version()
    assert list(manifest["images"]) == [art.name for art in CATALOG]
    for art in CATALOG:
        assert manifest["images"][art.name] == {
            "width": art.width,
            "height": art.height,
            "widths": list(art.widths),
        }


def test_nothing_else_is_written(art_dir):
    expected = {"manifest.json"} | {
        f for art in CATALOG for f in cli.file_names(art.name, art.widths)
    }
    assert {p.name for p in art_dir.iterdir()} == expected


def test_second_run_is_skipped(art_dir):
    before = {p.name: p.stat().st_mtime_ns for p in art_dir.iterdir()}
    assert cli.generate(art_dir) == 0
    assert {p.name: p.stat().st_mtime_ns for p in art_dir.iterdir()} == before


def test_stale_or_incomplete_output_is_not_current(art_dir, tmp_path):
    copy = tmp_path / "art"
    shutil.copytree(art_dir, copy)
    assert cli.is_current(copy)
    (copy / "og-default-1200.jpg").unlink()
    assert not cli.is_current(copy)
    shutil.copy(art_dir / "og-default-1200.jpg", copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["version"] = "something-older"
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert not cli.is_current(copy)


def test_images_are_not_blank(art_dir):
    for art in CATALOG:
        with Image.open(art_dir / f"{art.name}-{min(art.widths)}.jpg") as im:
            stat = ImageStat.Stat(im.convert("L"))
            assert stat.stddev[0] > 20, art.name
            assert len(im.convert("RGB").getcolors(1 << 16) or range(1 << 16)) > 500, art.name


def test_drawing_is_deterministic(art_dir):
    """A fresh drawing, encoded the same way, is byte-for-byte what the generator wrote."""
    art = next(a for a in CATALOG if a.name == "og-default")
    buffer = io.BytesIO()
    art.render().save(buffer, **cli.WEBP)
    assert buffer.getvalue() == (art_dir / "og-default-1200.webp").read_bytes()


@pytest.fixture
def static_app(tmp_path):
    return Flask(__name__, static_folder=str(tmp_path / "static"))


def test_command_skips_up_to_date_artwork(static_app, art_dir):
    shutil.copytree(art_dir, cli.Path(static_app.static_folder) / "img" / "art")
    result = static_app.test_cli_runner().invoke(cli.artwork_command)
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output


def test_command_force_redraws_into_static_img_art(static_app, monkeypatch):
    calls = []

    def fake_generate(out_dir, force=False, workers=None):
        calls.append((out_dir, force, workers))
        out_dir.mkdir(parents=True)
        (out_dir / "x-600.webp").write_bytes(b"RIFF")
        return 3

    monkeypatch.setattr(cli, "generate", fake_generate)
    result = static_app.test_cli_runner().invoke(cli.artwork_command, ["--force", "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert calls == [(cli.Path(static_app.static_folder) / "img" / "art", True, 2)]
    assert "Drew 3 images" in result.output
