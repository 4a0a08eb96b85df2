"""A refused upload leaves nothing in storage/incoming/: a disk that fills mid-photo (a real
write refused by the kernel, not a stand-in), a post too large, bytes that are no photo, a
connection dropped mid-body. Files a crash stranded there are removed by the sweep once old
enough that no live request can still be writing them, and never a file a lead still needs."""

from __future__ import annotations

import io
import os
import resource
import signal
import time
from contextlib import contextmanager
from functools import cache

import pytest

from app import queue
from app.leads import search, storage, store
from app.photos import intake
from app.sale.purchase import crypto, files
from tests.data.photos import photo_bytes
from tests.helpers import JSON, csrf_token, post, sample_lead

FILE_LIMIT = 2 * 1024 * 1024  # bigger than leads.db and its WAL, smaller than the photo


@cache
def big_photo() -> bytes:
    """A camera-sized JPEG (about 3 MB) the checks accept."""
    data = photo_bytes(size=(3000, 2250), noise=60, quality=95)
    assert len(data) > FILE_LIMIT + 512 * 1024
    return data


@contextmanager
def disk_full_after(limit: int):
    """Every file this process writes stops at `limit` bytes, refused by the kernel (EFBIG),
    as a disk that fills mid-write refuses the rest (SIGXFSZ ignored, so the write fails rather
    than the process dying)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def incoming_files(app) -> list[str]:
    with app.app_context():
        folder = storage.incoming_dir()
        return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


def lead_count(app) -> int:
    with app.app_context():
        return len(search.list_leads())


def test_a_photo_refused_by_a_full_disk_leaves_no_partial_file(app, client, monkeypatch):
    real_store = intake.store_upload

    def store_on_a_filling_disk(upload, directory):  # the real copy, on a disk with 2 MB left
        with disk_full_after(FILE_LIMIT):
            return real_store(upload, directory)

    monkeypatch.setattr(intake, "store_upload", store_on_a_filling_disk)
    photos = [(io.BytesIO(photo_bytes(size=(800, 600))), "dial.jpg"),
              (io.BytesIO(big_photo()), "caseback.jpg")]  # fmt: skip
    response = post(client, photos=photos, headers=JSON)
    assert response.status_code == 503
    assert "nothing was kept" in response.json["error"]
    assert incoming_files(app) == []  # neither the whole first photo nor the cut second one
    assert lead_count(app) == 0
    monkeypatch.undo()
    again = post(client, {"metaEventId": "evt-after-full-disk"}, headers=JSON)
    assert again.status_code == 200 and lead_count(app) == 1


def test_a_post_too_large_leaves_nothing_behind(app, client):
    app.config["MAX_CONTENT_LENGTH"] = FILE_LIMIT
    response = post(client, photos=[(io.BytesIO(big_photo()), "w.jpg")], headers=JSON)
    assert response.status_code == 413
    assert incoming_files(app) == [] and lead_count(app) == 0


def test_bytes_that_are_no_photo_leave_nothing_behind(app, client):
    fake = b"\xff\xd8\xff\xe0" + os.urandom(4096)  # a JPEG's first bytes, then noise
    photos = [(io.BytesIO(photo_bytes()), "good.jpg"), (io.BytesIO(fake), "bad.jpg")]
    response = post(client, photos=photos, headers=JSON)
    assert response.status_code == 422
    assert incoming_files(app) == [] and lead_count(app) == 0


# Werkzeug's parser leaves the part it was spooling (a temporary file outside the storage) to
# the garbage collector when the body is cut off; Python warns of it, the test does not.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_connection_dropped_mid_upload_leaves_nothing_behind(app, client):
    token = csrf_token(client)
    body = (
        b'--cut\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
        + token.encode()
        + b'\r\n--cut\r\nContent-Disposition: form-data; name="photos"; '
        b'filename="w.jpg"\r\nContent-Type: image/jpeg\r\n\r\n' + big_photo()[:300_000]
    )
    response = client.post(
        "/sell",
        input_stream=io.BytesIO(body),
        content_length=len(body) + 500_000,  # the rest never comes
        content_type="multipart/form-data; boundary=cut",
        headers=JSON,
    )
    assert response.status_code == 400
    assert incoming_files(app) == [] and lead_count(app) == 0


def age(path, hours: float) -> None:
    then = time.time() - hours * 3600
    os.utime(path, (then, then))


def test_the_sweep_removes_old_stranded_uploads_and_nothing_a_lead_or_a_request_holds(app):
    with app.app_context():
        folder = storage.incoming_dir()
        folder.mkdir(parents=True, exist_ok=True)
        awaited = "k2Jv8qR0aWm3xT5nYb7cLd9eFg1hIi4o.jpg"  # a lead's photo, not processed yet
        store.save_lead(sample_lead(), [{"original_name": "dial.jpg", "upload_name": awaited}])
        stranded = "Q8vX1zL0pN3mB6cK9jH2gF5dS4aW7eRt.jpg"  # a crashed post's, long ago
        writing = "T5yU8iO1pA4sD7fG0hJ3kL6zX9cV2bNm.png"  # a live request's, still growing
        just_old = "M3nB6vC9xZ2lK5jH8gF1dS4aP7oI0uYt.webp"  # exactly at the threshold
        for name in (awaited, stranded, writing, just_old):
            (folder / name).write_bytes(b"\x89PNG partial")
        for name in (awaited, stranded):
            age(folder / name, hours=30)
        stranded_after = intake.STRANDED_AFTER.total_seconds() / 3600
        age(folder / just_old, hours=stranded_after - 0.01)
        assert intake.remove_stranded_uploads() == 1
    assert incoming_files(app) == sorted([awaited, writing, just_old])


def test_the_scheduled_sweep_cleans_stranded_uploads(app):
    with app.app_context():
        folder = storage.incoming_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "stranded.jpg").write_bytes(b"\xff\xd8\xff partial")
        age(folder / "stranded.jpg", hours=2)
        said = queue.run_now(queue.SWEEP_PENDING_WORK)
    assert "removed 1 stranded upload" in said
    assert incoming_files(app) == []


def test_an_id_photo_refused_by_a_full_disk_leaves_no_partial_file(app):
    with app.app_context():
        place = crypto.file_place(7, "id_front")
        with disk_full_after(FILE_LIMIT), pytest.raises(OSError):
            files.write_sealed(big_photo(), place)
        assert list(files.files_dir().iterdir()) == []
