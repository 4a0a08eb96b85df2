"""Leads as CSV, the same for `flask leads export` and the staff area's export.

Cells a spreadsheet would run as a formula (starting with = + - @, a tab or a return) are
prefixed with ' (OWASP's advice on CSV injection): a seller's text must never become a formula
on a staff computer. Phone numbers starting with + are therefore shown as '+1 ...
"""

from __future__ import annotations

import csv
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


def write_csv(file: TextIO, leads: list[dict]) -> None:
    """One row per lead, in the order given, with its stored photo files in the last column."""
    writer = csv.writer(file)
    writer.writerow([*COLUMNS, "photos"])
    for lead in leads:
        names = [p["image_name"] or p["original_name"] for p in store.lead_photos(lead["id"])]
        writer.writerow([*(cell(lead[column]) for column in COLUMNS), cell(" ".join(names))])
