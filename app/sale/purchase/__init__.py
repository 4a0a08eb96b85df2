"""The purchase on record (docs/sale.md, "The purchase on record"): from the final offer to the
receipt. The seller's side is on the status pages (app/status/), the staff side in the staff
area (app/staff/views/purchase.py); this package holds what both use: the record and its SQL,
the keys, the private files, the paperwork, the findings and register checks, the documents and
the transaction register."""
