"""The sale by mail (docs/shipping.md), behind MAILIN_ENABLED: a seller anywhere in the
US sends the watch on a prepaid label bought for the deal, tracked to our door, insured under
the business's own high-value shipping policy (the label provider's own cover excludes
watches), and, if the sale does not go ahead, sent back the same way.

- `shipment_state.py`: a parcel's states, which only move forward, and the provider's words;
- `easypost_api.py`: the label provider (EasyPost, through its own library): addresses,
  shipments, labels, refunds; `addresses.py`: a return address verified by it;
- `preparation.py`: the seller's steps before the label, and staff's ID check that opens the
  parcel; `address_change.py`: a new return address after the label, confirmed by e-mail;
  `label_files.py`: the label as the seller downloads it (PDF, 4x6 or letter);
- `labels.py`: a deal's parcel on record, and its label bought once however often it is asked;
- `webhook.py`: the provider's tracking events, verified on their raw bytes and stored once;
- `tracking.py`: what an event does to its parcel, applied by a job;
- `reconcile.py`: what the webhooks missed, unused labels voided; `declarations.py`: the
  insurer's monthly file; `shipment_tabs.py`: the parcels as staff look for them;
- `returns.py`: the free insured return, or a watch held when its register check is flagged;
  `claims.py`: claims under the policy for a parcel lost or damaged;
- `notices.py`: the seller's e-mails about their parcel, owed once per parcel and step;
- `arrival.py`: a delivered parcel opened on record, a mismatch signed off by a second staff
  member; `progress.py`: the parcel as the seller's status page shows it;
- `routes.py`, `views.py`: the webhook's URL; `cli.py`: `flask shipping`.

A shared package, as the sale is: the staff area (`/staff/shipments`, a lead's arrival) and
the seller's status page show its parcels, and features may import shared packages only. It
imports the records, the sale and the other shared packages, nothing below it imports it, and
its one URL is the provider's webhook. Nothing the provider says creates a deal, moves one
backwards or changes an amount.
"""
