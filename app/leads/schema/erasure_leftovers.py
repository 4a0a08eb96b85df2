"""What erasures used to leave in leads.db, no longer kept (app/leads/schema/ runs it): the
leads erased before this step lose it here, as an erasure loses it from now on."""

from __future__ import annotations

# Leads already erased: the ZIP code their confirmed return address's event carried (the
# timeline is rewritten only for an erased lead, which these are).
ERASED_LEADS = "SELECT id FROM leads WHERE erased_at IS NOT NULL"

ERASURE_LEFTOVERS = (
    # Where the provider keeps a bought label's image (the seller's name and address on it):
    # never read here, since the status page fetches the label by the shipment's id.
    "ALTER TABLE shipments DROP COLUMN label_url",
    # Every stored tracking event cut to what the webhook keeps from now on (its EVENT_FIELDS
    # and TRACKER_FIELDS, as they were when this step was written): no scan's place, no name
    # of who signed, no public tracking page.
    """UPDATE shipment_events SET body = json_set(
        (SELECT json_group_object(key, value) FROM json_each(shipment_events.body)
            WHERE key IN ('id', 'object', 'description', 'mode', 'created_at')),
        '$.result',
        json((SELECT json_group_object(key, value) FROM json_each(shipment_events.body, '$.result')
            WHERE key IN ('id', 'object', 'tracking_code', 'status', 'status_detail', 'carrier',
                'weight'))))""",
    f"""UPDATE lead_events SET data = json_remove(data, '$.zip')
        WHERE kind = 'return_address_confirmed' AND json_type(data, '$.zip') IS NOT NULL
        AND lead_id IN ({ERASED_LEADS})""",
)
