"""The object storage tests replicate to: moto's S3 server (from the test packages) on a free
loopback port, standing in for AWS S3 or any S3-compatible service, behind a gateway that keeps
S3's rule on customer keys (SSE-C), which moto does not: an object written with a key is given
back only to a request carrying the same key, and one written without a key only to a request
carrying none (tests/sse_gateway.py). It records every request it is sent, headers and body,
when asked to (moto's recorder), and a test makes it stop answering for a while by pausing its
process (SIGSTOP: connections hang, as a storage that is unreachable makes them), then lets it
go on with everything it held.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import signal
import subprocess
import sys
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import boto3
from botocore.config import Config as BotoConfig

from tests.helpers import free_port, stop_process, wait_for_port
from tests.sse_gateway import SseCustomerGateway

MOTO_SERVER = str(Path(sys.executable).with_name("moto_server"))
ACCESS = {"REPLICA_ACCESS_KEY_ID": "replica-writer", "REPLICA_SECRET_ACCESS_KEY": "s3-secret-71c9"}


class ObjectStorage:
    """A moto S3 server of the test's own, its recording kept in `folder`."""

    def __init__(self, folder: Path):
        moto_port = free_port()
        self.recording = folder / "s3-requests.jsonl"
        env = {**os.environ, "MOTO_RECORDER_FILEPATH": str(self.recording)}
        self.process = subprocess.Popen(
            [MOTO_SERVER, "-H", "127.0.0.1", "-p", str(moto_port)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(moto_port, timeout=30)
        self.gateway = SseCustomerGateway(moto_port)
        self.port = self.gateway.server_port
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def client(self):
        """A boto3 client of the storage's, as its operator would use it."""
        return boto3.client(
            "s3", endpoint_url=self.endpoint, region_name="us-east-1",
            aws_access_key_id=ACCESS["REPLICA_ACCESS_KEY_ID"],
            aws_secret_access_key=ACCESS["REPLICA_SECRET_ACCESS_KEY"],
            config=BotoConfig(s3={"addressing_style": "path"}),
        )  # fmt: skip

    def new_bucket(self) -> str:
        """A fresh, empty bucket's name."""
        name = f"replica-{secrets.token_hex(6)}"
        self.client().create_bucket(Bucket=name)
        return name

    def settings(self, bucket: str | None = None, prefix: str = "watchbuyers") -> dict:
        """The REPLICA_* settings of a deployment replicating into a fresh bucket (or `bucket`)."""
        return {
            "REPLICA_URL": f"s3://{bucket or self.new_bucket()}/{prefix}",
            "REPLICA_ENDPOINT": self.endpoint,
            "REPLICA_ENCRYPTION_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
            **ACCESS,
        }

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        """The current objects' keys under `prefix`."""
        pages = (
            self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        )
        return sorted(item["Key"] for page in pages for item in page.get("Contents", ()))

    def start_recording(self) -> None:
        """Record every request from now on (moto's recorder, into `recording`)."""
        self.recording.unlink(missing_ok=True)
        address = f"{self.endpoint}/moto-api/recorder/start-recording"
        urllib.request.urlopen(urllib.request.Request(address, method="POST"), timeout=10).read()

    def recorded(self) -> list[dict]:
        """The requests recorded since start_recording."""
        if not self.recording.exists():
            return []
        return [json.loads(line) for line in self.recording.read_text().splitlines() if line]

    @contextmanager
    def unreachable(self):
        """The storage answers nothing inside the block (its process paused), then resumes."""
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.process.send_signal(signal.SIGCONT)

    @contextmanager
    def refusing_writes(self, part: str):
        """Writes to keys with `part` in their path are refused (403) inside the block."""
        self.gateway.refused_writes = part
        try:
            yield
        finally:
            self.gateway.refused_writes = ""

    @contextmanager
    def slowed(self, seconds: float):
        """Each object written inside the block takes `seconds` more to be stored."""
        self.gateway.write_delay = seconds
        try:
            yield
        finally:
            self.gateway.write_delay = 0.0

    def stop(self) -> None:
        self.process.send_signal(signal.SIGCONT)
        self.gateway.stop()
        stop_process(self.process)
