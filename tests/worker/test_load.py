"""A bounded loopback load test: 50 concurrent submissions with photos from 5 client processes
against gunicorn, a real Redis and two `rq worker`s. Afterwards every lead is stored exactly
once with all its photos processed. Prints submissions/s, errors and leads stored."""

import io
import os
import re
import subprocess
import sys
import time
import urllib.request
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from http.cookiejar import CookieJar
from multiprocessing import get_context

from app.leads import search, store
from tests.data.photos import photo_bytes
from tests.data.validation_cases import VALID
from tests.helpers import ROOT, free_port, wait_for_port, wait_until

PROCESSES = 5
PER_PROCESS = 10
PHOTOS_EACH = 2


def multipart(fields: dict, files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = io.BytesIO()
    for name, value in fields.items():
        body.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        )
        body.write(value.encode() + b"\r\n")
    for filename, data in files:
        body.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="photos"; '
            f'filename="{filename}"\r\nContent-Type: image/jpeg\r\n\r\n'.encode()
        )
        body.write(data + b"\r\n")
    body.write(f"--{boundary}--\r\n".encode())
    return body.getvalue(), f"multipart/form-data; boundary={boundary}"


def submit_one(base: str, event_id: str, photo: bytes) -> int:
    """One seller: open /sell (session cookie and CSRF token), then post the form as the island."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    try:
        with opener.open(base + "/sell", timeout=30) as page:
            html = page.read().decode()
        token = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)
        fields = {**VALID, "csrf_token": token, "metaEventId": event_id}
        files = [(f"watch-{i}.jpg", photo) for i in range(PHOTOS_EACH)]
        body, content_type = multipart(fields, files)
        request = urllib.request.Request(
            base + "/sell",
            data=body,
            headers={"Content-Type": content_type, "Accept": "application/json"},
        )
        with opener.open(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def client_process(base: str, index: int) -> list[int]:
    """One client process: PER_PROCESS submissions at once, each from its own thread."""
    photo = photo_bytes(size=(800, 600), seed=index)
    ids = [f"evt-load-{index:02d}-{n:02d}" for n in range(PER_PROCESS)]
    with ThreadPoolExecutor(PER_PROCESS) as pool:
        return list(pool.map(lambda event_id: submit_one(base, event_id, photo), ids))


def test_fifty_concurrent_submissions_are_each_stored_once_and_processed(
    make_app, pipeline_settings, redis_server, start_rq_worker, smtp_server, tmp_path
):
    settings = pipeline_settings | {
        "REDIS_URL": redis_server.url,
        "SELL_RATELIMIT": "1000 per minute",
    }
    port = free_port()
    env = {**os.environ, **settings, "APP_ENV": "development"}
    log = open(tmp_path / "gunicorn.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", "2", "--threads", "8", "-b", f"127.0.0.1:{port}"]
        + ["--pythonpath", str(ROOT), "app:create_app()"],
        cwd=tmp_path,  # away from any gunicorn.conf.py: this test sets its own options
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        wait_for_port(port, timeout=30)
        for _ in range(2):
            start_rq_worker(settings)
        base = f"http://127.0.0.1:{port}"
        with ProcessPoolExecutor(PROCESSES, mp_context=get_context("spawn")) as pool:
            pool.submit(int, 0).result()  # processes up before the clock starts
            started = time.monotonic()
            results = [pool.submit(client_process, base, index) for index in range(PROCESSES)]
            statuses = [status for future in results for status in future.result()]
            elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()

    app = make_app(**settings)
    total = PROCESSES * PER_PROCESS

    def all_done():
        with app.app_context():
            leads = search.list_leads()
        return len(leads) == total and not any(store.pending_work(lead) for lead in leads)

    wait_until(all_done, timeout=300, interval=0.5)  # a bound, not a speed target
    processing = time.monotonic() - started
    with app.app_context():
        leads = search.list_leads()
        photos = [photo for lead in leads for photo in store.lead_photos(lead["id"])]
    errors = sum(status != 200 for status in statuses)
    print(
        f"\nload: {total} submissions from {PROCESSES} processes in {elapsed:.2f}s "
        f"= {total / elapsed:.1f} submissions/s; errors {errors}; leads stored {len(leads)}; "
        f"photos processed {sum(bool(p['image_name']) for p in photos)}/{len(photos)}; "
        f"all work done after {processing:.1f}s"
    )
    assert errors == 0, statuses
    assert len({lead["meta_event_id"] for lead in leads}) == len(leads) == total
    assert len(photos) == total * PHOTOS_EACH
    assert all(photo["image_name"] and photo["thumb_name"] for photo in photos)
    # each lead's staff e-mail and seller's confirmation
    assert len(smtp_server.wait_for(2 * total)) == 2 * total
