"""The buy-price guide (docs/prices.md): the business's own range for a watch, by brand and
reference, kept by staff. `guide.py` holds its records, `grades.py` what each condition grade
and a missing box or papers do to a range, `matching.py` finds the entry for what a seller
typed, `index.py` answers that from memory in every process, and `spreadsheet.py` moves the guide
in and out as CSV. A shared package: the sell form, the status page and staff use it."""
