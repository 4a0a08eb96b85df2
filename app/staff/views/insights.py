"""/staff/insights: the funnel, its timings, the trend and a breakdown for a week or a month,
and a CSV of each table. Plain GET links and forms, server-rendered SVG: it all works with
JavaScript off. Staff only (the blueprint's guard and each view's decorator); downloads are
audited, as the leads export is."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from flask import Response, abort, request

from app.leads.display import usd
from app.leads.export import cell
from app.staff.auth import record, staff_required
from app.staff.insights import charts, report
from app.staff.insights.query import BREAKDOWN_LABELS, PERIOD_KINDS, InsightsQuery, Period
from app.staff.pages import page


def read_query() -> InsightsQuery:
    """The request's dashboard query, its defaults taken from today (UTC)."""
    return InsightsQuery.from_args(request.args, datetime.now(UTC).date())


@staff_required
def dashboard():
    """The dashboard for the query string's period, breakdown and segment."""
    query = read_query()
    numbers = report.build(query)
    today = datetime.now(UTC).date()
    return page(
        "insights/dashboard.html",
        f"Insights · {query.period.label}",
        query=query,
        report=numbers,
        segment=report.segment_shown(query),
        funnel_chart=charts.funnel_chart(numbers.steps, query.period.phrase),
        trend_chart=charts.trend_chart(numbers.days, query.period.phrase),
        breakdowns=BREAKDOWN_LABELS,
        kinds=PERIOD_KINDS,
        current={kind: Period.containing(kind, today) for kind in PERIOD_KINDS},
        has_next=query.period.end <= today,
        shown_percent=report.shown_percent,
        usd=usd,
    )


@staff_required
def dashboard_table(table: str):
    """One of the dashboard's tables as CSV, for the same query; audited."""
    if table not in report.TABLES:
        abort(404)
    query = read_query()
    rows = report.table_rows(table, query, report.build(query))
    record(
        "insights_exported",
        data={"table": table, "period": query.period.slug, "by": query.by, "rows": len(rows) - 1},
    )
    buffer = io.StringIO()
    csv.writer(buffer).writerows([cell(value) for value in row] for row in rows)
    name = f"insights-{table}-{query.period.slug}" + (
        f"-by-{query.by}" if table == "breakdown" else ""
    )
    return Response(
        buffer.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )
