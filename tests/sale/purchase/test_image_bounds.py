"""Images decoded on a web request within a memory bound (bench/id_photo_memory.py measures it):
an ID photo (the paperwork's, the mail ID step's, staff's arrival photos) and a register
certificate are refused over PHOTO_MAX_PIXELS from their header, before any pixel is decoded;
a JPEG is decoded at the smallest DCT scale that still gives the size kept, any other format
reduced by a whole factor, band by band, as soon as it is decoded."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageFile

from app.photos import decoding
from app.sale.purchase.paperwork import UnreadablePhoto, clean_id_photo
from app.sale.purchase.stolen_register import certificate_type

LIMIT = 10_000  # pixels, for these tests: 100 x 100 is at it, 101 x 100 over


def encoded(size: tuple[int, int], kind: str = "PNG", mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, (30, 90, 160)).save(buffer, kind)
    return buffer.getvalue()


@pytest.fixture
def limited(app):
    app.config["PHOTO_MAX_PIXELS"] = LIMIT
    with app.app_context():
        yield app


def test_an_id_photo_at_the_pixel_limit_is_kept_and_one_row_over_is_refused(limited):
    kept = Image.open(io.BytesIO(clean_id_photo(encoded((100, 100)))))
    assert kept.format == "JPEG" and kept.size == (100, 100)
    with pytest.raises(UnreadablePhoto, match="101x100 is over 10,000 pixels"):
        clean_id_photo(encoded((101, 100)))


@pytest.mark.parametrize("kind, media_type", [("PNG", "image/png"), ("JPEG", "image/jpeg")])
def test_a_certificate_image_over_the_pixel_limit_is_no_certificate(limited, kind, media_type):
    assert certificate_type(encoded((100, 100), kind)) == media_type
    assert certificate_type(encoded((100, 101), kind)) is None
    assert certificate_type(b"%PDF-1.7\n" + b"0" * 64) == "application/pdf"


@pytest.mark.parametrize("kind, media_type", [("PNG", "image/png"), ("JPEG", "image/jpeg")])
def test_a_certificate_photographed_large_is_still_known_by_its_format(app, kind, media_type):
    with app.app_context():  # decoded reduced, and still named as what it is
        assert certificate_type(encoded((4032, 3024), kind)) == media_type


def test_a_large_jpeg_is_decoded_at_the_smallest_scale_that_keeps_the_size(app):
    with app.app_context(), decoding.open_within(encoded((4000, 2000), "JPEG"), 1000) as image:
        assert image.size == (1000, 500)  # decoded so: DCT scaling by 4, nothing reduced after
        assert isinstance(image, ImageFile.ImageFile) and image.format == "JPEG"


def test_any_other_format_is_decoded_then_reduced_to_the_size_kept(app):
    with app.app_context(), decoding.open_within(encoded((4000, 2000), mode="RGBA"), 1000) as image:
        assert image.size == (1000, 500) and image.mode == "RGBA" and image.format == "PNG"
        assert not isinstance(image, ImageFile.ImageFile)  # a new, smaller image


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_reducing_band_by_band_gives_the_pixels_of_reducing_at_once(mode):
    noise = Image.effect_noise((4000, 1000), 60).convert(mode)  # bands of 261 rows, the last 217
    assert decoding.reduced(noise, 3).tobytes() == noise.reduce(3).tobytes()


def test_a_palette_image_is_reduced_in_its_colours(app):
    buffer, paletted = io.BytesIO(), Image.new("P", (3000, 1000), 1)
    paletted.putpalette([0, 0, 0, 200, 30, 40])  # colour 1: the card's red
    paletted.save(buffer, "PNG")
    with app.app_context(), decoding.open_within(buffer.getvalue(), 1000) as image:
        assert image.size == (1000, 334) and image.convert("RGB").getpixel((5, 5)) == (200, 30, 40)


def test_an_id_photo_keeps_its_orientation_through_the_reduction(app):
    buffer, exif = io.BytesIO(), Image.Exif()
    exif[0x0112] = 6  # rotated 90 degrees: the camera was held upright
    Image.new("RGB", (4000, 3000), "white").save(buffer, "JPEG", exif=exif)
    with app.app_context():
        kept = Image.open(io.BytesIO(clean_id_photo(buffer.getvalue())))
    assert kept.size == (1500, 2000) and not kept.getexif()  # upright, reduced by 2
