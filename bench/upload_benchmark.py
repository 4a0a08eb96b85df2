"""Benchmark of the sell form's upload path (a script, not a test).

Submits one lead with ten 4000x3000 JPEGs (~5 MB each) to a real web process and prints:
  - the web process's peak RSS growth during the upload (target < 50 MB),
  - seconds and peak RSS of the photo job on those ten photos (target < 4 s),
  - bytes Chromium uploads for the same ten photos after in-browser downscaling (target < 8 MB).

Run from the project root: .venv/bin/python bench/upload_benchmark.py
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import common  # noqa: E402

from tests.conftest import RedisServer  # noqa: E402
from tests.data.photos import write_photos  # noqa: E402

PHOTOS = 10
SIZE = (4000, 3000)
FIELDS = {
    "fullName": "Bench Mark",
    "email": "bench@example.com",
    "phone": "+1 212 555 0147",
    "watchBrand": "Rolex",
    "watchCondition": "Excellent - Like new",
}


def rss_kib(pid: int, key: str) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"{key}:\s+(\d+) kB", status).group(1))


def multipart_file(fields: dict, photos: list[Path], directory: Path) -> tuple[Path, str]:
    """The request body on disk, so the client streams it too."""
    boundary = uuid.uuid4().hex
    body = directory / "body.bin"
    with body.open("wb") as out:
        for name, value in fields.items():
            head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            out.write(f"{head}{value}\r\n".encode())
        for photo in photos:
            out.write(
                f'--{boundary}\r\nContent-Disposition: form-data; name="photos"; '
                f'filename="{photo.name}"\r\nContent-Type: image/jpeg\r\n\r\n'.encode()
            )
            out.write(photo.read_bytes() + b"\r\n")
        out.write(f"--{boundary}--\r\n".encode())
    return body, boundary


def csrf_session(port: int) -> tuple[str, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/sell")
    response = connection.getresponse()
    html = response.read().decode()
    cookie = response.getheader("Set-Cookie").split(";")[0]
    token = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)
    return token, cookie


def measure_upload(port: int, pid: int, photos: list[Path], directory: Path) -> int:
    """POST the lead; return the web process's peak RSS growth in bytes."""
    token, cookie = csrf_session(port)
    body, boundary = multipart_file(FIELDS | {"csrf_token": token}, photos, directory)
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # reset the peak (VmHWM) to now
    before = rss_kib(pid, "VmRSS")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    with body.open("rb") as stream:
        connection.request(
            "POST",
            "/sell",
            body=stream,
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Content-Length": str(body.stat().st_size),
                "Accept": "application/json",
                "Cookie": cookie,
            },
        )
        reply = json.loads(connection.getresponse().read())
    assert reply["success"], reply
    return (rss_kib(pid, "VmHWM") - before) * 1024


PHOTO_JOB = """
import json, resource, sys, time
from app import create_app
from worker.jobs import process_photos
app = create_app()
with app.app_context():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    process_photos(int(sys.argv[1]))
    seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "before": before,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def measure_photo_job(env: dict) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PHOTO_JOB, "1"], env=env, cwd=ROOT, capture_output=True, text=True
    )
    if result.returncode:
        raise RuntimeError(result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


BROWSER_BYTES = """() => {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    window.uploadBytes = body.getAll('photos').reduce((sum, file) => sum + file.size, 0);
    return send.call(this, body);
  };
}"""


def measure_browser_upload(port: int, photos: list[Path]) -> int:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/sell")
        page.wait_for_function("document.querySelector('[data-island=SellForm]').dataset.hydrated")
        for name, value in FIELDS.items():
            if name in ("watchBrand", "watchCondition"):
                page.select_option(f"#field-{name}", value)
            else:
                page.fill(f"#field-{name}", value)
        page.set_input_files("#field-photos", [str(photo) for photo in photos])
        page.evaluate(BROWSER_BYTES)
        page.click("button[type=submit]")
        page.get_by_text("Form submitted successfully!").wait_for(timeout=120_000)
        uploaded = page.evaluate("window.uploadBytes")
        browser.close()
    return uploaded


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="upload-bench-"))
    print(f"Generating {PHOTOS} {SIZE[0]}x{SIZE[1]} JPEGs in {work} ...")
    photos = write_photos(work / "photos", PHOTOS, size=SIZE, noise=60, quality=95)
    total = sum(photo.stat().st_size for photo in photos)
    print(f"  {total / 1e6:.1f} MB in all ({total / PHOTOS / 1e6:.1f} MB each)")

    redis = RedisServer(work)
    redis.start()  # jobs are queued, not run by the web process, as in production
    port = common.free_port()
    env = {
        **os.environ,
        "FLASK_APP": "app",
        "LEADS_DB": str(work / "leads.db"),
        "REDIS_URL": redis.url,
        "SELL_RATELIMIT": "100 per minute",
    }
    flask = [sys.executable, "-m", "flask", "run", "--port", str(port), "--no-reload"]
    try:
        with common.server(flask, work / "web.log", f"http://127.0.0.1:{port}/sell", env) as web:
            csrf_session(port)  # warm up: templates, the island renderer
            growth = measure_upload(port, web.pid, photos, work)
            job = measure_photo_job(env)
            uploaded = measure_browser_upload(port, photos)
    finally:
        redis.stop()

    print(f"Web process peak RSS growth during upload: {growth / 2**20:.1f} MB (target < 50)")
    print(
        f"Photo job: {job['seconds']:.2f} s, peak RSS {job['peak'] / 1024:.0f} MB "
        f"(process before the job: {job['before'] / 1024:.0f} MB) (target < 4 s)"
    )
    print(
        f"Browser upload after downscaling: {uploaded / 1e6:.2f} MB for {PHOTOS} photos "
        f"(originals {total / 1e6:.1f} MB) (target < 8 MB)"
    )


if __name__ == "__main__":
    main()
