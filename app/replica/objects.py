"""The object storage behind the replica: one S3-compatible bucket (REPLICA_URL, s3://bucket/
prefix), reached with boto3, every object written and read with this deployment's own key
(SSE-C: the storage encrypts with the key sent with each request and keeps only a salted hash
of it, so a copy of the bucket, or its operator, reads nothing without the key).

Files live under <prefix>/files/ by their path under the private storage; Litestream keeps the
database under <prefix>/db/; the record of erasures is one object per entry under
<prefix>/erasures/ (S3 cannot append; each is written once and never overwritten).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import boto3
from botocore.config import Config as BotoConfig
from botocore.exceptions import BotoCoreError, ClientError
from flask import current_app

from app.config_checks import replica_key

FILES = "files"
DATABASE = "db"
ERASURES = "erasures"
REST_SECONDS = 60
# A storage outage fails a copy within seconds rather than holding a job or a command for
# minutes: one try (the copy job's own retries come later, with backoff).
TIMEOUTS = BotoConfig(connect_timeout=3, read_timeout=5, retries={"total_max_attempts": 1})


class ReplicaError(RuntimeError):
    """The object storage did not do what was asked (down, refused, or the key is wrong)."""


class StorageResting(ReplicaError):
    """Not tried: the storage failed within the last REST_SECONDS in this process."""


@dataclass(frozen=True)
class Location:
    """Where the replica lives: the bucket and the key prefix inside it."""

    bucket: str
    prefix: str

    def key(self, *parts: str) -> str:
        """An object's key under the prefix."""
        return "/".join(part.strip("/") for part in (self.prefix, *parts) if part.strip("/"))


def configured() -> bool:
    """Whether this deployment replicates (REPLICA_URL is set)."""
    return bool(current_app.config["REPLICA_URL"])


def location(url: str | None = None) -> Location:
    """The bucket and prefix of REPLICA_URL (s3://bucket/prefix); ValueError for anything else."""
    parts = urlsplit(url or current_app.config["REPLICA_URL"])
    if parts.scheme != "s3" or not parts.netloc:
        raise ValueError("REPLICA_URL must look like s3://bucket/prefix")
    return Location(parts.netloc, parts.path.strip("/"))


def encryption() -> dict:
    """The SSE-C arguments every object request carries (boto3 adds the key's MD5)."""
    key = replica_key(current_app.config["REPLICA_ENCRYPTION_KEY"])
    return {"SSECustomerAlgorithm": "AES256", "SSECustomerKey": key}


def client():
    """This app's S3 client (made once per app: boto3 clients are thread-safe)."""
    made = current_app.extensions.get("replica_client")
    if made is None:
        config = current_app.config
        made = boto3.session.Session().client(
            "s3",
            endpoint_url=config["REPLICA_ENDPOINT"] or None,
            region_name=config["REPLICA_REGION"],
            aws_access_key_id=config["REPLICA_ACCESS_KEY_ID"] or None,
            aws_secret_access_key=config["REPLICA_SECRET_ACCESS_KEY"] or None,
            config=TIMEOUTS.merge(BotoConfig(s3={"addressing_style": "path"})),
        )
        current_app.extensions["replica_client"] = made
    return made


def rest_marker() -> Path:
    """The file beside leads.db that says until when the storage rests (every process reads
    it: RQ runs each job in a process of its own)."""
    return Path(current_app.config["LEADS_DB"]).with_name("replica-resting")


def resting() -> bool:
    """Whether a process saw the storage fail within the last REST_SECONDS."""
    try:
        return float(rest_marker().read_text()) > time.time()
    except (OSError, ValueError):
        return False


def rest() -> None:
    """Rest the storage for REST_SECONDS, for every process of this instance."""
    marker = rest_marker()
    partial = marker.with_name(f".{marker.name}.{os.getpid()}")
    partial.write_text(str(time.time() + REST_SECONDS))
    partial.replace(marker)


@contextmanager
def storage_call(what: str, rests: bool = True) -> Iterator[None]:
    """Run one request to the storage, its failure raised as ReplicaError naming `what`. A
    storage that did not answer (or answered 5xx) rests for REST_SECONDS: copies (`rests`)
    fail at once meanwhile, in every process, so an outage costs one round of time-outs a
    minute rather than one per file, and no job or e-mail queues up behind them. Any answer
    (the replication check's, say) ends the rest at once."""
    if rests and resting():
        raise StorageResting(f"could not {what}: the storage failed within the last minute")
    try:
        yield
    except (BotoCoreError, ClientError) as error:
        answer = getattr(error, "response", None) or {}  # a time-out has no answer at all
        status = answer.get("ResponseMetadata", {}).get("HTTPStatusCode")
        if isinstance(error, BotoCoreError) or (status or 500) >= 500:
            rest()
        raise ReplicaError(f"could not {what}: {error}") from error
    rest_marker().unlink(missing_ok=True)  # it answered: no process need wait any longer


def put_file(name: str, path: Path) -> None:
    """Store the file at `path` as <prefix>/files/<name>, encrypted with our key."""
    where = location()
    with storage_call(f"store {name}"), path.open("rb") as body:
        client().put_object(
            Bucket=where.bucket, Key=where.key(FILES, name), Body=body, **encryption()
        )


def get_file(name: str, target: Path) -> None:
    """Fetch <prefix>/files/<name> into `target` (written aside, then moved into place)."""
    where = location()
    partial = target.with_name(f".{target.name}.partial")
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        with storage_call(f"fetch {name}"), partial.open("wb") as out:
            answer = client().get_object(
                Bucket=where.bucket, Key=where.key(FILES, name), **encryption()
            )
            for chunk in answer["Body"].iter_chunks(1024 * 1024):
                out.write(chunk)
    except ReplicaError:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)


def delete_file(name: str) -> None:
    """Delete <prefix>/files/<name> (in a versioned bucket, its data stays as a noncurrent
    version until the bucket's lifecycle expires it: REPLICA_RETENTION_DAYS)."""
    where = location()
    with storage_call(f"delete {name}"):
        client().delete_object(Bucket=where.bucket, Key=where.key(FILES, name))


def put_erasure(entry_id: str, body: bytes) -> None:
    """Store one entry of the record of erasures as <prefix>/erasures/<entry_id>.json."""
    where = location()
    with storage_call(f"store erasure entry {entry_id}"):
        client().put_object(
            Bucket=where.bucket, Key=where.key(ERASURES, f"{entry_id}.json"), Body=body,
            **encryption(),
        )  # fmt: skip


def listed(area: str) -> Iterator[dict]:
    """The current objects under <prefix>/<area>/, as the storage lists them (inside a
    storage_call)."""
    where = location()
    pages = (
        client()
        .get_paginator("list_objects_v2")
        .paginate(Bucket=where.bucket, Prefix=where.key(area) + "/")
    )
    for page in pages:
        yield from page.get("Contents", ())


def erasure_entries() -> list[bytes]:
    """Every entry of the record of erasures the bucket holds, as stored."""
    bucket = location().bucket
    with storage_call("read the record of erasures", rests=False):
        return [
            client().get_object(Bucket=bucket, Key=item["Key"], **encryption())["Body"].read()
            for item in listed(ERASURES)
        ]


def newest_database_change() -> datetime | None:
    """When Litestream last wrote to the replica (its newest object under <prefix>/db/), or
    None if it never has."""
    with storage_call("list the database replica", rests=False):
        return max((item["LastModified"] for item in listed(DATABASE)), default=None)


def lifecycle_rules(days: int) -> dict:
    """The bucket's lifecycle: a changed or deleted object's data (a noncurrent version) and
    unfinished uploads are removed after `days`, so nothing erased outlives them."""
    return {
        "Rules": [{
            "ID": "watchbuyers-retention",
            "Status": "Enabled",
            "Filter": {"Prefix": ""},
            "NoncurrentVersionExpiration": {"NoncurrentDays": days},
            "Expiration": {"ExpiredObjectDeleteMarker": True},
            "AbortIncompleteMultipartUpload": {"DaysAfterInitiation": 1},
        }]
    }  # fmt: skip


def prepare_bucket() -> None:
    """Turn on the bucket's versioning (a deleted or overwritten copy can be brought back for
    REPLICA_RETENTION_DAYS) and put the lifecycle that ends it there."""
    where, days = location(), current_app.config["REPLICA_RETENTION_DAYS"]
    with storage_call("prepare the bucket", rests=False):
        client().put_bucket_versioning(
            Bucket=where.bucket, VersioningConfiguration={"Status": "Enabled"}
        )
        client().put_bucket_lifecycle_configuration(
            Bucket=where.bucket, LifecycleConfiguration=lifecycle_rules(days)
        )


def bucket_retention() -> int | None:
    """The days after which the bucket removes noncurrent versions, if it is versioned and
    its lifecycle says so; None otherwise."""
    where = location()
    with storage_call("read the bucket's settings", rests=False):
        versioning = client().get_bucket_versioning(Bucket=where.bucket)
        try:
            rules = client().get_bucket_lifecycle_configuration(Bucket=where.bucket)["Rules"]
        except ClientError as error:
            if error.response["Error"]["Code"] != "NoSuchLifecycleConfiguration":
                raise
            return None
    if versioning.get("Status") != "Enabled":
        return None
    days = [
        rule["NoncurrentVersionExpiration"]["NoncurrentDays"]
        for rule in rules
        if rule.get("Status") == "Enabled" and "NoncurrentVersionExpiration" in rule
        and not rule.get("Filter", {}).get("Prefix")
    ]  # fmt: skip
    return min(days) if days else None
