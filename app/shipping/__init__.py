"""The sale by mail (docs/shipping.md), behind MAILIN_ENABLED: a seller anywhere in the
US sends the watch on a prepaid label bought for the deal, tracked to our door, insured under
the business's own high-value shipping policy (the label provider's own cover excludes
watches), and, if the sale does not go ahead, sent back the same way.

- `shipment_state.py`: a parcel's states, which only move forward, and the provider's words;
- `easypost_api.py`: the label provider (EasyPost, through its own library): addresses,
  shipments, labels, refunds;
- `labels.py`: a deal's parcel on record, and its label bought once however often it is asked;
- `webhook.py`: the provider's tracking events, verified on their raw bytes and stored once;
- `tracking.py`: what an event does to its parcel, applied by a job;
- `routes.py`, `views.py`: the webhook's URL.

A feature area: it imports the sale, the records and the shared packages; nothing else imports
it, and nothing the provider says creates a deal, moves one backwards or changes an amount.
"""
