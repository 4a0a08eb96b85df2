"""Steps the production-shape tests share: a seller's lead sent through the front, the e-mails
it brings, and looking into the live leads.db as an operator would."""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path

from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import stream_encode_multipart

from tests.data.validation_cases import VALID
from tests.front import HttpsClient
from tests.helpers import wait_until

# The production stack offers the sale by mail, so /sell asks where the seller is and how they
# hand the watch over: these flows' sellers are in New York and meet us, as sellers always did.
IN_PERSON = {"postalCode": "10001", "handover": "in_person"}

STATUS_PATH = re.compile(r"/status/[A-Za-z0-9_-]{20,}")
CONFIRMATION = "We have your"  # the subject of the e-mail a lead brings
ERASURE_PATH = re.compile(r"/status/erasure/[A-Za-z0-9_-]{20,}")


def mail_to(site, address: str, subject_part: str = "", count: int = 1, timeout: float = 60):
    """The first `count` e-mails to `address` (with `subject_part` in the subject), waited for."""

    def found():
        messages = [
            m for m in list(site.mail.messages)
            if address in m["To"] and subject_part in m["Subject"]
        ]  # fmt: skip
        return messages if len(messages) >= count else None

    return wait_until(found, timeout=timeout)


def body_text(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def link_in(message, pattern=STATUS_PATH) -> str:
    """The path of the first link of `pattern` in the e-mail's text."""
    return pattern.search(body_text(message)).group(0)


def submit_lead(site, email: str, photos: tuple[Path, ...] = (), **fields) -> str:
    """A lead sent as the plain form posts it (send_lead); its status link's path, read from
    the confirmation e-mail."""
    send_lead(site, email, photos, **fields)
    return link_in(mail_to(site, email, CONFIRMATION)[0])


def send_lead(site, email: str, photos: tuple[Path, ...] = (), **fields) -> None:
    """A lead sent as the plain form posts it (multipart, with `photos`), through nginx."""
    client = HttpsClient(site.front)
    token = client.form_token("/sell")
    form = MultiDict({**VALID, **IN_PERSON, "email": email, "csrf_token": token, **fields})
    for photo in photos:
        form.add("photos", FileStorage(io.BytesIO(photo.read_bytes()), filename=photo.name))
    stream, _length, boundary = stream_encode_multipart(form, use_tempfile=False)
    headers = {"Referer": site.url + "/sell",
               "Content-Type": f"multipart/form-data; boundary={boundary}"}  # fmt: skip
    response = client.request("POST", "/sell", headers=headers, body=stream.read())
    assert response.status == 303, response.status


def leads_db(site) -> sqlite3.Connection:
    db = sqlite3.connect(site.env["LEADS_DB"])
    db.row_factory = sqlite3.Row
    return db


def lead_by_email(site, email: str) -> sqlite3.Row:
    with leads_db(site) as db:
        return db.execute("SELECT * FROM leads WHERE email = ?", (email,)).fetchone()


def event_kinds(site, lead_id: int) -> list[str]:
    with leads_db(site) as db:
        rows = db.execute("SELECT kind FROM lead_events WHERE lead_id = ? ORDER BY id", (lead_id,))
        return [row["kind"] for row in rows]
