"""The payout by bank API (docs/payouts.md), behind PAYOUT_PROVIDER: unset, staff pay from the
bank's own site and record the payment, as always; `increase`, the site sends it through the
business's bank API, asked by one staff member and released once another approves it, instant
where the seller's bank takes it, otherwise by same-day ACH.

- `increase_api.py`: the bank API (Increase, through its own library), the one module another
  bank's would replace: a routing number's rails, transfers created needing approval under an
  idempotency key, read, approved, cancelled; the bank's events verified;
- `rails.py`: the rail of each payout, from the routing number, and how people read it;
- `ledger.py`: the `payouts` rows and their states; `readiness.py`: what must hold before a
  payout is asked for or approved, the limits included;
- `two_people.py`: asked by one staff member, approved by another;
- `transfers.py`: the transfer created once and released once approved;
- `settlement.py`: what the bank says of a transfer, read back and applied forward only, the
  lead moved to `bought` when it is paid.

A shared package, as the sale by mail is: the staff area and the status page show its payouts,
and features may import shared packages only. It imports the records, the sale and the other
shared packages; nothing below it imports it (the sale's own rules about payouts, in
app/sale/purchase/bank_payouts.py, read its table).
"""
