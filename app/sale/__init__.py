"""The sale: a lead's life after the sell form (docs/architecture.md, "The sale's package").

The states' moves and what each move does (lifecycle.py), the purchase on record (purchase/),
erasure (erasure.py), the timeline's words (timeline.py), the appointment invitation
(invitation.py), the work still owed with its requeue (pending.py, cli.py) and the daily
retention run (retention.py). It stands above app/leads/ (the records and the database) and
below the features that drive a sale: the sell form, the seller's status pages, the staff area
and the worker.
"""
