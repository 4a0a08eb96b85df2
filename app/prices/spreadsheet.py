"""The guide as CSV, for bulk updates: the export staff download (every cell a spreadsheet
could run as a formula neutralised), and the rows of a file they upload, read as text for the
staff form to check one by one (app/staff/price_forms.py) before any is written."""

from __future__ import annotations

import csv
import io

from app.leads.export import cell
from app.prices.guide import FIELDS

INFORMATION = ("set_on", "set_by")  # exported for reading; an import ignores them
MAX_ROWS = 10_000


class UnreadableFile(ValueError):
    """Not a CSV file of the guide's columns; the message says why."""


def csv_text(entries: list[dict]) -> str:
    """Every entry, one row each, under the header an import reads."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([*FIELDS, *INFORMATION])
    for entry in entries:
        writer.writerow([cell(entry[name]) for name in (*FIELDS, *INFORMATION)])
    return buffer.getvalue()


def rows_of(data: bytes) -> list[dict[str, str]]:
    """The rows of an uploaded file as {column: text}, checked only for shape: UTF-8 (a BOM
    allowed), the guide's columns, at most MAX_ROWS rows."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UnreadableFile("The file is not UTF-8 text: save it as CSV UTF-8.") from error
    reader = csv.DictReader(io.StringIO(text))
    header = set(reader.fieldnames or ())
    if missing := [name for name in FIELDS if name not in header]:
        raise UnreadableFile(f"The file has no column {', '.join(missing)}.")
    if unknown := sorted(header - set(FIELDS) - set(INFORMATION)):
        raise UnreadableFile(f"Unknown column {', '.join(unknown)}.")
    rows = []
    for row in reader:
        if len(rows) == MAX_ROWS:
            raise UnreadableFile(f"The file has more than {MAX_ROWS:,} rows.")
        if None in row or any(value is None for value in row.values()):
            raise UnreadableFile(f"Row {len(rows) + 2} does not have the header's columns.")
        rows.append({name: row[name].strip() for name in FIELDS})
    if not rows:
        raise UnreadableFile("The file has no rows under its header.")
    return rows
