"""The buy-price guide in the staff area (docs/prices.md): the list, one entry added or changed,
an entry removed, and the whole guide out to and in from CSV. Every change and download is
audited; an import is checked row by row with the entry form's rules and written all or none."""

from __future__ import annotations

from dataclasses import replace

from flask import Response, flash, redirect, request, url_for
from werkzeug.datastructures import MultiDict

from app.leads.db import immediate_transaction
from app.prices import coverage, guide, listing, market, spreadsheet
from app.staff.auth import record, staff_required
from app.staff.pages import page
from app.staff.price_filters import PER_PAGE, SHOWS, SORT_LABELS, PriceQuery
from app.staff.price_forms import PriceEntryForm, PriceImportForm, RemoveEntryForm
from app.staff.views.inbox import actor

MAX_ERRORS_SHOWN = 20


def entry_facts(values: dict) -> dict:
    """What the audit log keeps of an entry."""
    return {name: values[name] for name in ("brand", "reference", "low", "high")}


def listed(entry: dict, kept: dict) -> dict:
    """An entry as the list shows it: how old, whether stale, the market beside it."""
    age = {"stale": guide.is_stale(entry), "age": guide.age_in_days(entry)}
    return entry | age | {"market": market.beside(entry, kept)}


def filter_choices() -> dict[str, str]:
    """The list's filters: the samples' only where this app has samples."""
    return {key: label for key, label in SHOWS.items() if key != "sample" or guide.shown_samples()}


def list_page(
    query: PriceQuery, import_form=None, problems: list[str] | None = None, status: int = 200
):
    """One page of the guide for `query` (search, filter, sort), with each range's age and
    market price, the pager, and the import. A page past the end shows the last one."""
    total = listing.count_entries(query.filters())
    pages = max(1, -(-total // PER_PAGE))
    query = replace(query, page=min(query.page, pages))
    rows = listing.find_entries(query.filters(), query.sort, PER_PAGE, (query.page - 1) * PER_PAGE)
    kept = market.prices_of(rows)
    return page(
        "prices/list.html",
        "Buy-price guide",
        status,
        entries=[listed(entry, kept) for entry in rows],
        query=query,
        total=total,
        pages=pages,
        shows=filter_choices(),
        sorts=SORT_LABELS,
        market_on=market.configured(),
        import_form=import_form or PriceImportForm(),
        problems=problems or [],
    )


@staff_required
def prices():
    """The guide, searched, filtered, sorted and paged by the query string."""
    return list_page(PriceQuery.from_args(request.args))


def entry_page(form, heading: str, status: int = 200, entry_id: int | None = None):
    """The entry form, new or for `entry_id`."""
    return page("prices/entry.html", heading, status, form=form, heading=heading, entry_id=entry_id)


@staff_required
def new_entry():
    """Add an entry."""
    form = PriceEntryForm()
    if not form.validate_on_submit():
        return entry_page(form, "New guide entry", 422 if form.is_submitted() else 200)
    return saved(form, None)


@staff_required
def edit_entry(entry_id: int):
    """Change an entry (its range is then set today, by you)."""
    entry = guide.entry(entry_id)
    if entry is None:
        return page("message.html", "Not found", 404, heading="No such entry",
                    text="This guide entry does not exist (any more).")  # fmt: skip
    form = PriceEntryForm(data=entry if request.method == "GET" else None)
    if not form.validate_on_submit():
        status = 422 if form.is_submitted() else 200
        return entry_page(form, f"{entry['brand']} {entry['reference']}", status, entry_id)
    return saved(form, entry_id)


def saved(form: PriceEntryForm, entry_id: int | None):
    """Write the entry and go back to the guide; a duplicate reference stays on the form."""
    values = form.values()
    try:
        guide.save(values, actor(), entry_id)
    except guide.Duplicate as error:
        form.reference.errors = [str(error)]
        return entry_page(form, "Guide entry", 422, entry_id)
    record("price_entry_saved", data=entry_facts(values) | {"entry": entry_id or "new"})
    coverage.refresh()
    flash(f"Saved: {values['brand']} {values['reference']}, set today.")
    return redirect(url_for("staff.prices"))


@staff_required
def delete_entry(entry_id: int):
    """Remove an entry."""
    entry = guide.entry(entry_id)
    if entry and RemoveEntryForm().validate():
        guide.delete(entry_id)
        record("price_entry_deleted", data=entry_facts(entry))
        coverage.refresh()
        flash(f"Removed: {entry['brand']} {entry['reference']}.")
    return redirect(url_for("staff.prices"))


@staff_required
def export_prices():
    """The guide as CSV; audited."""
    entries = guide.entries()
    record("price_guide_exported", data={"rows": len(entries)})
    return Response(
        spreadsheet.csv_text(entries),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="buy-price-guide.csv"'},
    )


def checked_rows(rows: list[dict]) -> tuple[list[dict], list[str]]:
    """Each row through the entry form's rules: the values of those that pass, and a line for
    each problem ('Row 3, High (USD): High is below low.')."""
    values, problems, seen = [], [], {}
    for number, row in enumerate(rows, start=2):
        form = PriceEntryForm(formdata=MultiDict(row), meta={"csrf": False})
        if form.validate():
            same = (form.brand.data, guide.key(form.reference.data))
            if same in seen:
                problems.append(f"Row {number}: the same entry as row {seen[same]}.")
            seen.setdefault(same, number)
            values.append(form.values())
            continue
        for field in form:
            problems += [f"Row {number}, {field.label.text}: {error}" for error in field.errors]
    return values, problems


@staff_required
def import_prices():
    """Add or update the entries of an uploaded CSV file: every row checked first, then all
    written in one transaction, or none."""
    form = PriceImportForm()
    if not form.validate_on_submit():
        return list_page(PriceQuery(), form, ["Choose a CSV file to import."], 422)
    try:
        rows = spreadsheet.rows_of(form.file.data.read())
    except spreadsheet.UnreadableFile as error:
        return list_page(PriceQuery(), form, [str(error)], 422)
    values, problems = checked_rows(rows)
    if problems:
        shown = problems[:MAX_ERRORS_SHOWN]
        more = len(problems) - len(shown)
        more_line = [f"… and {more} more."] if more else []
        return list_page(PriceQuery(), form, shown + more_line, 422)
    with immediate_transaction() as db:
        for each in values:
            guide.write(db, each, actor(), guide.existing_id(db, each["brand"], each["reference"]))
    record("price_guide_imported", data={"rows": len(values)})
    coverage.refresh()
    flash(f"Imported {len(values)} entries, set today.")
    return redirect(url_for("staff.prices"))
