"""The purchase on record (DESIGN.md, "The purchase on record"): from the final offer to the
receipt. The seller's side is app/status/purchase.py, the staff side app/staff/purchase.py; this
package holds what both use: the record and its SQL, the keys, the private files, the rules."""
