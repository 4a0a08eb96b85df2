"""Photo processing: real decoding, orientation, metadata stripped, refusals recorded."""

import io

import pillow_heif
import pytest
from PIL import Image

from app.config import Config
from tests.data.photos import GPS_IFD, photo_bytes
from worker.photos import PhotoRejected, process_photo

MAX_PIXELS = Config.PHOTO_MAX_PIXELS


def write(tmp_path, data: bytes, name="upload.jpg"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_gps_exif_is_removed_and_orientation_applied(tmp_path):
    source = write(tmp_path, photo_bytes(size=(600, 400), gps=True, orientation=6))
    with Image.open(source) as original:
        assert original.getexif().get_ifd(GPS_IFD)  # the upload really carries GPS
    result = process_photo(source, tmp_path / "out", MAX_PIXELS)
    with Image.open(tmp_path / "out" / result["image_name"]) as stored:
        assert stored.format == "JPEG"
        assert stored.size == (400, 600)  # rotated upright (orientation 6)
        assert not stored.getexif() and "exif" not in stored.info
        assert "icc_profile" not in stored.info
    with Image.open(tmp_path / "out" / result["thumb_name"]) as thumb:
        assert thumb.format == "WEBP" and max(thumb.size) == 480
        assert not thumb.getexif()


def test_stored_names_are_unguessable_and_differ_from_upload(tmp_path):
    source = write(tmp_path, photo_bytes(size=(300, 200)))
    first = process_photo(source, tmp_path / "out", MAX_PIXELS)
    second = process_photo(source, tmp_path / "out", MAX_PIXELS)
    assert first["image_name"] != second["image_name"]
    assert len(first["image_name"]) >= 32 and "upload" not in first["image_name"]


def test_transparent_png_is_stored_as_jpeg_on_white(tmp_path):
    image = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    result = process_photo(
        write(tmp_path, buffer.getvalue(), "a.png"), tmp_path / "out", MAX_PIXELS
    )
    with Image.open(tmp_path / "out" / result["image_name"]) as stored:
        assert stored.getpixel((50, 50)) == (255, 255, 255)


def test_heic_from_a_phone_is_stored_as_jpeg(tmp_path):
    heif = pillow_heif.from_pillow(Image.new("RGB", (320, 240), "navy"))
    buffer = io.BytesIO()
    heif.save(buffer, quality=80)
    result = process_photo(
        write(tmp_path, buffer.getvalue(), "IMG_1.heic"), tmp_path / "out", MAX_PIXELS
    )
    with Image.open(tmp_path / "out" / result["image_name"]) as stored:
        assert stored.format == "JPEG" and stored.size == (320, 240)


def test_truncated_jpeg_is_refused_by_full_decode(tmp_path):
    data = photo_bytes(size=(800, 600))
    with pytest.raises(PhotoRejected, match="not a readable image"):
        process_photo(write(tmp_path, data[: len(data) // 2]), tmp_path / "out", MAX_PIXELS)


def test_image_over_fifty_megapixels_is_refused_before_decoding(tmp_path):
    # A PNG header claiming 10000x6000 pixels; there are no pixel data to decode at all.
    image = Image.new("1", (10_000, 6_000))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    assert MAX_PIXELS < 10_000 * 6_000
    with pytest.raises(PhotoRejected, match="over 50,000,000 pixels"):
        process_photo(write(tmp_path, buffer.getvalue(), "bomb.png"), tmp_path / "out", MAX_PIXELS)
