"""`flask images`: every picture of content/images/ served at every width in AVIF, WebP and JPEG
with a tiny placeholder and a manifest; pictures whose master is unchanged are skipped; a photo
dropped in place of a master is cropped around its focus and served instead; bad masters are
refused with a message naming the file. `--draft` (bin/run) writes the same files with quicker
AVIFs, marked as drafts, which a run without it derives again for production."""

from __future__ import annotations

import base64
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageOps, ImageStat

from app.pictures.images import DraftPictures, refuse_draft_pictures
from app.pictures.variants import PLACEHOLDER, derive, file_names, read_manifest, read_pictures
from tests.helpers import PRODUCTION, ROOT

MASTERS = ROOT / "content" / "images"
SITE_IMAGES = ROOT / "app" / "static" / "img" / "art"


@pytest.fixture(scope="module")
def pictures():
    return read_pictures(MASTERS)


@pytest.fixture(scope="module")
def served(pictures, tmp_path_factory):
    """The command's output for the committed masters: a copy of the site's own images (made by
    bin/setup), brought up to date by the command, so only what is stale is encoded here."""
    out = tmp_path_factory.mktemp("served") / "art"
    if SITE_IMAGES.is_dir():
        shutil.copytree(SITE_IMAGES, out)
    derive(pictures, out)
    return out


def mtimes(folder: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in folder.iterdir()}


def test_every_picture_is_served_at_every_width_in_every_format(pictures, served):
    for picture in pictures:
        for width in picture.widths:
            height = round(width * picture.height / picture.width)
            for ext, fmt in (("avif", "AVIF"), ("webp", "WEBP"), ("jpg", "JPEG")):
                with Image.open(served / f"{picture.name}-{width}.{ext}") as im:
                    assert (im.format, im.size) == (fmt, (width, height)), im.filename


def test_avif_is_smaller_than_webp_at_every_width(pictures, served):
    for picture in pictures:
        for width in picture.widths:
            avif, webp = (served / f"{picture.name}-{width}.{ext}" for ext in ("avif", "webp"))
            assert avif.stat().st_size < webp.stat().st_size, avif.name


def test_jpegs_are_progressive(served):
    with Image.open(served / "hero-watch-1200.jpg") as im:
        assert im.info.get("progressive") or im.info.get("progression")


def test_placeholders_are_tiny_webps(pictures, served):
    for picture in pictures:
        path = served / f"{picture.name}-placeholder.webp"
        assert path.stat().st_size < 1024, path.name
        with Image.open(path) as im:
            assert im.format == "WEBP"
            assert im.size == (24, round(24 * picture.height / picture.width))


def test_full_width_webps_stay_light(pictures, served):
    for picture in pictures:
        path = served / f"{picture.name}-{max(picture.widths)}.webp"
        assert path.stat().st_size < 60 * 1024, path.name


def test_served_images_are_not_blank(pictures, served):
    for picture in pictures:
        with Image.open(served / f"{picture.name}-{min(picture.widths)}.jpg") as im:
            stat = ImageStat.Stat(im.convert("L"))
            assert stat.stddev[0] > 20, picture.name
            colors = im.convert("RGB").getcolors(1 << 16) or range(1 << 16)
            assert len(colors) > 500, picture.name


def test_manifest_lists_every_picture_with_the_hash_of_its_source(pictures, served):
    manifest = json.loads((served / "manifest.json").read_text())
    settings = tomllib.loads((MASTERS / "images.toml").read_text())
    assert list(manifest["images"]) == list(settings)
    for picture in pictures:
        assert manifest["images"][picture.name] == {
            "width": picture.width,
            "height": picture.height,
            "widths": list(picture.widths),
            "source": picture.source_hash(),
        }


def test_nothing_else_is_written(pictures, served):
    expected = {"manifest.json"} | {f for picture in pictures for f in picture.file_names()}
    assert {path.name for path in served.iterdir()} == expected


def test_a_second_run_writes_nothing(pictures, served):
    before = mtimes(served)
    assert derive(pictures, served) == []
    assert mtimes(served) == before


def test_a_missing_file_is_written_again(pictures, served, tmp_path):
    copy = tmp_path / "art"
    shutil.copytree(served, copy)
    (copy / "og-default-1200.jpg").unlink()
    assert derive(pictures, copy) == ["og-default"]
    assert (copy / "og-default-1200.jpg").read_bytes() == (
        served / "og-default-1200.jpg"
    ).read_bytes()


# --- replacing a picture ----------------------------------------------------------------------


def photograph(size: tuple[int, int]) -> Image.Image:
    """A real, detailed image unlike any drawing: a colourised Mandelbrot set."""
    fractal = Image.effect_mandelbrot(size, (-2.2, -1.2, 1.0, 1.2), 60)
    return ImageOps.colorize(fractal, black=(10, 30, 60), white=(250, 200, 90), mid=(200, 60, 40))


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Average difference per channel, 0-255: small for the same picture encoded twice."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


@pytest.fixture
def site(make_app, served, tmp_path):
    """An app whose content/images/ and served images are copies this test may change."""
    content = tmp_path / "content"
    shutil.copytree(MASTERS, content / "images")
    app = make_app(CONTENT_DIR=str(content))
    app.static_folder = str(tmp_path / "static")
    shutil.copytree(served, Path(app.static_folder) / "img" / "art")
    return app


def placeholder_of(html: str, name: str) -> bytes:
    """The inline placeholder the page shows for a picture (its data URI, decoded)."""
    source = f"/static/img/art/{name}-"
    start = html.index(source)
    uri = html.rindex("data:image/webp;base64,", 0, start) + len("data:image/webp;base64,")
    return base64.b64decode(html[uri : html.index('"', uri)])


def test_a_photo_dropped_in_place_of_a_master_is_served_instead(site):
    """What a business does: replace purchase-1's master with its own photo, run the command."""
    masters = Path(site.config["CONTENT_DIR"]) / "images"
    served = Path(site.static_folder) / "img" / "art"
    home = site.test_client().get("/").get_data(as_text=True)
    before = {path.name: path.read_bytes() for path in served.iterdir()}
    times = mtimes(served)

    (masters / "purchase-1.webp").unlink()
    photo = photograph((1600, 1200))  # a landscape photo for a square slot
    photo.save(masters / "purchase-1.JPG", quality=92)  # as a camera names it
    result = site.test_cli_runner().invoke(args=["images"])

    assert result.exit_code == 0, result.output
    assert "Derived 1 pictures" in result.output and "purchase-1." in result.output
    changed = {name for name in before if (served / name).read_bytes() != before[name]}
    assert changed == {*file_names("purchase-1", (400, 800)), "manifest.json"}
    untouched = set(before) - changed
    assert {name: times[name] for name in untouched} == {n: mtimes(served)[n] for n in untouched}
    with Image.open(served / "purchase-1-800.webp") as served_photo:
        assert served_photo.size == (800, 800)
        # the middle of the photo (no focus given), scaled down: what a reader sees
        middle = photo.crop((200, 0, 1400, 1200)).resize((800, 800), Image.Resampling.LANCZOS)
        assert mean_difference(served_photo, middle) < 4
    again = site.test_client().get("/").get_data(as_text=True)
    assert placeholder_of(again, "purchase-1") != placeholder_of(home, "purchase-1")
    assert (
        placeholder_of(again, "purchase-1") == (served / "purchase-1-placeholder.webp").read_bytes()
    )
    assert placeholder_of(again, "purchase-2") == placeholder_of(home, "purchase-2")


def write_folder(folder: Path, settings: str, masters: dict[str, Image.Image]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "images.toml").write_text(settings)
    for file_name, im in masters.items():
        im.save(folder / file_name)
    return folder


def two_colours(size, split: int) -> Image.Image:
    """Blue left of `split`, red from it on."""
    im = Image.new("RGB", size, (20, 40, 200))
    im.paste((220, 30, 30), (split, 0, *size))
    return im


def test_focus_keeps_its_part_of_a_wider_photo(tmp_path):
    settings = "[banner]\nsize = [200, 100]\nwidths = [100, 200]\nfocus = [1.0, 0.5]\n"
    folder = write_folder(
        tmp_path / "images", settings, {"banner.png": two_colours((600, 100), 400)}
    )
    assert derive(read_pictures(folder), tmp_path / "out", workers=1) == ["banner"]
    with Image.open(tmp_path / "out" / "banner-200.webp") as im:
        assert im.size == (200, 100)
        red, green, blue = ImageStat.Stat(im.convert("RGB")).mean
        assert red > 200 and blue < 50  # the right-hand third: all red, none of the blue


def test_a_lower_avif_quality_makes_that_pictures_avif_smaller_and_nothing_else(tmp_path):
    """A busy drawing may take a lower AVIF quality (auth-inspection does): its AVIF files shrink,
    its WebP and JPEG fallbacks and every other picture are encoded as before."""
    settings = "[plain]\nsize = [400, 300]\nwidths = [400]\n\n[busy]\nsize = [400, 300]\n"
    settings += "widths = [400]\navif_quality = 40\n"
    photo = photograph((400, 300))
    folder = write_folder(tmp_path / "images", settings, {"plain.png": photo, "busy.png": photo})
    derive(read_pictures(folder), tmp_path / "out", workers=1)
    size = {path.name: path.stat().st_size for path in (tmp_path / "out").iterdir()}
    assert size["busy-400.avif"] < 0.8 * size["plain-400.avif"]
    assert size["busy-400.webp"] == size["plain-400.webp"]
    assert size["busy-400.jpg"] == size["plain-400.jpg"]


def test_an_avif_quality_out_of_range_is_refused(make_app, tmp_path):
    write_folder(
        tmp_path / "images", SMALL + "avif_quality = 0\n", {"hero.png": photograph((240, 160))}
    )
    result, _ = run_images(make_app, tmp_path)
    assert result.exit_code == 1
    assert "[hero]: avif_quality is a whole number from 1 to 100." in result.output


def test_a_transparent_master_is_served_on_white(tmp_path):
    logo = Image.new("RGBA", (200, 100), (0, 0, 0, 0))
    logo.paste((20, 40, 200, 255), (50, 25, 150, 75))
    settings = "[logo]\nsize = [200, 100]\nwidths = [200]\n"
    folder = write_folder(tmp_path / "images", settings, {"logo.png": logo})
    derive(read_pictures(folder), tmp_path / "out", workers=1)
    with Image.open(tmp_path / "out" / "logo-200.jpg") as im:
        assert im.getpixel((5, 5)) > (245, 245, 245)
        assert im.getpixel((100, 50))[2] > 180


# Small pictures: these tests are about the command, not the encoders, which are slow at size.
SMALL = "[hero]\nsize = [240, 160]\nwidths = [120, 240]\n"


def run_images(make_app, tmp_path, *args):
    app = make_app(CONTENT_DIR=str(tmp_path))
    app.static_folder = str(tmp_path / "static")
    return app.test_cli_runner().invoke(args=["images", *args]), tmp_path / "static" / "img" / "art"


def test_a_photo_too_small_for_the_page_is_refused_naming_it(make_app, tmp_path):
    write_folder(tmp_path / "images", SMALL, {"hero.jpg": photograph((300, 140))})
    result, out = run_images(make_app, tmp_path)
    assert result.exit_code == 1
    assert "hero.jpg is 300x140" in result.output
    assert "smaller than the 240x160 the pages show. Use a larger image." in result.output
    assert not (out / "manifest.json").exists()


def test_two_masters_for_one_picture_are_refused(make_app, tmp_path):
    masters = {"hero.webp": photograph((240, 160)), "hero.jpg": photograph((240, 160))}
    write_folder(tmp_path / "images", SMALL, masters)
    result, _ = run_images(make_app, tmp_path)
    assert result.exit_code == 1
    assert "Two masters for 'hero' (hero.jpg, hero.webp): keep only one of them." in result.output


def test_a_missing_master_is_named(make_app, tmp_path):
    write_folder(tmp_path / "images", SMALL, {})
    result, _ = run_images(make_app, tmp_path)
    assert result.exit_code == 1
    assert f"No master for 'hero': add {tmp_path / 'images' / 'hero'}.webp" in result.output


def test_bad_settings_are_explained(make_app, tmp_path):
    write_folder(
        tmp_path / "images", "[hero]\nsize = [240]\n", {"hero.png": photograph((240, 160))}
    )
    result, _ = run_images(make_app, tmp_path)
    assert result.exit_code == 1
    assert "[hero] in" in result.output and "needs size = [width, height]" in result.output


def test_a_master_no_page_lists_is_pointed_out(make_app, tmp_path):
    masters = {"hero.png": photograph((240, 160)), "team.jpg": photograph((300, 200))}
    write_folder(tmp_path / "images", SMALL, masters)
    result, _ = run_images(make_app, tmp_path)
    assert result.exit_code == 0, result.output
    assert "team.jpg has no entry in" in result.output


def test_force_rewrites_current_pictures(make_app, tmp_path):
    settings = SMALL + "[card]\nsize = [160, 84]\nwidths = [160]\n"
    masters = {"hero.png": photograph((480, 320)), "card.jpg": photograph((320, 168))}
    write_folder(tmp_path / "images", settings, masters)
    first, out = run_images(make_app, tmp_path)
    assert "Derived 2 pictures" in first.output
    before = mtimes(out)
    skipped, _ = run_images(make_app, tmp_path)
    assert "up to date" in skipped.output and mtimes(out) == before
    forced, _ = run_images(make_app, tmp_path, "--force", "--workers", "2")
    assert forced.exit_code == 0, forced.output
    assert "Derived 2 pictures" in forced.output
    assert all(mtimes(out)[name] > before[name] for name in before)


# --- draft pictures (bin/run) -----------------------------------------------------------------

# Production's encoder settings and a source hash made with them, as they were before drafts
# existed: production pictures, and the hashes in deployed manifests, must not change.
PRODUCTION_FORMATS = {
    "avif": {"format": "AVIF", "quality": 50, "speed": 2},  # quality: the picture's avif_quality
    "webp": {"format": "WEBP", "quality": 80, "method": 4},
    "jpg": {"format": "JPEG", "quality": 82, "progressive": True, "optimize": True},
}
PINNED = "[card]\nsize = [400, 300]\nwidths = [200, 400]\nfocus = [0.5, 0.25]\navif_quality = 50\n"
PINNED_SOURCE = "54de34fe3effc25a"  # sha256 of the master's bytes and every setting, 16 hex digits
DRAFTS = (
    "[card]\nsize = [240, 160]\nwidths = [120, 240]\n[square]\nsize = [160, 160]\nwidths = [160]\n"
)


def test_the_default_derivation_keeps_productions_settings_and_hash(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "images.toml").write_text(PINNED)
    (tmp_path / "images" / "card.png").write_bytes(b"not even an image")  # only its bytes count
    (card,) = read_pictures(tmp_path / "images")
    assert card.formats() == PRODUCTION_FORMATS
    assert PLACEHOLDER == {"format": "WEBP", "quality": 40, "method": 4}
    assert card.source_hash() == PINNED_SOURCE
    assert card.source_hash(draft=True) != PINNED_SOURCE
    assert card.formats(draft=True)["avif"]["speed"] > 2  # the only setting drafts change
    assert {ext: f for ext, f in card.formats(draft=True).items() if ext != "avif"} == {
        ext: f for ext, f in PRODUCTION_FORMATS.items() if ext != "avif"
    }


@pytest.fixture
def draft_masters(tmp_path):
    masters = {"card.png": photograph((300, 160)), "square.jpg": photograph((200, 200))}
    return write_folder(tmp_path / "images", DRAFTS, masters)


def test_a_draft_derivation_writes_every_file_its_manifest_lists(draft_masters, tmp_path):
    pictures = read_pictures(draft_masters)
    out = tmp_path / "out"
    assert derive(pictures, out, workers=1, draft=True) == ["card", "square"]
    manifest = read_manifest(out)
    assert manifest == {
        "images": {
            picture.name: {
                "width": picture.width,
                "height": picture.height,
                "widths": list(picture.widths),
                "source": picture.source_hash(draft=True),
                "draft": True,
            }
            for picture in pictures
        }
    }
    listed = {"manifest.json"} | {
        name
        for picture, record in manifest["images"].items()
        for name in file_names(picture, record["widths"])
    }
    assert {path.name for path in out.iterdir()} == listed
    for picture, record in manifest["images"].items():
        for width in record["widths"]:
            size = (width, round(width * record["height"] / record["width"]))
            for ext, fmt in (("avif", "AVIF"), ("webp", "WEBP"), ("jpg", "JPEG")):
                with Image.open(out / f"{picture}-{width}.{ext}") as im:
                    assert (im.format, im.size) == (fmt, size), im.filename
    assert derive(pictures, out, workers=1, draft=True) == []  # drafts are current for drafts


def test_a_production_run_after_a_draft_run_derives_every_picture_again(draft_masters, tmp_path):
    pictures = read_pictures(draft_masters)
    drafts, production = tmp_path / "drafts", tmp_path / "production"
    derive(pictures, production, workers=1)
    derive(pictures, drafts, workers=1, draft=True)
    draft_files = {path.name: path.read_bytes() for path in drafts.iterdir()}

    assert derive(pictures, drafts, workers=1) == ["card", "square"]

    assert read_manifest(drafts) == read_manifest(production)  # no draft left in it
    for path in production.iterdir():
        assert (drafts / path.name).read_bytes() == path.read_bytes(), path.name
    changed = {name for name, data in draft_files.items() if data != (drafts / name).read_bytes()}
    assert {name for name in changed if name != "manifest.json"} == {
        f"{picture.name}-{width}.avif" for picture in pictures for width in picture.widths
    }  # WebP, JPEG and placeholders of drafts are production's bytes already


def test_a_draft_run_keeps_production_pictures_and_a_production_run_never_keeps_drafts(
    make_app, draft_masters, tmp_path
):
    app = make_app(CONTENT_DIR=str(tmp_path))
    app.static_folder = str(tmp_path / "static")
    out = tmp_path / "static" / "img" / "art"
    runner = app.test_cli_runner()

    drafted = runner.invoke(args=["images", "--draft"])
    assert drafted.exit_code == 0, drafted.output
    assert "Derived 2 draft pictures" in drafted.output
    assert "2 of 2 pictures are drafts" in drafted.output
    produced = runner.invoke(args=["images"])
    assert "Derived 2 pictures" in produced.output and "are drafts" not in produced.output
    before = mtimes(out)
    kept = runner.invoke(args=["images", "--draft"])
    assert "up to date" in kept.output and "are drafts" not in kept.output
    assert mtimes(out) == before

    # a manifest that says draft is never taken for production, whatever its source says
    manifest = read_manifest(out)
    manifest["images"]["square"]["draft"] = True
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert derive(read_pictures(draft_masters), out, workers=1) == ["square"]
    assert "draft" not in read_manifest(out)["images"]["square"]


def test_production_refuses_to_start_on_draft_pictures(make_app, draft_masters, tmp_path):
    derive(read_pictures(draft_masters), tmp_path, workers=1, draft=True)
    with pytest.raises(DraftPictures, match="2 pictures .* are development drafts .*card"):
        refuse_draft_pictures(tmp_path / "manifest.json")
    derive(read_pictures(draft_masters), tmp_path, workers=1)
    refuse_draft_pictures(tmp_path / "manifest.json")  # production pictures: no refusal
    refuse_draft_pictures(tmp_path / "nothing-derived-yet.json")
    make_app(**PRODUCTION)  # this checkout's own pictures are production's (bin/setup)
