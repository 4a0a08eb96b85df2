"""The insurer's monthly declaration: every parcel whose cover began in a month (its first
carrier scan, as we heard of it), with what the policy needs of each: its reference and leg,
the policy and the insured value, the carrier, service and tracking number, when the cover
began and ended (delivered to us, or to the seller for a return) and where the parcel stands,
an exception and a claim included (its kind and state, the insurer's reference, the amount
paid, and when a parcel claimed lost was delivered after all). Both legs are declared: a
return travels under the same policy. A CSV for the insurer, written by `flask shipping
declarations` (readable by its owner only: it holds tracking numbers)."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from typing import TextIO

from app.leads.db import get_db
from app.leads.export import cell

COLUMNS = (
    "reference", "leg", "policy", "insured_value_usd", "carrier", "service", "tracking_code",
    "label_bought_at", "cover_from", "cover_to", "state", "exception", "claim",
    "claim_reference", "claim_paid_usd", "claim_delivered_at",
)  # fmt: skip


def month_bounds(month: str) -> tuple[str, str]:
    """The first instant of `month` (YYYY-MM) and of the month after, as leads.db stores
    times; ValueError for anything else."""
    first = date.fromisoformat(f"{month}-01")
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return first.isoformat(), following.isoformat()


def declared(month: str) -> Iterator[dict]:
    """The month's parcels, in the order their cover began."""
    start, end = month_bounds(month)
    rows = get_db().execute(
        "SELECT leads.reference, shipments.*, shipment_claims.kind AS claim_kind, "
        "shipment_claims.state AS claim_state, shipment_claims.insurer_reference, "
        "shipment_claims.amount AS claim_amount, shipment_claims.delivered_at AS found_at "
        "FROM shipments JOIN leads ON leads.id = lead_id "
        "LEFT JOIN shipment_claims ON shipment_claims.shipment_id = shipments.id "
        "WHERE first_scan_at >= ? AND first_scan_at < ? ORDER BY first_scan_at, shipments.id",
        (start, end),
    )
    for row in rows:
        yield {
            "reference": row["reference"],
            "leg": row["leg"],
            "policy": row["policy"],
            "insured_value_usd": row["insured_value"],
            "carrier": row["carrier"],
            "service": row["service"],
            "tracking_code": row["tracking_code"],
            "label_bought_at": row["bought_at"],
            "cover_from": row["first_scan_at"],
            "cover_to": row["delivered_at"] or "",
            "state": row["state"],
            "exception": row["exception_status"] or "",
            "claim": f"{row['claim_kind']}: {row['claim_state']}" if row["claim_kind"] else "",
            "claim_reference": row["insurer_reference"] or "",
            "claim_paid_usd": row["claim_amount"] or "",
            "claim_delivered_at": row["found_at"] or "",
        }


def write_csv(file: TextIO, month: str) -> int:
    """The month's declaration as CSV into `file` (spreadsheet-formula-safe cells); how many
    parcels it declares."""
    writer = csv.writer(file)
    writer.writerow(COLUMNS)
    count = 0
    for parcel in declared(month):
        writer.writerow([cell(parcel[column]) for column in COLUMNS])
        count += 1
    return count
