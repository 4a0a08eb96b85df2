"""The copies of private files kept in the off-site replica (app/replica/): one row per file a
lead's records name, written by triggers in the same transaction as the row that names or drops
the file, so what the replica owes is on record whichever code wrote the file."""

from __future__ import annotations

NOW = "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"
PHOTOS = "'watch-photos/'"
PURCHASES = "'purchases/'"


def owe_copy(name: str, lead_id: str) -> str:
    """SQL that records a copy owed for `name` (a path under the private storage)."""
    return f"""INSERT INTO file_copies (name, lead_id, since) SELECT {name}, {lead_id}, {NOW}
        WHERE {name} IS NOT NULL
        ON CONFLICT (name) DO UPDATE SET copied_at = NULL, gone = 0, since = {NOW},
            attempts = 0, last_error = NULL;"""


def owe_deletion(names: str) -> str:
    """SQL that records the replica's copies of `names` as owing deletion."""
    return f"UPDATE file_copies SET gone = 1, since = {NOW} WHERE name IN ({names});"


FILE_COPIES = (
    # `copied_at` is when the replica last received the file as it is now (NULL: a copy is
    # owed); `gone` marks a file the records dropped, whose copy the replica still has to
    # delete (the row goes once it has). Failed attempts and the last error feed the alert.
    """CREATE TABLE file_copies (
        name TEXT PRIMARY KEY,
        lead_id INTEGER NOT NULL,
        since TEXT NOT NULL,
        copied_at TEXT,
        gone INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
    )""",
    "CREATE INDEX file_copies_owed ON file_copies(lead_id) WHERE copied_at IS NULL OR gone = 1",
    f"""CREATE TRIGGER lead_photo_files AFTER UPDATE OF image_name, thumb_name ON lead_photos
        WHEN OLD.image_name IS NOT NEW.image_name OR OLD.thumb_name IS NOT NEW.thumb_name
        BEGIN
            {owe_deletion(f"{PHOTOS} || OLD.image_name, {PHOTOS} || OLD.thumb_name")}
            {owe_copy(f"{PHOTOS} || NEW.image_name", "NEW.lead_id")}
            {owe_copy(f"{PHOTOS} || NEW.thumb_name", "NEW.lead_id")}
        END""",
    f"""CREATE TRIGGER lead_photo_files_gone AFTER DELETE ON lead_photos
        BEGIN {owe_deletion(f"{PHOTOS} || OLD.image_name, {PHOTOS} || OLD.thumb_name")} END""",
    f"""CREATE TRIGGER purchase_files_made AFTER INSERT ON purchase_files
        BEGIN {owe_copy(f"{PURCHASES} || NEW.file_name", "NEW.lead_id")} END""",
    # Key rotation seals a file again in place and marks the row: the copy is owed again.
    f"""CREATE TRIGGER purchase_files_resealed AFTER UPDATE OF file_name, sealed ON purchase_files
        BEGIN
            {owe_deletion(f"{PURCHASES} || OLD.file_name")}
            {owe_copy(f"{PURCHASES} || NEW.file_name", "NEW.lead_id")}
        END""",
    f"""CREATE TRIGGER purchase_files_gone AFTER DELETE ON purchase_files
        BEGIN {owe_deletion(f"{PURCHASES} || OLD.file_name")} END""",
    # Every file already on record is owed its first copy.
    f"""INSERT INTO file_copies (name, lead_id, since)
        SELECT {PHOTOS} || image_name, lead_id, {NOW} FROM lead_photos WHERE image_name IS NOT NULL
        UNION SELECT {PHOTOS} || thumb_name, lead_id, {NOW} FROM lead_photos
            WHERE thumb_name IS NOT NULL
        UNION SELECT {PURCHASES} || file_name, lead_id, {NOW} FROM purchase_files""",
)
