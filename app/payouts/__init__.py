"""The payout by bank API (docs/payouts.md), behind PAYOUT_PROVIDER: unset, staff pay from the
bank's own site and record the payment, as always; `increase`, the site sends it through the
business's bank API, asked by one staff member and released once another approves it, instant
where the seller's bank takes it, otherwise by same-day ACH.

- `increase_api.py`: the bank API (Increase, through its own library), the one module another
  bank's would replace: a routing number's rails, transfers created needing approval under an
  idempotency key, read, approved, cancelled; the bank's events verified.

A shared package, as the sale by mail is: the staff area and the status page show its payouts,
and features may import shared packages only. It imports the records, the sale and the other
shared packages; nothing below it imports it.
"""
