"""A fresh machine brought back from the replica: Litestream restores the newest leads.db it
holds, then every file the restored records say was copied is fetched from the bucket.

What the machine took with it is named and then settled, so the restore ends clean: the files
whose copy was still owed (normally seconds' worth) and the raw uploads still waiting for their
photo job (never copied: the job's clean copy is) are recorded as lost on their lead's
timeline, owed no more, so nothing retries or alerts on them for ever; the lost photos leave
the lead, and the seller's status page asks for them again.

The restored database says which files to fetch, and it is only data: a name is written only
in the shapes this site gives its files, inside the private storage; any other is refused and
named. Like the backup's restore, refused over an instance that holds leads; the sale's `flask
leads restore --from-replica` then checks the purchase data's keys and queues what was pending.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from app.leads import backups, storage
from app.leads.db import get_db, transaction
from app.leads.history import append_event
from app.replica import litestream, objects
from app.replica.copies import is_gone

# The names this site gives the files it copies (worker/photos.py's photo and thumbnail,
# app/sale/purchase/files.py's sealed files), under the private storage.
FILE_NAME = re.compile(
    r"watch-photos/[A-Za-z0-9_-]{32}(?:-thumb\.webp|\.jpg)|purchases/[0-9a-f]{32}\.bin"
)
LOST_EVENT = "files_lost"  # the timeline's record of what the machine took with it


class ReplicaEmpty(RuntimeError):
    """The replica holds no database to restore (or Litestream could not read it)."""


@dataclass
class Restored:
    """What came back: the leads, the files fetched, and the files the records name that the
    replica never received (lost with the machine) or could not give back."""

    leads: int
    files: int = 0
    never_copied: list[str] = field(default_factory=list)
    unfetched: dict[str, str] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    lost_uploads: dict[int, list[int]] = field(default_factory=dict)  # lead: photo positions

    def still_unfetched(self) -> dict[str, str]:
        """The files the storage could not give that the records still name (an erasure
        applied again since may have dropped some)."""
        return {name: why for name, why in self.unfetched.items() if not is_gone(name)}


def private_path(name: str) -> Path:
    """Where the file `name` lives in the private storage; UnsafeName unless it has, whole, the
    shape of a name this site writes and resolves inside the storage folder."""
    folder = storage.storage_dir().resolve()
    path = (folder / name).resolve()
    if not FILE_NAME.fullmatch(name) or not path.is_relative_to(folder):
        raise storage.UnsafeName(name)
    return path


def restore_from_replica(timestamp: str | None = None) -> Restored:
    """Restore leads.db (the newest, or as it was at `timestamp`, RFC 3339) and the private
    files into this empty instance."""
    backups.refuse_unless_empty()
    incoming = backups.incoming_database()
    with tempfile.TemporaryDirectory() as work:
        try:
            litestream.restore_database(incoming, Path(work), timestamp)
        except subprocess.CalledProcessError as error:
            raise ReplicaEmpty(
                f"Litestream restored no database: {error.stderr.strip() or error}"
            ) from None
    backups.install_database(incoming)
    restored = Restored(backups.lead_count())
    fetch_files(restored)
    return restored


def fetch_again() -> Restored:
    """Fetch the files an earlier restore could not (the storage failed it) into this
    instance, which holds the restored database already."""
    restored = Restored(backups.lead_count())
    fetch_files(restored)
    return restored


def fetch_files(restored: Restored) -> None:
    """Fetch every copied file the restored records still name into the private storage,
    except those already there and those whose names it refuses."""
    rows = get_db().execute("SELECT name, copied_at FROM file_copies WHERE gone = 0 ORDER BY name")
    for row in rows.fetchall():
        try:
            target = private_path(row["name"])
        except storage.UnsafeName:
            restored.refused.append(row["name"])
            continue
        if not row["copied_at"]:
            restored.never_copied.append(row["name"])
            continue
        if target.is_file():
            continue
        try:
            objects.get_file(row["name"], target)
        except objects.ReplicaError as error:
            restored.unfetched[row["name"]] = str(error)
            continue
        restored.files += 1


def settle_losses(restored: Restored) -> None:
    """Record what the machine took with it, in one transaction, once the erasures made since
    the copy are applied again (a file an erasure dropped is not lost, only gone): each lead's
    lost photos (a file never copied, or an upload its job never took) leave its photos, with
    any file of theirs that did come back; its other lost files stay named by their records
    (the purchase record the law requires keeps its row); the copies of all of them are owed
    no more; and the lead's timeline says which. `restored.never_copied` is left naming only
    those lost."""
    restored.never_copied = [name for name in restored.never_copied if not is_gone(name)]
    lost = {"lost": json.dumps(restored.never_copied)}
    with transaction() as db:
        photos = db.execute(
            "SELECT id, lead_id, position, image_name, thumb_name FROM lead_photos "
            "WHERE (image_name IS NULL AND error IS NULL) "
            "OR 'watch-photos/' || image_name IN (SELECT value FROM json_each(:lost)) "
            "OR 'watch-photos/' || thumb_name IN (SELECT value FROM json_each(:lost)) "
            "ORDER BY lead_id, position",
            lost,
        ).fetchall()
        files = db.execute(
            "SELECT lead_id, kind FROM purchase_files "
            "WHERE 'purchases/' || file_name IN (SELECT value FROM json_each(:lost)) ORDER BY id",
            lost,
        ).fetchall()
        db.executemany("DELETE FROM lead_photos WHERE id = ?", [(p["id"],) for p in photos])
        db.execute("DELETE FROM file_copies WHERE name IN (SELECT value FROM json_each(:lost))",
                   lost)  # fmt: skip
        for lead_id, details in losses_by_lead(photos, files).items():
            append_event(db, lead_id, "system", LOST_EVENT, details)
    for photo in photos:
        if photo["image_name"] is None:
            restored.lost_uploads.setdefault(photo["lead_id"], []).append(photo["position"])
        remove_returned_files(photo)


def losses_by_lead(photos: list, files: list) -> dict[int, dict]:
    """Each lead's lost photos (positions: processed, and still waiting for their job) and
    lost purchase files (kinds), as its timeline event records them."""
    found: dict[int, dict] = defaultdict(lambda: {"photos": [], "waiting": [], "files": []})
    for photo in photos:
        waiting = photo["image_name"] is None
        found[photo["lead_id"]]["waiting" if waiting else "photos"].append(photo["position"])
    for row in files:
        found[row["lead_id"]]["files"].append(row["kind"])
    return dict(found)


def remove_returned_files(photo) -> None:
    """Delete the files of a lost photo that did come back (its thumbnail, say): the photo is
    no longer on record, and its copies are owed deletion by the row's trigger."""
    for name in (photo["image_name"], photo["thumb_name"]):
        if name:
            try:
                private_path(f"watch-photos/{name}").unlink(missing_ok=True)
            except storage.UnsafeName:
                continue
