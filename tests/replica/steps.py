"""Steps this folder's tests share: a lead sent with photos, the copies on record, the bucket
a test's app replicates into, Litestream replicating it, the SSE-C headers a recorded request
carried, and a storage that comes back."""

from __future__ import annotations

import base64
import hashlib
import subprocess
from contextlib import contextmanager

from app.leads.db import get_db, transaction
from app.replica import litestream, monitor, objects
from tests.helpers import ROOT, lead_work_done, photo, post, stop_process


def bucket_of(app) -> str:
    return app.config["REPLICA_URL"].removeprefix("s3://").split("/")[0]


def copy_rows(app) -> list[dict]:
    with app.app_context():
        return [dict(row) for row in get_db().execute("SELECT * FROM file_copies ORDER BY name")]


def md5_of(key: bytes) -> str:
    return base64.b64encode(hashlib.md5(key).digest()).decode()


def sent_encryption(request: dict) -> tuple[str, str]:
    """The SSE-C algorithm and key digest a recorded request carried."""
    headers = {name.lower(): value for name, value in request["headers"].items()}
    prefix = "x-amz-server-side-encryption-customer-"
    return headers.get(prefix + "algorithm", ""), headers.get(prefix + "key-md5", "")


def submit_with_photos(app, count: int = 2) -> int:
    client = app.test_client()
    response = post(client, photos=[photo(f"watch-{n}.jpg") for n in range(count)])
    assert response.status_code in (200, 303), response.status_code
    lead_work_done(app)
    with app.app_context():
        return get_db().execute("SELECT max(id) FROM leads").fetchone()[0]


def storage_back(app, replica_settings: dict) -> None:
    """The app's storage answers again, a minute after it failed: its real endpoint, a new
    client, and no rest left."""
    app.config["REPLICA_ENDPOINT"] = replica_settings["REPLICA_ENDPOINT"]
    app.extensions.pop("replica_client")
    with app.app_context():
        objects.rest_marker().unlink()


def owed_long_ago(app) -> None:
    """Every copy on record owed since long before now (a crashed process's, or the check's)."""
    with app.app_context(), transaction() as db:
        db.execute("UPDATE file_copies SET since = '2026-01-01T00:00:00+00:00'")


@contextmanager
def replicating(app, folder):
    """Litestream replicating `app`'s leads.db, as its unit runs it, until the block ends."""
    config = folder / "litestream.yml"
    with app.app_context():
        litestream.write_settings(config)
        command = [litestream.binary(), "replicate", "-config", str(config)]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        process = subprocess.Popen(command, cwd=ROOT, env=litestream.environment(), **quiet)
    try:
        yield process
    finally:
        stop_process(process)


def replica_holds_everything(app) -> bool:
    with app.app_context():
        report = monitor.report()
        return report.replica_written is not None and report.lag_seconds < 1
