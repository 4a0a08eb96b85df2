"""Leads as CSV, the same for `flask leads export` and the staff area's export.

Cells a spreadsheet would run as a formula (starting with = + - @, a tab or a return) are
prefixed with ' (OWASP's advice on CSV injection): a seller's text must never become a formula
on a staff computer. Phone numbers starting with + are therefore shown as '+1 ...
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import TextIO

from app.leads import store

COLUMNS = (
    "id",
    "reference",
    "state",
    "created_at",
    "last_activity_at",
    *store.LEAD_FIELDS,
    *store.WORK_COLUMNS,
    "erased_at",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value) -> object:
    """One CSV cell: None as empty, text a spreadsheet would run as a formula prefixed with '."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def row(lead: dict) -> list:
    """A lead's CSV row, with its stored photo files in the last column."""
    names = [p["image_name"] or p["original_name"] for p in store.lead_photos(lead["id"])]
    return [*(cell(lead[column]) for column in COLUMNS), cell(" ".join(names))]


def csv_chunks(leads: Iterable[dict], rows_per_chunk: int = 500) -> Iterator[str]:
    """The CSV a few hundred leads at a time, header first: a download streams it with only
    one chunk in memory, however many leads there are."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([*COLUMNS, "photos"])
    for number, lead in enumerate(leads, start=1):
        writer.writerow(row(lead))
        if number % rows_per_chunk == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def write_csv(file: TextIO, leads: Iterable[dict]) -> None:
    """One row per lead, in the order given, with its stored photo files in the last column."""
    for chunk in csv_chunks(leads):
        file.write(chunk)
